// Accounts: registration, sign-in with optional TOTP, password reset by mailed code, password and
// e-mail change (with an undo link to the old address), 2FA on/off with recovery codes, e-mail
// preferences and one-time sign-in tickets. Nothing here tells a caller whether an e-mail is
// registered, by its answer or its timing, except registration itself, which sits behind
// reCAPTCHA and its rate limit.
import { and, desc, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../../db/client.ts";
import { oneTimeCodes, recoveryCodes, users } from "../../db/schema/index.ts";
import type { Locale } from "../../i18n/locales.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import { randomString, randomToken, sha256, sixDigitCode } from "../shared/tokens.ts";
import { addressKey, type RateLimiter, type Rule } from "../ratelimit/index.ts";
import type { Sessions, SessionUser } from "../sessions/index.ts";
import type { Notifications } from "../notifications/index.ts";
import type { Mailer } from "../mail/index.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { findUserByLogin } from "./accounts.store.ts";
import { isCommonPassword } from "./common-passwords.ts";
import type { Recaptcha } from "./recaptcha.ts";
import type { Background } from "../shared/background.ts";
import { isSuspended } from "../suspensions/index.ts";
import { matchTotp, newTotpSecret, otpauthUrl, qrDataUrl } from "./totp.ts";
import type {
  ChangeEmailSchema,
  ChangePasswordSchema,
  DisableTwoFaSchema,
  EmailPreferencesSchema,
  LoginSchema,
  RegisterSchema,
  SetPasswordResetSchema,
  ValidateResetCodeSchema,
} from "./accounts.schema.ts";

export * from "./accounts.schema.ts";
export { findUserByLogin } from "./accounts.store.ts";

export type AccountLimits = {
  /** Failed sign-ins per account and client address (a success resets it). */
  loginAccount: Rule;
  /** Failed sign-ins per account across all addresses. */
  loginAccountGlobal: Rule;
  /** Failed sign-ins per client address, whatever the accounts. */
  loginIp: Rule;
  resetAccount: Rule;
  resetIp: Rule;
  registerIp: Rule;
  /** Mails to an address the user typed (e-mail change; gifts by e-mail share the counter), per user. */
  mailUser: Rule;
};

/** Who is asking: what the HTTP edge knows about the request. */
export type RequestMeta = { ip: string; userAgent?: string; locale: Locale };

/** The user as the API shows it (docs/product/data.md#users). */
export type UserView = {
  id: number;
  email: string;
  username: string | null;
  balance: number;
  currency: string;
  two_fa_enabled: boolean;
  pending_email: string | null;
  referral_code: string;
  created_at: string;
  /** Minor units still owed after a refund took more than the balance held (docs/product/money.md#owed). */
  owed: number;
};

export type EmailPreferences = { allow_marketing: boolean; allow_security: boolean };

const RESET_CODE_SECONDS = 10 * 60;
const RESET_CODE_TRIES = 5;
const EMAIL_CHANGE_SECONDS = 24 * 3600;
/** How long the old address can undo a change (long enough for a holiday, short for a recycled mailbox). */
const EMAIL_UNDO_SECONDS = 7 * 24 * 3600;
const SSO_TICKET_SECONDS = 60;
const RECOVERY_CODES = 10;
const CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const REFERRAL_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

type Logger = { error(obj: object, msg?: string): void };

export type Accounts = ReturnType<typeof createAccounts>;

export function createAccounts(deps: {
  db: Db;
  clock: Clock;
  sessions: Sessions;
  limiter: RateLimiter;
  mailer: Mailer;
  notifications: Notifications;
  recaptcha: Recaptcha;
  limits: AccountLimits;
  publicUrl: string;
  currency: string;
  /** The support contact a suspended user is pointed to (SUPPORT_EMAIL). */
  supportEmail: string;
  logger: Logger;
  background: Background;
}) {
  const { db, clock, sessions, limiter, mailer, notifications, recaptcha, limits, publicUrl, currency, supportEmail, logger, background } = deps;
  let dummyHash: Promise<string> | undefined;

  function view(user: SessionUser): UserView {
    return {
      id: user.id,
      email: user.email,
      username: user.username,
      balance: user.balance,
      currency,
      two_fa_enabled: user.twoFaEnabled,
      pending_email: user.pendingEmail,
      referral_code: user.referralCode,
      created_at: user.createdAt.toISOString(),
      owed: user.owed,
    };
  }

  /** A suspended account gets no session (docs/product/accounts.md#suspension); said only to whoever proved the password. */
  function refuseSuspended(user: SessionUser) {
    if (isSuspended(user)) throw new DomainError("account_suspended", "errors.account_suspended", { params: { support: supportEmail } });
  }

  async function requireRecaptcha(token: string | undefined, ip: string) {
    if (recaptcha.enabled && !(await recaptcha.verify(token, ip))) throw new DomainError("recaptcha_failed");
  }

  function refuseCommon(password: string, field: string) {
    if (isCommonPassword(password)) {
      throw new DomainError("validation_failed", "errors.validation_failed", { fields: { [field]: "validation.password_common" } });
    }
  }

  async function getUser(id: number): Promise<SessionUser> {
    const rows = await db.select().from(users).where(eq(users.id, id));
    if (!rows[0]) throw new DomainError("unauthenticated");
    return rows[0];
  }

  /**
   * Tells the user of a change of password or 2FA: a notification and a mail. These are never
   * silenced: allow_security covers only optional notices (such as new sign-ins), not changes that
   * an intruder would want the owner not to see. (An e-mail change tells the old address with an
   * undo link when it is asked for: see changeEmail.)
   */
  async function securityNotice(user: SessionUser, type: "password_changed" | "two_fa_enabled" | "two_fa_disabled") {
    await notifications.create(user.id, type);
    await mailer
      .send({ to: user.email, locale: user.locale as Locale, template: type })
      .catch((err: unknown) => logger.error({ err }, "security notice mail failed"));
  }

  const localePrefix = (locale: string) => (locale === "ru" ? "" : `/${locale}`);

  /** A new reset code for the user (older ones die), mailed to the account's address. */
  async function issueResetCode(user: SessionUser) {
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
    const link = `${publicUrl}${localePrefix(user.locale)}/auth/restore-password?email=${encodeURIComponent(user.email)}&code=${code}`;
    await mailer.send({ to: user.email, locale: user.locale as Locale, template: "password_reset", params: { code, link } });
  }

  function isUniqueViolation(error: unknown, constraint: string): boolean {
    for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
      const { code, constraint: name, message } = e as { code?: string; constraint?: string; message?: string };
      if (code === "23505" && (name === constraint || message?.includes(constraint))) return true;
    }
    return false;
  }

  /**
   * Checks a 6-digit TOTP code (each time step once) or a recovery code (each once). Atomic: two
   * requests with the same code cannot both succeed.
   */
  async function useSecondFactor(user: SessionUser, code: string): Promise<boolean> {
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

  /**
   * The counters of a secret check (docs/product/api.md#rate-limits): the account from this client address, the
   * client address whatever the account, and the account from all addresses. Failures from one
   * address lock only that address out of the account: the owner signs in from another one
   * unless failures from many addresses add up to the account-wide limit. Unknown logins are
   * counted by name, so that they look like known ones.
   */
  function attemptKeys(ip: string, user: SessionUser | undefined, login: string) {
    const account = user ? `login:user:${user.id}` : `login:name:${login.trim().normalize("NFC").toLowerCase()}`;
    const address = addressKey(ip);
    return { pair: `${account}:ip:${address}`, ip: `login:ip:${address}`, account };
  }
  type AttemptKeys = ReturnType<typeof attemptKeys>;

  /**
   * Counts an attempt at a secret (password or second factor) against all three limits before it
   * is checked, refusing it past any of them; counting first (rather than checking, then counting
   * failures) keeps parallel requests from all slipping under a limit. The narrowest counter comes
   * first, and a refusal gives back what was counted, so attempts refused at a locked (account,
   * address) pair never use up the account's own limit.
   */
  async function reserveAttempt(keys: AttemptKeys) {
    await limiter.consumeAll([
      [keys.pair, limits.loginAccount],
      [keys.ip, limits.loginIp],
      [keys.account, limits.loginAccountGlobal],
    ]);
  }

  /**
   * An attempt that was no failure: it is given back to the address and account-wide counters;
   * a complete success also resets the (account, address) counter. A right password with a second
   * factor still to come is not complete: a known password would otherwise buy unlimited guesses
   * at the second factor.
   */
  async function attemptSucceeded(keys: AttemptKeys, complete: boolean) {
    await Promise.all([
      limiter.release(keys.ip),
      limiter.release(keys.account),
      complete ? limiter.reset(keys.pair) : limiter.release(keys.pair),
    ]);
  }

  const newReferralCode = () => randomString(8, REFERRAL_ALPHABET);

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
  async function checkResetCode(email: string, code: string, meta: Pick<RequestMeta, "ip">): Promise<{ user: SessionUser; codeId: number }> {
    const keys = [`reset-check:email:${email}`, `reset-check:ip:${addressKey(meta.ip)}`] as const;
    await limiter.consumeAll([
      [keys[0], limits.resetAccount],
      [keys[1], limits.resetIp],
    ]);
    const row = await spendResetTry(email);
    if (!row || row.codeHash !== sha256(`${row.userId}:${code}`)) throw new DomainError("invalid_code");
    // A right code gives its try back: only wrong ones count.
    await db.update(oneTimeCodes).set({ attempts: sql`${oneTimeCodes.attempts} - 1` }).where(eq(oneTimeCodes.id, row.id));
    await Promise.all(keys.map((key) => limiter.release(key)));
    return { user: await getUser(row.userId), codeId: row.id };
  }

  const EMAIL_UNDO_PURPOSE = "email_change_undo";

  /** The live undo link of a token: its row, or undefined. */
  async function liveUndo(token: string) {
    const [row] = await db
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.purpose, EMAIL_UNDO_PURPOSE), eq(oneTimeCodes.codeHash, sha256(token)), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, clock.now())));
    return row && typeof row.payload?.email === "string" ? { ...row, email: row.payload.email } : undefined;
  }

  return {
    view,
    getUser,

    async register(input: z.infer<typeof RegisterSchema>, meta: RequestMeta & { referrerCode?: string }) {
      await requireRecaptcha(input.recaptchaToken, meta.ip);
      await limiter.consume(`register:ip:${addressKey(meta.ip)}`, limits.registerIp);
      refuseCommon(input.password, "password");
      const referralSource = (input.referrer ?? meta.referrerCode)?.trim().toUpperCase();
      const referrer = referralSource
        ? (await db.select({ id: users.id }).from(users).where(eq(users.referralCode, referralSource)).limit(1))[0]
        : undefined;
      const passwordHash = await hashPassword(input.password);
      for (let attempt = 0; ; attempt++) {
        try {
          return await db.transaction(async (tx) => {
            const [user] = await tx
              .insert(users)
              .values({
                email: input.email,
                username: input.username ?? null,
                passwordHash,
                locale: meta.locale,
                referralCode: newReferralCode(),
                referrerId: referrer?.id ?? null,
                visitorId: input.t ?? null,
                signupIp: meta.ip,
                createdAt: clock.now(),
                updatedAt: clock.now(),
              })
              .returning();
            const { token } = await sessions.create(user!.id, "full", meta, tx);
            return { token, user: user! };
          });
        } catch (error) {
          if (isUniqueViolation(error, "users_email_lower")) {
            throw new DomainError("email_taken", "errors.email_taken", { fields: { email: "validation.email_taken" } });
          }
          if (isUniqueViolation(error, "users_username_lower")) {
            throw new DomainError("username_taken", "errors.username_taken", { fields: { username: "validation.username_taken" } });
          }
          if (isUniqueViolation(error, "users_referral_code_unique") && attempt < 5) continue;
          throw error;
        }
      }
    },

    async login(input: z.infer<typeof LoginSchema>, meta: RequestMeta) {
      await requireRecaptcha(input.recaptchaToken, meta.ip);
      const user = await findUserByLogin(db, input.login);
      const keys = attemptKeys(meta.ip, user, input.login);
      await reserveAttempt(keys);
      // Unknown accounts cost the same Argon2 verification as known ones.
      dummyHash ??= hashPassword(randomToken());
      const ok = await verifyPassword(user?.passwordHash ?? (await dummyHash), input.password);
      if (!user || !ok) throw new DomainError("invalid_credentials");
      // With 2FA, the sign-in is complete only at confirmTwoFa.
      await attemptSucceeded(keys, !user.twoFaEnabled);
      refuseSuspended(user);
      await db
        .update(users)
        .set({ locale: meta.locale, visitorId: input.t ?? user.visitorId })
        .where(eq(users.id, user.id));
      if (user.twoFaEnabled) {
        const { token } = await sessions.create(user.id, "pre2fa", meta);
        return { token, twoFa: true as const, user };
      }
      const { token } = await sessions.create(user.id, "full", meta);
      return { token, twoFa: false as const, user };
    },

    async confirmTwoFa(pre2faSessionId: number, userId: number, code: string, meta: RequestMeta) {
      const user = await getUser(userId);
      const keys = attemptKeys(meta.ip, user, "");
      await reserveAttempt(keys);
      if (!(await useSecondFactor(user, code))) throw new DomainError("invalid_code", "errors.invalid_two_fa_code");
      await attemptSucceeded(keys, true);
      await sessions.revoke(pre2faSessionId);
      const { token } = await sessions.create(user.id, "full", meta);
      return { token, user };
    },

    logout: (sessionId: number) => sessions.revoke(sessionId),

    /** Ends every other session of the user ("sign out everywhere else"). */
    signOutOthers: (userId: number, keepSessionId: number) => sessions.revokeAll(userId, keepSessionId),

    /**
     * Always answers the same way. The per-address limit is enforced silently (the request is
     * "answered as if sent"); the lookup and the mail happen after the answer, so its timing does
     * not depend on whether the address is registered.
     */
    async requestPasswordReset(email: string, recaptchaToken: string | undefined, meta: RequestMeta): Promise<{ done: Promise<void> }> {
      await requireRecaptcha(recaptchaToken, meta.ip);
      await limiter.consume(`reset:ip:${addressKey(meta.ip)}`, limits.resetIp);
      const done = background.run(async () => {
        const { count } = await limiter.countAndRead(`reset:email:${email}`, limits.resetAccount);
        if (count > limits.resetAccount.limit) return;
        const user = await findUserByLogin(db, email);
        if (user) await issueResetCode(user);
      });
      return { done };
    },

    async validateResetCode(input: z.infer<typeof ValidateResetCodeSchema>, meta: Pick<RequestMeta, "ip">) {
      await checkResetCode(input.email, input.resetCode, meta);
    },

    async setPasswordReset(input: z.infer<typeof SetPasswordResetSchema>, meta: Pick<RequestMeta, "ip">) {
      refuseCommon(input.password, "password");
      const { user, codeId } = await checkResetCode(input.email, input.resetCode, meta);
      const passwordHash = await hashPassword(input.password);
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
      await securityNotice(user, "password_changed");
    },

    async changePassword(userId: number, sessionId: number, input: z.infer<typeof ChangePasswordSchema>, meta: RequestMeta) {
      const user = await getUser(userId);
      // A password check like a sign-in's: same counters (a stolen session must not buy unlimited
      // guesses at the password), counted before the check.
      const keys = attemptKeys(meta.ip, user, "");
      await reserveAttempt(keys);
      if (!(await verifyPassword(user.passwordHash, input.old_password))) {
        throw new DomainError("validation_failed", "errors.validation_failed", { fields: { old_password: "validation.password_wrong" } });
      }
      await attemptSucceeded(keys, true);
      refuseCommon(input.new_password, "new_password");
      const passwordHash = await hashPassword(input.new_password);
      const token = await db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash, updatedAt: clock.now() }).where(eq(users.id, user.id));
        await sessions.revokeAll(user.id, undefined, tx);
        return (await sessions.create(user.id, "full", meta, tx)).token;
      });
      void sessionId;
      await securityNotice(user, "password_changed");
      return { token };
    },

    /**
     * Asks for a new address. The answer is the same whether the address is free or belongs to
     * another account (pending_email set either way): a free one gets the confirmation link, a
     * taken one a mail that someone tried to use it, with no link, so confirming can never take
     * it. The old address is always told, with a link that undoes the change. Mail to an address
     * the user typed is limited per user (RATE_MAIL_USER, shared with gifts by e-mail).
     */
    async changeEmail(userId: number, input: z.infer<typeof ChangeEmailSchema>) {
      const user = await getUser(userId);
      if (input.email === user.email) {
        throw new DomainError("validation_failed", "errors.validation_failed", { fields: { email: "validation.email_same" } });
      }
      await limiter.consume(`mail:user:${user.id}`, limits.mailUser);
      const owner = await findUserByLogin(db, input.email);
      const token = randomToken();
      const undoToken = randomToken();
      const now = clock.now();
      const [updated] = await db.transaction(async (tx) => {
        await tx
          .update(oneTimeCodes)
          .set({ usedAt: now })
          .where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, "email_change"), isNull(oneTimeCodes.usedAt)));
        // The same rows for a taken address, so that the work (and its time) does not tell; its
        // token is never sent, and the row is marked so that it can never be confirmed.
        await tx.insert(oneTimeCodes).values({
          userId: user.id,
          purpose: "email_change",
          codeHash: sha256(token),
          payload: owner ? { email: input.email, taken: true } : { email: input.email },
          expiresAt: new Date(now.getTime() + EMAIL_CHANGE_SECONDS * 1000),
          createdAt: now,
        });
        await tx.insert(oneTimeCodes).values({
          userId: user.id,
          purpose: EMAIL_UNDO_PURPOSE,
          codeHash: sha256(undoToken),
          payload: { email: user.email, newEmail: input.email },
          expiresAt: new Date(now.getTime() + EMAIL_UNDO_SECONDS * 1000),
          createdAt: now,
        });
        return tx.update(users).set({ pendingEmail: input.email, updatedAt: now }).where(eq(users.id, user.id)).returning();
      });
      const prefix = localePrefix(user.locale);
      const locale = user.locale as Locale;
      // After the answer, so that neither the mail server's time nor a failure tells anything.
      void background.run(() =>
        owner
          ? mailer.send({ to: input.email, locale: owner.locale as Locale, template: "email_change_taken", params: { newEmail: input.email } })
          : mailer.send({ to: input.email, locale, template: "email_change_confirm", params: { link: `${publicUrl}${prefix}/auth/confirm-email?token=${token}`, newEmail: input.email } }),
      );
      void background.run(() =>
        mailer.send({ to: user.email, locale, template: "email_changed_notice", params: { newEmail: input.email, link: `${publicUrl}${prefix}/auth/undo-email?token=${undoToken}` } }),
      );
      return { user: updated! };
    },

    /** Opens the link mailed to the new address: the change takes effect, the old address is told. */
    async confirmEmailChange(token: string) {
      const now = clock.now();
      let before: SessionUser | undefined;
      let email = "";
      try {
        // Spending the link and changing the address are one transaction: when the address was
        // taken meanwhile, the link stays usable and nothing changes.
        const user = await db.transaction(async (tx) => {
          const [code] = await tx
            .update(oneTimeCodes)
            .set({ usedAt: now })
            .where(and(eq(oneTimeCodes.purpose, "email_change"), eq(oneTimeCodes.codeHash, sha256(token)), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, now)))
            .returning();
          const pending = code?.payload?.email;
          if (!code || typeof pending !== "string" || code.payload?.taken) throw new DomainError("invalid_code", "errors.invalid_link");
          email = pending;
          [before] = await tx.select().from(users).where(eq(users.id, code.userId));
          const [updated] = await tx.update(users).set({ email, pendingEmail: null, updatedAt: now }).where(eq(users.id, code.userId)).returning();
          return updated!;
        });
        // The old address was told, with its undo link, when the change was asked for.
        if (before) await notifications.create(before.id, "email_changed", { email });
        return { user };
      } catch (error) {
        if (isUniqueViolation(error, "users_email_lower")) throw new DomainError("email_taken");
        throw error;
      }
    },

    /** The address an undo link would bring back, while the link is live (for its page). */
    async emailUndoTarget(token: string): Promise<string | undefined> {
      return (await liveUndo(token))?.email;
    },

    /**
     * Opens the undo link mailed to the old address: the pending change dies, the old address is
     * the account's again, every session ends, the password stops working and a reset code goes
     * to the old address (whoever asked for the change may know the password). Later undo links
     * die too, so an intruder who changed the address twice cannot undo the owner's undo; earlier
     * ones stay, so the owner's link always works within its lifetime.
     */
    async undoEmailChange(token: string): Promise<{ email: string }> {
      const unusable = await hashPassword(randomToken());
      const now = clock.now();
      let restored: SessionUser;
      try {
        restored = await db.transaction(async (tx) => {
          const [code] = await tx
            .update(oneTimeCodes)
            .set({ usedAt: now })
            .where(and(eq(oneTimeCodes.purpose, EMAIL_UNDO_PURPOSE), eq(oneTimeCodes.codeHash, sha256(token)), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, now)))
            .returning();
          const email = code?.payload?.email;
          if (!code || typeof email !== "string") throw new DomainError("invalid_code", "errors.invalid_link");
          await tx
            .update(oneTimeCodes)
            .set({ usedAt: now })
            .where(
              and(
                eq(oneTimeCodes.userId, code.userId),
                isNull(oneTimeCodes.usedAt),
                or(eq(oneTimeCodes.purpose, "email_change"), and(eq(oneTimeCodes.purpose, EMAIL_UNDO_PURPOSE), gt(oneTimeCodes.id, code.id))),
              ),
            );
          const [user] = await tx
            .update(users)
            .set({ email, pendingEmail: null, passwordHash: unusable, updatedAt: now })
            .where(eq(users.id, code.userId))
            .returning();
          await sessions.revokeAll(code.userId, undefined, tx);
          return user!;
        });
      } catch (error) {
        if (isUniqueViolation(error, "users_email_lower")) throw new DomainError("email_taken");
        throw error;
      }
      await notifications.create(restored.id, "email_changed", { email: restored.email });
      await issueResetCode(restored).catch((err: unknown) => logger.error({ err }, "reset code after an undone e-mail change failed"));
      return { email: restored.email };
    },

    async enableTwoFa(userId: number) {
      const user = await getUser(userId);
      if (user.twoFaEnabled) throw new DomainError("conflict", "errors.two_fa_already_on");
      const secret = newTotpSecret();
      await db.update(users).set({ twoFaSecret: secret, twoFaLastStep: null }).where(eq(users.id, user.id));
      const url = otpauthUrl(secret, user.email);
      return { secret, otpauth_url: url, qr: await qrDataUrl(url) };
    },

    async confirmEnableTwoFa(userId: number, code: string) {
      const user = await getUser(userId);
      if (user.twoFaEnabled) throw new DomainError("conflict", "errors.two_fa_already_on");
      if (!user.twoFaSecret) throw new DomainError("conflict", "errors.two_fa_not_started");
      if (!(await useSecondFactor(user, code))) throw new DomainError("invalid_code", "errors.invalid_two_fa_code");
      const codes = Array.from({ length: RECOVERY_CODES }, () => randomString(8, CODE_ALPHABET));
      await db.transaction(async (tx) => {
        await tx.update(users).set({ twoFaEnabled: true, updatedAt: clock.now() }).where(eq(users.id, user.id));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
        await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId: user.id, codeHash: sha256(c) })));
      });
      await securityNotice(user, "two_fa_enabled");
      return { recovery_codes: codes.map((c) => `${c.slice(0, 4)}-${c.slice(4)}`) };
    },

    async disableTwoFa(userId: number, input: z.infer<typeof DisableTwoFaSchema>, meta: RequestMeta) {
      const user = await getUser(userId);
      if (!user.twoFaEnabled) throw new DomainError("conflict", "errors.two_fa_already_off");
      // Password and code are checked like a sign-in's (see reserveAttempt), given back when both are right.
      const keys = attemptKeys(meta.ip, user, "");
      await reserveAttempt(keys);
      const passwordOk = await verifyPassword(user.passwordHash, input.password);
      if (!passwordOk || !(await useSecondFactor(user, input.code))) {
        throw new DomainError("validation_failed", "errors.validation_failed", {
          fields: passwordOk ? { code: "validation.code_wrong" } : { password: "validation.password_wrong" },
        });
      }
      await attemptSucceeded(keys, true);
      await db.transaction(async (tx) => {
        await tx.update(users).set({ twoFaEnabled: false, twoFaSecret: null, twoFaLastStep: null, updatedAt: clock.now() }).where(eq(users.id, user.id));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
      });
      await securityNotice(user, "two_fa_disabled");
    },

    emailPreferences: (user: SessionUser): EmailPreferences => ({ allow_marketing: user.allowMarketing, allow_security: user.allowSecurity }),

    async setEmailPreferences(userId: number, input: z.infer<typeof EmailPreferencesSchema>): Promise<EmailPreferences> {
      const [user] = await db
        .update(users)
        .set({ allowMarketing: input.allow_marketing, allowSecurity: input.allow_security, updatedAt: clock.now() })
        .where(eq(users.id, userId))
        .returning();
      return { allow_marketing: user!.allowMarketing, allow_security: user!.allowSecurity };
    },

    async createSsoTicket(userId: number, locale: Locale) {
      const ticket = randomToken();
      const now = clock.now();
      await db.insert(oneTimeCodes).values({
        userId,
        purpose: "sso_ticket",
        codeHash: sha256(ticket),
        expiresAt: new Date(now.getTime() + SSO_TICKET_SECONDS * 1000),
        createdAt: now,
      });
      const prefix = locale === "ru" ? "" : `/${locale}`;
      return { ticket, url: `${publicUrl}${prefix}/auth/sso?ticket=${ticket}` };
    },

    /**
     * Whose account a live ticket signs in to, without spending it: the sign-in page shows it and
     * asks before a POST spends the ticket (issue 7), so a link opened by a scanner or sent by an
     * attacker replaces nobody's session unasked.
     */
    async ssoTicketAccount(ticket: string): Promise<{ userId: number; email: string; username: string | null }> {
      const [account] = await db
        .select({ userId: users.id, email: users.email, username: users.username })
        .from(oneTimeCodes)
        .innerJoin(users, eq(users.id, oneTimeCodes.userId))
        .where(and(eq(oneTimeCodes.purpose, "sso_ticket"), eq(oneTimeCodes.codeHash, sha256(ticket)), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, clock.now())));
      if (!account) throw new DomainError("invalid_code", "errors.invalid_link");
      return account;
    },

    async consumeSsoTicket(ticket: string, meta: RequestMeta) {
      const now = clock.now();
      const [code] = await db
        .update(oneTimeCodes)
        .set({ usedAt: now })
        .where(and(eq(oneTimeCodes.purpose, "sso_ticket"), eq(oneTimeCodes.codeHash, sha256(ticket)), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, now)))
        .returning();
      if (!code) throw new DomainError("invalid_code", "errors.invalid_link");
      const user = await getUser(code.userId);
      refuseSuspended(user);
      const { token } = await sessions.create(code.userId, "full", meta);
      return { token, user };
    },
  };
}
