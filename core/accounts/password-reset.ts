// Password reset by a mailed code (docs/product/accounts.md#password-reset). Nothing here tells a
// caller whether an address is registered, by its answer or its timing.
import { and, desc, eq, gt, inArray, isNull, lt, sql } from "drizzle-orm";
import { oneTimeCodes, users } from "../../db/schema/index.ts";
import { addressKey } from "../ratelimit/index.ts";
import { DomainError } from "../shared/errors.ts";
import { sha256, sixDigitCode } from "../shared/tokens.ts";
import type { RequestMeta, UserRow } from "./accounts.model.ts";
import type { ResetRequestInput, SetPasswordResetInput, ValidateResetCodeInput } from "./accounts.schema.ts";
import { findUserByLogin } from "./accounts.store.ts";
import { getUser, pageUrl, refuseCommon, requireRecaptcha, securityNotice, type AccountsDeps } from "./deps.ts";

const RESET_CODE_SECONDS = 10 * 60;
const RESET_CODE_TRIES = 5;

/** A new reset code for the user (older ones die), mailed to the account's address. */
export async function issueResetCode({ db, clock, mailer, publicUrl }: Pick<AccountsDeps, "db" | "clock" | "mailer" | "publicUrl">, user: UserRow) {
  const code = sixDigitCode();
  const now = clock.now();
  await db.transaction(async (tx) => {
    // A newer code kills the older ones. They are deleted, not kept as used: six digits
    // repeat, and (purpose, code_hash) is unique, so a kept row would refuse a repeated code.
    await tx.delete(oneTimeCodes).where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, "password_reset")));
    await tx.insert(oneTimeCodes).values({
      userId: user.id,
      purpose: "password_reset",
      codeHash: sha256(`${user.id}:${code}`),
      expiresAt: new Date(now.getTime() + RESET_CODE_SECONDS * 1000),
      createdAt: now,
    });
  });
  const locale = user.locale;
  const link = pageUrl(publicUrl, locale, `/auth/restore-password?email=${encodeURIComponent(user.email)}&code=${code}`);
  await mailer.send({ to: user.email, locale, template: "password_reset", params: { code, link } });
}

export function createPasswordReset(deps: AccountsDeps) {
  const { db, clock, sessions, limiter, recaptcha, limits, background, passwords } = deps;

  /**
   * Spends one try on the live reset code of the account with this address, in one statement
   * whatever the address: an unknown address, an account without a live code and a wrong code all
   * cost the same (docs/product/accounts.md#password-reset: the answer must not tell whether the address is registered).
   */
  async function spendResetTry(email: string): Promise<{ id: number; userId: number; codeHash: string } | undefined> {
    const now = clock.now();
    const latest = db
      .select({ id: oneTimeCodes.id })
      .from(oneTimeCodes)
      .innerJoin(users, eq(users.id, oneTimeCodes.userId))
      .where(and(sql`lower(${users.email}) = ${email}`, eq(oneTimeCodes.purpose, "password_reset"), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, now)))
      .orderBy(desc(oneTimeCodes.id))
      .limit(1);
    const [row] = await db
      .update(oneTimeCodes)
      .set({ attempts: sql`${oneTimeCodes.attempts} + 1` })
      .where(and(inArray(oneTimeCodes.id, latest), lt(oneTimeCodes.attempts, RESET_CODE_TRIES), isNull(oneTimeCodes.usedAt)))
      .returning({ id: oneTimeCodes.id, userId: oneTimeCodes.userId, codeHash: oneTimeCodes.codeHash });
    return row;
  }

  /**
   * The reset code's row when `code` is right; a wrong code costs one of its five tries. Checks
   * are limited like reset requests, per address and per e-mail (unknown ones too), counted before
   * the check and given back when the code is right.
   */
  async function checkResetCode(email: string, code: string, meta: Pick<RequestMeta, "ip">): Promise<{ user: UserRow; codeId: number }> {
    const keys = [`reset-check:email:${email}`, `reset-check:ip:${addressKey(meta.ip)}`] as const;
    await limiter.consumeAll([
      [keys[0], limits.resetAccount],
      [keys[1], limits.resetIp],
    ]);
    const row = await spendResetTry(email);
    if (!row || row.codeHash !== sha256(`${row.userId}:${code}`)) throw new DomainError("invalid_code");
    // A right code gives its try back: only wrong ones count.
    await db
      .update(oneTimeCodes)
      .set({ attempts: sql`${oneTimeCodes.attempts} - 1` })
      .where(eq(oneTimeCodes.id, row.id));
    await Promise.all(keys.map((key) => limiter.release(key)));
    return { user: await getUser(db, row.userId), codeId: row.id };
  }

  return {
    /**
     * Always answers the same way. The per-address limit is enforced silently (the request is
     * "answered as if sent"); the lookup and the mail happen after the answer, so its timing does
     * not depend on whether the address is registered. `done` settles when that work has.
     */
    async requestPasswordReset({ email, recaptchaToken }: ResetRequestInput, meta: RequestMeta): Promise<{ done: Promise<void> }> {
      await requireRecaptcha(recaptcha, recaptchaToken, meta.ip);
      await limiter.consume(`reset:ip:${addressKey(meta.ip)}`, limits.resetIp);
      const done = background.run(async () => {
        const { count } = await limiter.countAndRead(`reset:email:${email}`, limits.resetAccount);
        if (count > limits.resetAccount.limit) return;
        const user = await findUserByLogin(db, email);
        if (user) await issueResetCode(deps, user);
      });
      return { done };
    },

    async validateResetCode(input: ValidateResetCodeInput, meta: Pick<RequestMeta, "ip">): Promise<void> {
      await checkResetCode(input.email, input.resetCode, meta);
    },

    async setPasswordReset(input: SetPasswordResetInput, meta: Pick<RequestMeta, "ip">): Promise<void> {
      refuseCommon(input.password, "password");
      const { user, codeId } = await checkResetCode(input.email, input.resetCode, meta);
      const passwordHash = await passwords.hash(input.password);
      await db.transaction(async (tx) => {
        const used = await tx
          .update(oneTimeCodes)
          .set({ usedAt: clock.now() })
          .where(and(eq(oneTimeCodes.id, codeId), isNull(oneTimeCodes.usedAt)))
          .returning({ id: oneTimeCodes.id });
        if (used.length === 0) throw new DomainError("invalid_code");
        await tx.update(users).set({ passwordHash, updatedAt: clock.now() }).where(eq(users.id, user.id));
        await sessions.revokeAll(user.id, undefined, tx);
      });
      await securityNotice(deps, user, "password_changed");
    },
  };
}
