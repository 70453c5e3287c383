// Referrals (docs/product/money.md#referrals): a user's link carries their code; a user registered with a referrer
// keeps it; each completed payment of theirs earns the referrer REFERRAL_PERCENT of it. The reward
// is held: it stays pending for REFERRAL_HOLD_DAYS and becomes a `referral_reward` ledger row only
// when the job releases it, so a refund or chargeback inside the hold simply cancels it; after the
// release a refund reverses it (from the referrer's balance, then `owed`). No reward at all when
// buyer and referrer look like one person: the same visitor id `t`, the same payer account, or the
// same sign-up address within 30 days.
import { isIP } from "node:net";
import { and, count, desc, eq, inArray, lte, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { paymentOrders, referralRewards, users } from "../../db/schema/index.ts";
import type { Ledger } from "../ledger/index.ts";
import type { Notifications } from "../notifications/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";

const DAY_MS = 86_400_000;
/** Sign-ups from one address this close together count as one person (docs/product/money.md#referrals). */
const SAME_ADDRESS_WINDOW_MS = 30 * DAY_MS;

export type SelfReferralSignal = "same_visitor" | "same_payer" | "same_signup_address";

/** A user's referral link and what it brought (docs/product/money.md#referrals). */
export type ReferralSummary = {
  code: string;
  link: string;
  /** Users registered with this user as referrer. */
  invited: number;
  /** Minor units kept of released rewards (after any reversal). */
  earned: number;
  percent: number;
  /** The newest invited friends (at most FRIENDS_SHOWN): an address shown masked, when they joined, what they brought so far. */
  friends: InvitedFriend[];
};

export type InvitedFriend = { email: string; joinedAt: Date; earned: number; pending: number };

const FRIENDS_SHOWN = 50;

/** "an***@example.com": enough for the owner to recognise a friend, not to write to them. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "***";
  return `${email.slice(0, Math.min(2, at))}***${email.slice(at)}`;
}

export type Referrals = ReturnType<typeof createReferrals>;

export function createReferrals(deps: { db: Db; ledger: Ledger; notifications: Notifications; clock: Clock; percent: number; holdDays: number; publicUrl: string }) {
  const { db, ledger, notifications, clock, percent, holdDays, publicUrl } = deps;

  /** Why buyer and referrer look like one person, or null. */
  async function selfReferral(tx: Tx, buyerId: number, referrerId: number, payerId: string | null): Promise<SelfReferralSignal | null> {
    const people = await tx
      .select({ id: users.id, visitorId: users.visitorId, signupIp: users.signupIp, createdAt: users.createdAt })
      .from(users)
      .where(inArray(users.id, [buyerId, referrerId]));
    const buyer = people.find((p) => p.id === buyerId);
    const referrer = people.find((p) => p.id === referrerId);
    if (!buyer || !referrer) return null;
    if (buyer.visitorId && buyer.visitorId === referrer.visitorId) return "same_visitor";
    if (payerId) {
      const [shared] = await tx
        .select({ id: paymentOrders.id })
        .from(paymentOrders)
        .where(and(eq(paymentOrders.userId, referrerId), eq(paymentOrders.payerId, payerId)))
        .limit(1);
      if (shared) return "same_payer";
    }
    // Only a real address counts (requests without a socket, in tests, have none).
    if (buyer.signupIp && isIP(buyer.signupIp) !== 0 && buyer.signupIp === referrer.signupIp && Math.abs(buyer.createdAt.getTime() - referrer.createdAt.getTime()) <= SAME_ADDRESS_WINDOW_MS) {
      return "same_signup_address";
    }
    return null;
  }

  return {
    percent,

    async summary(userId: number): Promise<ReferralSummary> {
      const [user] = await db.select({ code: users.referralCode }).from(users).where(eq(users.id, userId));
      if (!user) throw new DomainError("not_found");
      const [invited] = await db.select({ n: count() }).from(users).where(eq(users.referrerId, userId));
      // What the user keeps of released rewards (a refund may have reversed part of one).
      const [earned] = await db
        .select({ sum: sql<string>`coalesce(sum(${referralRewards.amount} - ${referralRewards.reversed}), 0)` })
        .from(referralRewards)
        .where(and(eq(referralRewards.referrerId, userId), eq(referralRewards.status, "released")));
      const rows = await db
        .select({ id: users.id, email: users.email, deletedAt: users.deletedAt, joinedAt: users.createdAt })
        .from(users)
        .where(eq(users.referrerId, userId))
        .orderBy(desc(users.createdAt), desc(users.id))
        .limit(FRIENDS_SHOWN);
      const rewards = rows.length
        ? await db
            .select({ buyerId: referralRewards.buyerId, status: referralRewards.status, sum: sql<string>`coalesce(sum(${referralRewards.amount} - ${referralRewards.reversed}), 0)` })
            .from(referralRewards)
            .where(
              and(
                eq(referralRewards.referrerId, userId),
                inArray(
                  referralRewards.buyerId,
                  rows.map((r) => r.id),
                ),
              ),
            )
            .groupBy(referralRewards.buyerId, referralRewards.status)
        : [];
      const of = (id: number, status: string) => rewards.filter((r) => r.buyerId === id && r.status === status).reduce((a, r) => a + Number(r.sum), 0);
      const friends = rows.map((r) => ({ email: r.deletedAt ? "***" : maskEmail(r.email), joinedAt: r.joinedAt, earned: of(r.id, "released"), pending: of(r.id, "pending") }));
      return { code: user.code, link: `${publicUrl}/?r=${user.code}`, invited: Number(invited?.n ?? 0), earned: Number(earned?.sum ?? 0), percent, friends };
    },

    /**
     * Records the referrer's reward for a completed payment, inside the payment's transaction and
     * keyed by the payment's reference (so it happens once with it): pending until the hold ends,
     * or refused with the reason when buyer and referrer look like one person.
     */
    async rewardPayment(tx: Tx, payment: { buyerId: number; paid: number; reference: string; orderId?: number; payerId?: string | null }): Promise<void> {
      const [buyer] = await tx.select({ referrerId: users.referrerId }).from(users).where(eq(users.id, payment.buyerId));
      const referrerId = buyer?.referrerId;
      const amount = Math.floor((payment.paid * percent) / 100);
      if (!referrerId || referrerId === payment.buyerId || amount <= 0) return;
      const reason = await selfReferral(tx, payment.buyerId, referrerId, payment.payerId ?? null);
      const now = clock.now();
      await tx
        .insert(referralRewards)
        .values({
          referrerId,
          buyerId: payment.buyerId,
          orderId: payment.orderId,
          paymentReference: payment.reference,
          amount,
          status: reason ? "refused" : "pending",
          reason,
          releaseAt: new Date(now.getTime() + holdDays * DAY_MS),
          createdAt: now,
        })
        .onConflictDoNothing({ target: referralRewards.paymentReference });
    },

    /**
     * The job: credits rewards whose hold is over, each in its own transaction (paying off what
     * the referrer owes first). Lock order as in refunds: the referrer's row, then the reward's;
     * a reward a refund is working on is skipped until the next run.
     */
    async releaseDue(limit = 100): Promise<number> {
      const now = clock.now();
      const due = await db
        .select({ id: referralRewards.id, referrerId: referralRewards.referrerId })
        .from(referralRewards)
        .where(and(eq(referralRewards.status, "pending"), lte(referralRewards.releaseAt, now)))
        .orderBy(referralRewards.releaseAt)
        .limit(limit);
      let released = 0;
      for (const { id, referrerId } of due) {
        released += await db.transaction(async (tx) => {
          await tx.select({ id: users.id }).from(users).where(eq(users.id, referrerId)).for("no key update");
          const [reward] = await tx
            .select()
            .from(referralRewards)
            .where(and(eq(referralRewards.id, id), eq(referralRewards.status, "pending")))
            .for("update", { skipLocked: true });
          if (!reward) return 0;
          const net = reward.amount - reward.reversed;
          if (net <= 0) {
            await tx.update(referralRewards).set({ status: "cancelled" }).where(eq(referralRewards.id, id));
            return 0;
          }
          const { transaction } = await ledger.credit(
            tx,
            { userId: referrerId, type: "referral_reward", amount: net, paid: 0, source: "system", reference: `referral:${reward.paymentReference}`, orderId: reward.orderId ?? undefined },
            clock.now(),
          );
          await tx.update(referralRewards).set({ status: "released", releasedAt: clock.now(), transactionId: transaction.id }).where(eq(referralRewards.id, id));
          await notifications.create(referrerId, "referral_reward", { amount: net }, tx);
          return 1;
        });
      }
      return released;
    },

    /**
     * A refund or reversal of the payment `paymentReference` (docs/product/money.md#referrals): the reward follows the
     * share of the payment refunded so far (`refundedTotal` of `paymentAmount`). Inside the hold
     * the pending reward shrinks or is cancelled; after it the referrer gives the difference back
     * (balance, then `owed`). Call inside the refund's transaction, after the buyer's row lock; the
     * referrer's row is locked before the reward's, as the release job does.
     */
    async reverseForPayment(tx: Tx, input: { paymentReference: string; paymentAmount: number; refundedTotal: number; eventReference: string; orderId: number }): Promise<void> {
      const [peek] = await tx.select({ referrerId: referralRewards.referrerId }).from(referralRewards).where(eq(referralRewards.paymentReference, input.paymentReference));
      if (!peek) return;
      await tx.select({ id: users.id }).from(users).where(eq(users.id, peek.referrerId)).for("no key update");
      const [reward] = await tx.select().from(referralRewards).where(eq(referralRewards.paymentReference, input.paymentReference)).for("update");
      if (!reward || reward.status === "refused" || reward.status === "cancelled") return;
      const share = Math.min(input.refundedTotal, input.paymentAmount);
      const target = share >= input.paymentAmount ? reward.amount : Math.floor((reward.amount * share) / input.paymentAmount);
      const delta = target - reward.reversed;
      if (delta <= 0) return;
      if (reward.status === "pending") {
        const reversed = reward.reversed + delta;
        await tx
          .update(referralRewards)
          .set({ reversed, status: reversed >= reward.amount ? "cancelled" : "pending" })
          .where(eq(referralRewards.id, reward.id));
        return;
      }
      await ledger.takeBack(
        tx,
        {
          userId: reward.referrerId,
          type: "reversal",
          amount: delta,
          paid: 0,
          source: "system",
          orderId: input.orderId,
          relatedId: reward.transactionId ?? undefined,
          reference: `referral:${input.eventReference}`,
        },
        clock.now(),
      );
      await tx
        .update(referralRewards)
        .set({ reversed: reward.reversed + delta })
        .where(eq(referralRewards.id, reward.id));
      await notifications.create(reward.referrerId, "referral_reversed", { amount: delta }, tx);
    },
  };
}
