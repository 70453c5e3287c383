// Loader and action arguments with the typed load context (services, locale, t…).
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "react-router";

export type LoaderArgs = LoaderFunctionArgs<AppLoadContext>;
export type ActionArgs = ActionFunctionArgs<AppLoadContext>;
