// Refunds and reversals of captured payments (docs/product/money.md#refunds-and-reversals): applied
// once per provider event, whatever the order and concurrency of deliveries; at most what is left of
// a payment is taken. A top-up is taken back from the balance, then from what the balance paid for
// since (latest first), and what is still uncovered becomes `owed`; a direct purchase loses its
// share of days (never time already used); the referrer's reward follows; a reversal also
// suspends the buyer. Lock order of every writer: the order, the buyer's row, the referrer's,
// gift codes, subscriptions.
import { and, desc, eq, gt, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { gifts, paymentOrders, paymentRefunds, transactions, users } from "../../db/schema/index.ts";
import { fromSnapshot, soldProduct, type Catalog, type SoldProduct } from "../catalog/index.ts";
import type { Ledger } from "../ledger/index.ts";
import type { Referrals } from "../referrals/index.ts";
import type { Subscriptions } from "../subscriptions/index.ts";
import type { Suspensions } from "../suspensions/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import { IdTextSchema } from "../shared/schema.ts";
import type { Outbox } from "../webhooks/outbox.ts";
import { WEBHOOK_EVENTS } from "../../db/schema/index.ts";
import type { PaymentProvider } from "./provider.ts";

/** A row of payment_orders. */
export type Order = typeof paymentOrders.$inferSelect;

/** The ledger reference of a capture: a payment is booked once, by it. */
export const captureReference = (provider: PaymentProvider["name"], captureId: string) => `${provider}:capture:${captureId}`;

/**
 * The product an order sold, as it was sold: the snapshot taken when the order was made (its
 * area's price, its days), whatever the catalogue says by the time the provider reports the
 * capture. Orders made before the snapshot existed fall back to the catalogue.
 */
export function orderProduct(order: Order, catalog: Catalog): SoldProduct | undefined {
  if (order.product) return fromSnapshot(order.product);
  const current = order.productId === null ? undefined : catalog.productById(order.productId);
  return current ? soldProduct(current) : undefined;
}

export function createRefunds(deps: {
  db: Db;
  clock: Clock;
  providerName: PaymentProvider["name"];
  ledger: Ledger;
  subscriptions: Subscriptions;
  catalog: Catalog;
  referrals: Referrals;
  suspensions: Suspensions;
  outbox?: Outbox;
}) {
  const { db, clock, providerName, ledger, subscriptions, catalog, referrals, suspensions, outbox } = deps;
  const captureRef = (captureId: string) => captureReference(providerName, captureId);
  const productOf = (order: Order) => orderProduct(order, catalog);

  type TakeBackStep = { kind: "refund" | "reversal"; order: Order; reference: string; amount: number; refundedBefore: number; now: Date };

  /**
   * A top-up of T refunded (or reversed) by R, the rules (docs/product/money.md#a-top-up): min(R, balance) comes off
   * the balance; the rest is covered by undoing what the balance paid for since that top-up, latest
   * first — a purchase gives back its days in proportion to the part of its price still needed
   * (never time already used), an unredeemed gift code is voided (its full price counts; what it
   * covers beyond the need goes back to the balance), a direct gift or a redeemed code stays with
   * its recipient and its part counts toward `owed` — and what is still uncovered becomes `owed`.
   * Every step is a ledger row of the event's type, tied to the payment and to the row it undoes.
   */
  async function undoTopUp(tx: Tx, { kind, order, reference, amount, now }: TakeBackStep): Promise<void> {
    const userId = order.userId;
    const base = { userId, type: kind, source: providerName, orderId: order.id } as const;
    const [owner] = await tx.select({ balance: users.balance }).from(users).where(eq(users.id, userId));
    const taken = Math.min(owner?.balance ?? 0, amount);
    await ledger.post(tx, { ...base, amount: -taken, paid: -amount, reference }, now);
    let left = amount - taken;
    if (left <= 0) return;

    const [topUpRow] = await tx
      .select({ id: transactions.id })
      .from(transactions)
      .where(eq(transactions.reference, captureRef(order.captureId!)));
    const spent = topUpRow
      ? await tx
          .select()
          .from(transactions)
          .where(
            and(
              eq(transactions.userId, userId),
              gt(transactions.id, topUpRow.id),
              eq(transactions.source, "balance"),
              inArray(transactions.type, ["purchase", "gift"]),
              lt(transactions.amount, 0),
            ),
          )
          .orderBy(desc(transactions.id))
      : [];
    const ids = spent.map((row) => row.id);
    // How much of each was undone by earlier refunds (their rows point at it).
    const undone = new Map<number, number>();
    if (ids.length > 0) {
      const rows = await tx
        .select({ relatedId: transactions.relatedId, covered: sql<string>`coalesce(sum(-${transactions.paid}), 0)` })
        .from(transactions)
        .where(inArray(transactions.relatedId, ids))
        .groupBy(transactions.relatedId);
      for (const row of rows) undone.set(row.relatedId!, Number(row.covered));
    }
    // Gift codes are locked before any subscription, as a redemption locks them (then its days).
    const giftIds = spent.filter((row) => row.type === "gift").map((row) => row.id);
    const codes = giftIds.length > 0 ? await tx.select().from(gifts).where(inArray(gifts.transactionId, giftIds)).for("update") : [];
    const codeOf = new Map(codes.map((code) => [code.transactionId!, code]));

    for (const item of spent) {
      if (left <= 0) break;
      const cost = -item.amount;
      const coveredBefore = undone.get(item.id) ?? 0;
      const remaining = cost - coveredBefore;
      if (remaining <= 0) continue;
      const sold = item.products.map(fromSnapshot);
      const product = sold[0];
      const step = { ...base, products: sold, relatedId: item.id, reference: `${reference}:undo:${item.id}` };
      const code = item.type === "gift" ? codeOf.get(item.id) : undefined;
      if (item.type === "purchase" && product) {
        const need = Math.min(left, remaining);
        const total = product.days * 86_400;
        // Counted on the whole purchase, so partial refunds add up to exactly its days.
        const wanted = Math.floor((total * (coveredBefore + need)) / cost) - Math.floor((total * coveredBefore) / cost);
        const removed = await subscriptions.revokeSeconds(tx, userId, product.cheatId, wanted);
        const covered = removed >= wanted ? need : Math.floor((cost * removed) / total);
        if (removed > 0 || covered > 0) await ledger.post(tx, { ...step, amount: 0, paid: -covered }, now);
        left -= covered;
      } else if (code && code.redeemedBy === null && code.voidedAt === null) {
        await tx.update(gifts).set({ voidedAt: now }).where(eq(gifts.id, code.id));
        const surplus = Math.max(0, remaining - left);
        await ledger.credit(tx, { ...step, amount: surplus, paid: -remaining }, now);
        left = Math.max(0, left - remaining);
      } else {
        // Days given straight to someone, or a redeemed code: never taken from the recipient.
        const counted = Math.min(left, remaining);
        await ledger.post(tx, { ...step, amount: 0, paid: -counted, owedChange: counted }, now);
        left -= counted;
      }
    }
    if (left > 0) await ledger.post(tx, { ...base, amount: 0, paid: 0, owedChange: left, reference: `${reference}:owed` }, now);
  }

  /**
   * A direct purchase refunded by share r (cumulative over partial refunds): r × its days come off
   * the pass, never time already used; the balance is not touched (docs/product/money.md#a-direct-purchase).
   */
  async function undoPurchase(tx: Tx, { kind, order, reference, amount, refundedBefore, now }: TakeBackStep): Promise<void> {
    const product = productOf(order);
    if (product && amount > 0) {
      const total = product.days * 86_400;
      const wanted = Math.round((total * (refundedBefore + amount)) / order.amount) - Math.round((total * refundedBefore) / order.amount);
      await subscriptions.revokeSeconds(tx, order.userId, product.cheatId, wanted);
    }
    await ledger.post(tx, { userId: order.userId, type: kind, amount: 0, paid: -amount, source: providerName, reference, orderId: order.id, products: product ? [product] : [] }, now);
  }

  return {
    /**
     * A refund or a reversal (chargeback) of a captured payment, applied once per provider event
     * whatever the order and concurrency of deliveries (docs/product/money.md#refunds-and-reversals): the order's row is locked,
     * and the event's reference is booked in the same transaction. At most what is left of the
     * payment is taken. A top-up is taken back from the balance, then from what the balance paid
     * for since (latest first), and what is still uncovered becomes `owed`; a direct purchase
     * loses its share of days (never time already used); the referrer's reward follows; a reversal
     * also suspends the buyer. Returns false for an unknown capture or an event applied before.
     * `requestRef` names the operator's refund request it settles (docs/product/back-office.md#refunds).
     */
    async takeBack(input: { kind: "refund" | "reversal"; captureId: string; eventId: string; amount: number; orderRef?: string; requestRef?: string }): Promise<boolean> {
      const reference = `${providerName}:${input.kind}:${input.eventId}`;
      const applied = await db.transaction(async (tx) => {
        // NO KEY UPDATE: events of one payment queue here, while ledger rows that name the order
        // (their foreign key takes KEY SHARE, e.g. the referrer's released reward) do not wait.
        const [order] = await tx
          .select()
          .from(paymentOrders)
          .where(and(eq(paymentOrders.captureId, input.captureId), eq(paymentOrders.provider, providerName)))
          .for("no key update");
        if (!order) return undefined;
        // A refund an operator asked for: its request now has its outcome, whichever of the
        // provider's answer and its event came first (docs/product/back-office.md#refunds).
        if (input.kind === "refund" && input.requestRef) {
          await tx
            .update(paymentRefunds)
            .set({ refundId: input.eventId, status: "completed", updatedAt: clock.now() })
            .where(and(eq(paymentRefunds.requestId, input.requestRef), eq(paymentRefunds.orderId, order.id), isNull(paymentRefunds.refundId)));
        }
        if (await ledger.hasReference(tx, reference)) return false;
        const now = clock.now();
        const amount = Math.max(0, Math.min(input.amount, order.amount - order.refunded));
        const refundedTotal = order.refunded + amount;
        // Lock order of every writer: the buyer's row, the referrer's, gift codes, subscriptions.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, order.userId)).for("no key update");
        await referrals.reverseForPayment(tx, {
          paymentReference: captureRef(order.captureId!),
          paymentAmount: order.amount,
          refundedTotal,
          eventReference: reference,
          orderId: order.id,
        });
        const step = { kind: input.kind, order, reference, amount, refundedBefore: order.refunded, now };
        if (order.kind === "topup") await undoTopUp(tx, step);
        else await undoPurchase(tx, step);
        const status = input.kind === "reversal" || order.status === "reversed" ? "reversed" : refundedTotal >= order.amount ? "refunded" : "partially_refunded";
        await tx.update(paymentOrders).set({ status, refunded: refundedTotal, updatedAt: now }).where(eq(paymentOrders.id, order.id));
        // A split order refunded in full gives its balance part back too (docs/product/money.md#split-payments).
        if (status === "refunded" && order.reserved > 0) {
          await ledger.post(tx, { userId: order.userId, type: "release", amount: order.reserved, paid: 0, source: "balance", reference: `${reference}:balance-part`, orderId: order.id }, now);
        }
        await outbox?.emit(tx, WEBHOOK_EVENTS.paymentRefunded, order.userId, {
          user_id: order.userId,
          order_id: order.providerOrderId,
          provider: providerName,
          kind: input.kind,
          amount,
          refunded_total: refundedTotal,
          currency: order.currency,
          status,
          refunded_at: now.toISOString(),
        });
        if (input.kind === "reversal") await suspensions.suspend(tx, order.userId, "chargeback");
        return true;
      });
      if (applied !== undefined) return applied;
      // An unknown capture. When the event names (custom_id) an order of ours whose capture is not
      // booked yet — the capture's own webhook failed and waits for PayPal's retry — the refund
      // must wait too: 409, so PayPal resends it after the capture is booked. Otherwise it is not
      // ours: acknowledged.
      const orderId = IdTextSchema.safeParse(input.orderRef).data;
      if (orderId !== undefined) {
        const [pending] = await db
          .select({ id: paymentOrders.id })
          .from(paymentOrders)
          .where(and(eq(paymentOrders.id, orderId), eq(paymentOrders.provider, providerName), isNull(paymentOrders.captureId)));
        if (pending) throw new DomainError("payment_pending");
      }
      return false;
    },
  };
}
