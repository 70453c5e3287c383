// /profile: to the profile of the last game visited, else dota2 (docs/product/routes.md#guards-and-redirects).
import { redirect } from "react-router";
import { requireUser, storedGameProfile } from "../../lib/guards.server.ts";
import type { Route } from "./+types/redirect.ts";

export function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, request);
  throw redirect(storedGameProfile(context, request));
}

export default function ProfileRedirect() {
  return null;
}
