// Route guards and redirects of spec §2 (server side: loaders and actions).
import { redirect, type AppLoadContext } from "react-router";
import { localePath, type Locale } from "../../i18n/locales.ts";
import { cookieValue } from "../../server/http/cookies.ts";
import { notFound, selfPath } from "./meta.ts";

export const DEFAULT_GAME = "dota2";

export function readCookie(request: Request, name: string): string | undefined {
  return cookieValue(request.headers.get("cookie"), name);
}

/** A redirect target only when it is a path of this site: never another host or scheme. */
export function safeRedirectPath(target: string | null | undefined, origin: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (!target || !target.startsWith("/") || target.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(target)) return undefined;
  try {
    const url = new URL(target, origin);
    return url.origin === new URL(origin).origin ? url.pathname + url.search + url.hash : undefined;
  } catch {
    return undefined;
  }
}

/** The profile of the last game visited (cookie `game`), else dota2, in the page's language. */
export function storedGameProfile(context: AppLoadContext, request: Request, locale: Locale = context.locale): string {
  const stored = readCookie(request, "game");
  const game = stored && context.services.catalog.cheatBySlug(stored) ? stored : DEFAULT_GAME;
  return localePath(locale, `/${game}/profile`);
}

/** Where a sign-in leads: `redirectTo` when it is ours, else the stored game's profile. */
export function afterSignIn(context: AppLoadContext, request: Request, redirectTo: string | null | undefined): string {
  return safeRedirectPath(redirectTo, context.services.settings.PUBLIC_URL) ?? storedGameProfile(context, request);
}

/** Profile routes: a guest goes to /auth?redirectTo=<full path> in their language. */
export function requireUser(context: AppLoadContext, request: Request) {
  if (context.auth) return context.auth;
  throw redirect(`${localePath(context.locale, "/auth")}?redirectTo=${encodeURIComponent(selfPath(request))}`);
}

/** Auth pages: a signed-in user goes to the profile. */
export function requireGuest(context: AppLoadContext, request: Request): void {
  if (context.auth) throw redirect(storedGameProfile(context, request));
}

/** Every /{game}/profile page: an unknown game is a 404 (decisions §5), a guest goes to sign in. */
export function requireProfile(context: AppLoadContext, request: Request, params: { game?: string }) {
  const game = context.services.catalog.cheatBySlug(params.game ?? "");
  if (!game) notFound(request);
  return { auth: requireUser(context, request), game };
}
