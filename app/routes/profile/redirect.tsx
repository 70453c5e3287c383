// /profile: to the profile of the last game visited, else dota2 (docs/product/routes.md#guards-and-redirects).
// It also takes the header inbox's form (docs/product/accounts.md#notifications): marks one
// notification or all of them read, then goes back to the page the form was on.
import { data, redirect } from "react-router";
import { MarkReadFormSchema } from "../../../core/notifications/notifications.schema.ts";
import { readSubmission } from "../../lib/forms.server.ts";
import { requireUser, safeRedirectPath, storedGameProfile } from "../../lib/guards.server.ts";
import type { Route } from "./+types/redirect.ts";

export function loader({ context, request, url }: Route.LoaderArgs) {
  requireUser(context, url);
  throw redirect(storedGameProfile(context, request));
}

export async function action({ context, request, url }: Route.ActionArgs) {
  const auth = requireUser(context, url);
  const submission = await readSubmission(context, request, MarkReadFormSchema);
  // The inbox's buttons post fixed fields: anything else came from no form of ours.
  if (submission.status !== "success") throw data("errors.validation_failed", { status: 400 });
  const { id, back } = submission.value;
  await context.services.notifications.markRead(auth.user.id, id === undefined ? { all: true } : { ids: [id] });
  return redirect(safeRedirectPath(back, context.services.settings.PUBLIC_URL) ?? storedGameProfile(context, request), 303);
}

export default function ProfileRedirect() {
  return null;
}
