// Two-factor codes on and off (docs/product/accounts.md#two-factor-authentication), and the check
// of a second factor that the sign-in's code step shares.
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { recoveryCodes, users } from "../../db/schema/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import { randomString, sha256 } from "../shared/tokens.ts";
import type { RequestMeta, TwoFaEnabled, TwoFaSetup, UserRow } from "./accounts.model.ts";
import type { DisableTwoFaInput } from "./accounts.schema.ts";
import { attemptKeys, type Attempts } from "./attempts.ts";
import { getUser, securityNotice, type AccountsDeps } from "./deps.ts";
import { matchTotp, newTotpSecret, otpauthUrl, qrDataUrl } from "./totp.ts";

const RECOVERY_CODES = 10;
const CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/**
 * Checks a 6-digit TOTP code (each time step once) or a recovery code (each once). Atomic: two
 * requests with the same code cannot both succeed.
 */
export async function spendSecondFactor({ db, clock }: { db: Db; clock: Clock }, user: UserRow, code: string): Promise<boolean> {
  if (!user.twoFaSecret) return false;
  const step = matchTotp(user.twoFaSecret, code, clock.now());
  if (step !== null) {
    const updated = await db
      .update(users)
      .set({ twoFaLastStep: step })
      .where(and(eq(users.id, user.id), or(isNull(users.twoFaLastStep), lt(users.twoFaLastStep, step))))
      .returning({ id: users.id });
    return updated.length === 1;
  }
  const normalized = code.toLowerCase().replace("-", "");
  if (normalized.length !== 8) return false;
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: clock.now() })
    .where(and(eq(recoveryCodes.userId, user.id), eq(recoveryCodes.codeHash, sha256(normalized)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return used.length === 1;
}

export function createTwoFactor(deps: AccountsDeps, attempts: Attempts) {
  const { db, clock, passwords } = deps;
  return {
    /**
     * A second factor for an action of a signed-in user (an operator's step-up,
     * docs/product/back-office.md#step-up): counted like the code step of a sign-in, so a step-up
     * buys no more guesses than signing in does. Throws two_fa_required without 2FA and
     * invalid_code for a wrong or used code.
     */
    async verifySecondFactor(userId: number, code: string, meta: Pick<RequestMeta, "ip">): Promise<void> {
      const user = await getUser(db, userId);
      if (!user.twoFaEnabled) throw new DomainError("two_fa_required", "errors.admin_two_fa_required");
      const keys = attemptKeys(meta.ip, user, "");
      await attempts.reserve(keys);
      if (!(await spendSecondFactor(deps, user, code))) throw new DomainError("invalid_code", "errors.invalid_two_fa_code");
      await attempts.succeeded(keys, true);
    },

    async enableTwoFa(userId: number): Promise<TwoFaSetup> {
      const user = await getUser(db, userId);
      if (user.twoFaEnabled) throw new DomainError("conflict", "errors.two_fa_already_on");
      const secret = newTotpSecret();
      await db.update(users).set({ twoFaSecret: secret, twoFaLastStep: null }).where(eq(users.id, user.id));
      const url = otpauthUrl(secret, user.email);
      return { secret, otpauthUrl: url, qr: await qrDataUrl(url) };
    },

    async confirmEnableTwoFa(userId: number, code: string): Promise<TwoFaEnabled> {
      const user = await getUser(db, userId);
      if (user.twoFaEnabled) throw new DomainError("conflict", "errors.two_fa_already_on");
      if (!user.twoFaSecret) throw new DomainError("conflict", "errors.two_fa_not_started");
      if (!(await spendSecondFactor(deps, user, code))) throw new DomainError("invalid_code", "errors.invalid_two_fa_code");
      const codes = Array.from({ length: RECOVERY_CODES }, () => randomString(8, CODE_ALPHABET));
      await db.transaction(async (tx) => {
        await tx.update(users).set({ twoFaEnabled: true, updatedAt: clock.now() }).where(eq(users.id, user.id));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
        await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId: user.id, codeHash: sha256(c) })));
      });
      await securityNotice(deps, user, "two_fa_enabled");
      return { recoveryCodes: codes.map((c) => `${c.slice(0, 4)}-${c.slice(4)}`) };
    },

    async disableTwoFa(userId: number, input: DisableTwoFaInput, meta: RequestMeta): Promise<void> {
      const user = await getUser(db, userId);
      if (!user.twoFaEnabled) throw new DomainError("conflict", "errors.two_fa_already_off");
      // Password and code are checked like a sign-in's (see attempts.ts), given back when both are right.
      const keys = attemptKeys(meta.ip, user, "");
      await attempts.reserve(keys);
      const passwordOk = await passwords.verify(user.passwordHash, input.password);
      if (!passwordOk || !(await spendSecondFactor(deps, user, input.code))) {
        throw new DomainError("validation_failed", "errors.validation_failed", {
          fields: passwordOk ? { code: "validation.code_wrong" } : { password: "validation.password_wrong" },
        });
      }
      await attempts.succeeded(keys, true);
      await db.transaction(async (tx) => {
        await tx.update(users).set({ twoFaEnabled: false, twoFaSecret: null, twoFaLastStep: null, updatedAt: clock.now() }).where(eq(users.id, user.id));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
      });
      await securityNotice(deps, user, "two_fa_disabled");
    },
  };
}
