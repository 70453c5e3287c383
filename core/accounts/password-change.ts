// Changing the password while signed in (docs/product/accounts.md#password-change).
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { DomainError } from "../shared/errors.ts";
import type { RequestMeta } from "./accounts.model.ts";
import type { ChangePasswordInput } from "./accounts.schema.ts";
import { attemptKeys, type Attempts } from "./attempts.ts";
import { getUser, refuseCommon, securityNotice, type AccountsDeps } from "./deps.ts";

export function createPasswordChange(deps: AccountsDeps, attempts: Attempts) {
  const { db, clock, sessions, passwords } = deps;
  return {
    /** Every session of the user ends; the answer is a new one for the browser that asked. */
    async changePassword(userId: number, input: ChangePasswordInput, meta: RequestMeta): Promise<{ token: string }> {
      const user = await getUser(db, userId);
      // A password check like a sign-in's: same counters (a stolen session must not buy unlimited
      // guesses at the password), counted before the check.
      const keys = attemptKeys(meta.ip, user, "");
      await attempts.reserve(keys);
      if (!(await passwords.verify(user.passwordHash, input.oldPassword))) {
        throw new DomainError("validation_failed", "errors.validation_failed", { fields: { old_password: "validation.password_wrong" } });
      }
      await attempts.succeeded(keys, true);
      refuseCommon(input.newPassword, "new_password");
      const passwordHash = await passwords.hash(input.newPassword);
      const token = await db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash, updatedAt: clock.now() }).where(eq(users.id, user.id));
        await sessions.revokeAll(user.id, undefined, tx);
        return (await sessions.create(user.id, "full", meta, tx)).token;
      });
      await securityNotice(deps, user, "password_changed");
      return { token };
    },
  };
}
