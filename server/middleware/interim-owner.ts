// INTERIM owner guard of delivery's operator calls (build uploads, webhook endpoints), until the back
// office's operator guard (issue 10: roles, 2FA, step-up, audit) is on main; at the merge these calls
// move behind that guard and this file goes. An owner here is a signed-in user whose e-mail is in
// OWNER_EMAILS (the setting of docs/product/back-office.md#roles, docs/product/later.md#back-office) and who has two-factor
// codes on: guests get 401, anyone else 403, as the back office answers.
import type { Context } from "hono";
import { DomainError } from "../../core/shared/errors.ts";
import type { HonoEnv } from "../context.ts";
import { requireAuth } from "./session.ts";

export function requireInterimOwner(c: Context<HonoEnv>) {
  const auth = requireAuth(c);
  const owners = c.get("services").settings.OWNER_EMAILS;
  if (!owners.includes(auth.user.email.toLowerCase())) throw new DomainError("forbidden");
  if (!auth.user.twoFaEnabled) throw new DomainError("forbidden", "errors.operator_two_fa");
  return auth;
}
