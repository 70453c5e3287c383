// Referrals (decisions §4): a user's link carries their code; a user registered with a referrer
// keeps it; each completed payment of theirs credits REFERRAL_PERCENT of it to the referrer.
import { and, count, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { transactions, users } from "../../db/schema/index.ts";
import type { Ledger } from "../ledger/index.ts";
import type { Notifications } from "../notifications/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";

export type Referrals = ReturnType<typeof createReferrals>;

export function createReferrals(deps: { db: Db; ledger: Ledger; notifications: Notifications; clock: Clock; percent: number; publicUrl: string }) {
  const { db, ledger, notifications, clock, percent, publicUrl } = deps;
  return {
    percent,

    async summary(userId: number) {
      const [user] = await db.select({ code: users.referralCode }).from(users).where(eq(users.id, userId));
      if (!user) throw new DomainError("not_found");
      const [invited] = await db.select({ n: count() }).from(users).where(eq(users.referrerId, userId));
      const [earned] = await db
        .select({ sum: sql<string>`coalesce(sum(${transactions.amount}), 0)` })
        .from(transactions)
        .where(and(eq(transactions.userId, userId), eq(transactions.type, "referral_reward")));
      return { code: user.code, link: `${publicUrl}/?r=${user.code}`, invited: Number(invited?.n ?? 0), earned: Number(earned?.sum ?? 0), percent };
    },

    /**
     * Credits the referrer of `userId` its share of a completed payment, inside the payment's
     * transaction and keyed by the payment's reference, so it happens once with it.
     */
    async rewardPayment(tx: Tx, userId: number, paidMinor: number, paymentReference: string): Promise<void> {
      const [user] = await tx.select({ referrerId: users.referrerId }).from(users).where(eq(users.id, userId));
      const referrerId = user?.referrerId;
      const reward = Math.floor((paidMinor * percent) / 100);
      if (!referrerId || referrerId === userId || reward <= 0) return;
      await ledger.post(tx, { userId: referrerId, type: "referral_reward", amount: reward, paid: 0, source: "system", reference: `referral:${paymentReference}` }, clock.now());
      await notifications.create(referrerId, "referral_reward", { amount: reward }, tx);
    },
  };
}
