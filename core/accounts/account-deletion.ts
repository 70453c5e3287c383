// Deleting an account (docs/product/accounts.md#deleting-an-account): the owner, with the password,
// erases what says who they are; what the money rules need stays — the ledger, payment orders,
// gifts, referral rewards and subscriptions keep their rows, tied to an anonymous account. Refused
// while something is owed, a payment is under way, or the account is suspended.
import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { idempotencyKeys, mailOutbox, notifications, oneTimeCodes, paymentOrders, recoveryCodes, sessions, users } from "../../db/schema/index.ts";
import { DomainError } from "../shared/errors.ts";
import type { RequestMeta } from "./accounts.model.ts";
import { attemptKeys, type Attempts } from "./attempts.ts";
import { getUser, type AccountsDeps } from "./deps.ts";

/**
 * How long an order not yet paid counts as under way: PayPal lets a buyer approve an order for 3
 * hours and capture an approved one for 3 days; after that it can no longer be paid.
 */
export const PENDING_ORDER_HOURS = 72;

/** Not an Argon2 hash: no password matches it. */
const DELETED_PASSWORD_HASH = "!deleted";

/** The address a deleted account keeps: unique, and of a domain that can never receive mail (RFC 2606). */
export const deletedEmail = (id: number) => `deleted-${id}@deleted.invalid`;

export type DeletionBlock = "owed" | "payment_pending" | "suspended";

const REFUSAL = {
  owed: "errors.deletion_owed",
  payment_pending: "errors.deletion_payment_pending",
  suspended: "errors.deletion_suspended",
} as const;

export function createAccountDeletion(deps: AccountsDeps, attempts: Attempts) {
  const { db, clock, mailer, logger, background, supportEmail, passwords } = deps;

  return {
    /**
     * Deletes the account after checking its password (counted like a sign-in's). In one
     * transaction, with the user's row locked so that no payment books meanwhile: every session
     * ends, the address, username, password, two-factor secret, visitor id and sign-up address go,
     * the referral code stops working, one-time codes, recovery codes, notifications and stored
     * answers are deleted, and mails to the address lose their recipient and text. A notice goes
     * to the old address afterwards. `deletion_refused` (409, `reason` owed, payment_pending or
     * suspended) when the money rules need the account as it is.
     */
    async deleteAccount(userId: number, input: { password: string }, meta: RequestMeta): Promise<void> {
      const user = await getUser(db, userId);
      const keys = attemptKeys(meta.ip, user, "");
      await attempts.reserve(keys);
      if (!(await passwords.verify(user.passwordHash, input.password))) {
        throw new DomainError("validation_failed", "errors.validation_failed", { fields: { password: "validation.password_wrong" } });
      }
      await attempts.succeeded(keys, true);
      const now = clock.now();
      const anonymous = deletedEmail(user.id);
      await db.transaction(async (tx) => {
        const [locked] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
        if (!locked || locked.deletedAt) throw new DomainError("unauthenticated");
        const since = new Date(now.getTime() - PENDING_ORDER_HOURS * 3600 * 1000);
        const [pending] = await tx
          .select({ id: paymentOrders.id })
          .from(paymentOrders)
          .where(and(eq(paymentOrders.userId, userId), inArray(paymentOrders.status, ["created", "approved"]), gt(paymentOrders.createdAt, since)))
          .limit(1);
        const block: DeletionBlock | undefined = locked.suspendedAt ? "suspended" : locked.owed > 0 ? "owed" : pending ? "payment_pending" : undefined;
        if (block) throw new DomainError("deletion_refused", REFUSAL[block], { reason: block, params: { support: supportEmail } });

        await tx
          .update(users)
          .set({
            email: anonymous,
            username: null,
            passwordHash: DELETED_PASSWORD_HASH,
            pendingEmail: null,
            twoFaSecret: null,
            twoFaEnabled: false,
            twoFaLastStep: null,
            visitorId: null,
            signupIp: null,
            allowMarketing: false,
            allowSecurity: false,
            emailVerified: false,
            // Lower case: codes are looked up upper-cased, so old links find nobody.
            referralCode: `deleted-${user.id}`,
            deletedAt: now,
            updatedAt: now,
          })
          .where(eq(users.id, userId));
        await tx
          .update(sessions)
          .set({ revokedAt: sql`coalesce(${sessions.revokedAt}, ${now.toISOString()}::timestamptz)`, ip: null, userAgent: null })
          .where(eq(sessions.userId, userId));
        await tx.delete(oneTimeCodes).where(eq(oneTimeCodes.userId, userId));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await tx.delete(notifications).where(eq(notifications.userId, userId));
        await tx.delete(idempotencyKeys).where(eq(idempotencyKeys.userId, userId));
        const addresses = [locked.email, locked.pendingEmail].filter((a): a is string => Boolean(a)).map((a) => a.toLowerCase());
        await tx
          .update(mailOutbox)
          .set({ to: anonymous, subject: "", text: "", html: "" })
          .where(inArray(sql`lower(${mailOutbox.to})`, addresses));
      });
      // The old address hears of it once (and is not kept for it): after the answer.
      void background.run(() =>
        mailer.send({ to: user.email, locale: user.locale, template: "account_deleted" }).catch((err: unknown) => logger.error({ err }, "account deletion notice failed")),
      );
    },
  };
}
