// Signing in and out (docs/product/accounts.md#sign-in): password, then for a two-factor account
// the code step on a pre-2FA session; every attempt at a secret counted (attempts.ts).
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { DomainError } from "../shared/errors.ts";
import { randomToken } from "../shared/tokens.ts";
import { toUser, type RequestMeta, type SignIn, type User } from "./accounts.model.ts";
import type { LoginInput } from "./accounts.schema.ts";
import { findUserByLogin } from "./accounts.store.ts";
import { attemptKeys, type Attempts } from "./attempts.ts";
import { getUser, refuseSuspended, requireRecaptcha, type AccountsDeps } from "./deps.ts";
import { spendSecondFactor } from "./two-factor.ts";

export function createSignIn(deps: AccountsDeps, attempts: Attempts) {
  const { db, sessions, recaptcha, currency, supportEmail, passwords } = deps;
  let dummyHash: Promise<string> | undefined;

  return {
    async login(input: LoginInput, meta: RequestMeta): Promise<SignIn> {
      await requireRecaptcha(recaptcha, input.recaptchaToken, meta.ip);
      const user = await findUserByLogin(db, input.login);
      const keys = attemptKeys(meta.ip, user, input.login);
      await attempts.reserve(keys);
      // Unknown accounts cost the same Argon2 verification as known ones.
      dummyHash ??= passwords.hash(randomToken());
      const ok = await passwords.verify(user?.passwordHash ?? (await dummyHash), input.password);
      if (!user || !ok) throw new DomainError("invalid_credentials");
      // With 2FA, the sign-in is complete only at confirmTwoFa.
      await attempts.succeeded(keys, !user.twoFaEnabled);
      refuseSuspended(user, supportEmail);
      await db
        .update(users)
        // The page's language becomes the mail language, unless the user chose one (docs/product/accounts.md#e-mail-preferences-and-notices).
        .set({ locale: user.localeChosen ? user.locale : meta.locale, visitorId: input.t ?? user.visitorId })
        .where(eq(users.id, user.id));
      if (user.twoFaEnabled) {
        const { token } = await sessions.create(user.id, "pre2fa", meta);
        return { token, twoFa: true, user: toUser(user, currency) };
      }
      const { token } = await sessions.create(user.id, "full", meta);
      return { token, twoFa: false, user: toUser(user, currency) };
    },

    async confirmTwoFa(pre2faSessionId: number, userId: number, code: string, meta: RequestMeta): Promise<{ token: string; user: User }> {
      const user = await getUser(db, userId);
      const keys = attemptKeys(meta.ip, user, "");
      await attempts.reserve(keys);
      if (!(await spendSecondFactor(deps, user, code))) throw new DomainError("invalid_code", "errors.invalid_two_fa_code");
      await attempts.succeeded(keys, true);
      await sessions.revoke(pre2faSessionId);
      const { token } = await sessions.create(user.id, "full", meta);
      return { token, user: toUser(user, currency) };
    },

    logout: (sessionId: number) => sessions.revoke(sessionId),

    /** Ends every other session of the user ("sign out everywhere else"). */
    signOutOthers: (userId: number, keepSessionId: number) => sessions.revokeAll(userId, keepSessionId),
  };
}
