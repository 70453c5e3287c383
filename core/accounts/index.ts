// Accounts (docs/product/accounts.md): registration, sign-in with optional TOTP, password reset by
// mailed code, password and e-mail change (with an undo link to the old address), 2FA on/off with
// recovery codes, e-mail preferences and one-time sign-in tickets. Nothing here tells a caller
// whether an e-mail is registered, by its answer or its timing, except registration itself, which
// sits behind reCAPTCHA and its rate limit.
//
// This file is the module's public face. Each use case lives in its own file and takes the one
// typed deps object (deps.ts); they return the domain types of accounts.model.ts, which the API
// writes in the wire format (server/api/wire/accounts.ts). Pages may also import the input
// schemas (accounts.schema.ts), which carry nothing but Zod, in their loaders and actions, and
// the forms' field limits (accounts.constraints.ts), which carry nothing at all, anywhere.
import { toUser, type User, type UserRow } from "./accounts.model.ts";
import { createAttempts } from "./attempts.ts";
import type { AccountsDeps } from "./deps.ts";
import { createEmailChange } from "./email-change.ts";
import { createPasswordChange } from "./password-change.ts";
import { createPasswordReset } from "./password-reset.ts";
import { createPreferences } from "./preferences.ts";
import { createRegistration } from "./registration.ts";
import { createSignIn } from "./sign-in.ts";
import { createSso } from "./sso.ts";
import { createTwoFactor } from "./two-factor.ts";
import { createVerification } from "./verification.ts";
import { createAccountDeletion } from "./account-deletion.ts";

export * from "./accounts.schema.ts";
export type * from "./accounts.model.ts";
export type { AccountsDeps } from "./deps.ts";
export { findUserByLogin } from "./accounts.store.ts";
export { createRecaptcha } from "./recaptcha.ts";
export { allowsMarketing } from "./verification.ts";
export { PENDING_ORDER_HOURS, deletedEmail, type DeletionBlock } from "./account-deletion.ts";

export type Accounts = ReturnType<typeof createAccounts>;

export function createAccounts(deps: AccountsDeps) {
  const attempts = createAttempts(deps);
  return {
    /** The account of a user row the caller holds (the session's), as its owner sees it. */
    user: (row: UserRow): User => toUser(row, deps.currency),
    ...createRegistration(deps),
    ...createSignIn(deps, attempts),
    ...createTwoFactor(deps, attempts),
    ...createPasswordReset(deps),
    ...createPasswordChange(deps, attempts),
    ...createEmailChange(deps),
    ...createSso(deps),
    ...createPreferences(deps),
    ...createVerification(deps),
    ...createAccountDeletion(deps, attempts),
  };
}
