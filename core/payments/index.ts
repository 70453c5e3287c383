// Payments by provider (docs/product/money.md#paying-through-a-provider): a top-up of the balance or the direct purchase of a product.
// A payment is applied exactly once however often the return page, the capture call and the
// webhook arrive, in any order: the order row is claimed with a guarded UPDATE, and the ledger
// entry carries the capture id as its unique reference. A capture whose amount, currency or order
// reference differs from what we created is never applied.
import { and, desc, eq, gt, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { gifts, paymentOrders, transactions, users, type PaymentOrderKind, type PaymentOrderStatus, type ProductSnapshot } from "../../db/schema/index.ts";
import type { Locale } from "../../i18n/locales.ts";
import { fromSnapshot, soldProduct, toSnapshot, type Catalog, type SoldProduct } from "../catalog/index.ts";
import { toTransaction, type Ledger, type Transaction } from "../ledger/index.ts";
import type { Notifications } from "../notifications/index.ts";
import type { Referrals } from "../referrals/index.ts";
import type { Subscription, Subscriptions } from "../subscriptions/index.ts";
import type { Suspensions } from "../suspensions/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import { minorDigits } from "../shared/money.ts";
import { randomToken, sha256 } from "../shared/tokens.ts";
import { fromDecimal, ProviderError, toDecimal, WebhookRefused, type PaymentProvider, type ProviderCapture, type WebhookAction } from "./provider.ts";

export { createPayPal } from "./paypal.ts";
export { createDemoProvider, DEMO_ORDER_ID } from "./demo.ts";
export { ORDER_ID } from "./payments.schema.ts";
export { ProviderError, WebhookRefused, toDecimal, fromDecimal, type PaymentProvider, type WebhookAction } from "./provider.ts";

type Order = typeof paymentOrders.$inferSelect;
type Logger = { error(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };

export type { PaymentOrderKind, PaymentOrderStatus };

/** A payment order as its buyer sees it (docs/product/data.md#payment-orders). */
export type PaymentOrder = {
  /** The provider's order id (what the buyer's return carries); null until the provider made it. */
  providerOrderId: string | null;
  kind: PaymentOrderKind;
  amount: number;
  currency: string;
  status: PaymentOrderStatus;
  /** What the order sells, as it was sold; null for a top-up. */
  product: SoldProduct | null;
};

/** An order made at the provider: where the buyer approves it. */
export type CreatedOrder = { orderId: string; approveUrl: string };

export type CaptureResult = { transaction: Transaction; balance: number; subscriptions: Subscription[]; order: PaymentOrder };

export type Payments = ReturnType<typeof createPayments>;

export function createPayments(deps: {
  db: Db;
  clock: Clock;
  provider: PaymentProvider;
  ledger: Ledger;
  subscriptions: Subscriptions;
  catalog: Catalog;
  referrals: Referrals;
  notifications: Notifications;
  suspensions: Suspensions;
  publicUrl: string;
  currency: string;
  topup: { min: number; max: number };
  logger: Logger;
}) {
  const { db, clock, provider, ledger, subscriptions, catalog, referrals, notifications, suspensions, publicUrl, currency, topup, logger } = deps;
  const digits = minorDigits(currency);
  const captureRef = (captureId: string) => `${provider.name}:capture:${captureId}`;

  const paymentOrder = (o: Order): PaymentOrder => ({
    providerOrderId: o.providerOrderId,
    kind: o.kind,
    amount: o.amount,
    currency: o.currency,
    status: o.status,
    product: productOf(o) ?? null,
  });

  function providerFailure(error: unknown): never {
    if (error instanceof ProviderError) {
      logger.warn({ err: error }, "payment provider error");
      throw new DomainError("payment_failed");
    }
    throw error;
  }

  /**
   * The effect of a payment, booked once (inside the claim of the order). Lock order: the buyer's
   * row, then the subscription, as every other writer takes user rows before subscriptions. A
   * top-up pays off what the buyer owes first (docs/product/money.md#owed); the referrer's reward is only
   * recorded here, pending (it is credited by the job after the hold).
   */
  async function book(tx: Tx, order: Order, captureId: string): Promise<Transaction> {
    const now = clock.now();
    const reference = captureRef(captureId);
    let transaction: Transaction;
    const product = order.kind === "product" ? productOf(order) : undefined;
    if (order.kind === "topup") {
      ({ transaction } = await ledger.credit(
        tx,
        { userId: order.userId, type: "topup", amount: order.amount, paid: order.amount, source: provider.name, reference, orderId: order.id },
        now,
      ));
    } else {
      if (!product) throw new Error(`order ${order.id}: product ${order.productId} is gone`);
      ({ transaction } = await ledger.post(
        tx,
        { userId: order.userId, type: "purchase", amount: 0, paid: order.amount, source: provider.name, products: [product], reference, orderId: order.id },
        now,
      ));
    }
    await referrals.rewardPayment(tx, { buyerId: order.userId, paid: order.amount, reference, orderId: order.id, payerId: order.payerId });
    if (product) await subscriptions.grantDays(tx, order.userId, product.cheatId, product.days);
    await notifications.create(order.userId, "payment_completed", { amount: order.amount, currency: order.currency }, tx);
    return transaction;
  }

  /**
   * The product an order sold, as it was sold: the snapshot taken when the order was made (its
   * area's price, its days), whatever the catalogue says by the time PayPal reports the capture.
   * Orders made before the snapshot existed fall back to the catalogue.
   */
  function productOf(order: Order): SoldProduct | undefined {
    if (order.product) return fromSnapshot(order.product);
    const current = order.productId === null ? undefined : catalog.productById(order.productId);
    return current ? soldProduct(current) : undefined;
  }

  async function result(order: Order): Promise<CaptureResult> {
    const [row] = order.captureId
      ? await db.select().from(transactions).where(eq(transactions.reference, captureRef(order.captureId)))
      : [];
    if (!row) throw new DomainError("payment_pending");
    return {
      transaction: toTransaction(row),
      balance: await ledger.balanceOf(order.userId),
      subscriptions: await subscriptions.list(order.userId),
      order: paymentOrder(order),
    };
  }

  /** Applies a provider's capture to our order once; refuses one that does not match the order. */
  async function apply(order: Order, capture: ProviderCapture): Promise<CaptureResult> {
    if (!capture.completed || !capture.captureId) throw new DomainError("payment_pending");
    const paid = capture.amount ? fromDecimal(capture.amount.value, digits) : undefined;
    const matches =
      paid === order.amount &&
      capture.amount?.currency === order.currency &&
      capture.orderId === order.providerOrderId &&
      (capture.referenceId === undefined || capture.referenceId === String(order.id));
    if (!matches) {
      logger.error({ orderId: order.id, capture }, "capture does not match the order: not applied");
      throw new DomainError("payment_mismatch");
    }
    const captureId = capture.captureId;
    const claimed = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(paymentOrders)
        .set({ status: "completed", captureId, payerId: capture.payerId ?? null, updatedAt: clock.now() })
        .where(and(eq(paymentOrders.id, order.id), inArray(paymentOrders.status, ["created", "approved"])))
        .returning();
      if (!row) return undefined;
      await book(tx, row, captureId);
      return row;
    });
    if (claimed) return result(claimed);
    const [current] = await db.select().from(paymentOrders).where(eq(paymentOrders.id, order.id));
    return result(current!);
  }

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
    const base = { userId, type: kind, source: provider.name, orderId: order.id } as const;
    const [owner] = await tx.select({ balance: users.balance }).from(users).where(eq(users.id, userId));
    const taken = Math.min(owner?.balance ?? 0, amount);
    await ledger.post(tx, { ...base, amount: -taken, paid: -amount, reference }, now);
    let left = amount - taken;
    if (left <= 0) return;

    const [topUpRow] = await tx.select({ id: transactions.id }).from(transactions).where(eq(transactions.reference, captureRef(order.captureId!)));
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
    await ledger.post(
      tx,
      { userId: order.userId, type: kind, amount: 0, paid: -amount, source: provider.name, reference, orderId: order.id, products: product ? [product] : [] },
      now,
    );
  }

  async function findOrder(providerOrderId: string, userId?: number): Promise<Order> {
    const conditions = [eq(paymentOrders.providerOrderId, providerOrderId), eq(paymentOrders.provider, provider.name)];
    if (userId !== undefined) conditions.push(eq(paymentOrders.userId, userId));
    const [order] = await db.select().from(paymentOrders).where(and(...conditions));
    if (!order) throw new DomainError("not_found");
    return order;
  }

  return {
    provider,

    /**
     * Creates an order at the provider for a product of the buyer's shopping area, or for a
     * top-up amount. `requestKey` (from the Idempotency-Key) makes a retry reuse the same order
     * and the same PayPal-Request-Id.
     */
    async createOrder(
      userId: number,
      input: { productId?: number; amount?: number; area: string; locale: Locale; requestKey?: string },
    ): Promise<CreatedOrder> {
      let kind: PaymentOrderKind;
      let amount: number;
      let description: string;
      let productId: number | null = null;
      let sold: ProductSnapshot | null = null;
      if (input.productId !== undefined) {
        const product = catalog.productInArea(input.productId, input.area);
        if (!product) throw new DomainError("not_found", "errors.product_not_found");
        kind = "product";
        amount = product.price;
        productId = product.id;
        sold = toSnapshot(soldProduct(product));
        description = product.title;
      } else if (input.amount !== undefined) {
        if (!Number.isInteger(input.amount) || input.amount < topup.min || input.amount > topup.max) {
          throw new DomainError("validation_failed", "errors.validation_failed", { fields: { amount: "validation.topup_range" } });
        }
        kind = "topup";
        amount = input.amount;
        description = `NOVA balance top-up ${toDecimal(amount, digits)} ${currency}`;
      } else {
        throw new DomainError("validation_failed", "errors.validation_failed", { fields: { product_id: "validation.required" } });
      }
      // PayPal-Request-Id must stay short: the client's key (up to 128 characters) is hashed.
      const requestId = input.requestKey ? `u${userId}-${sha256(input.requestKey).slice(0, 40)}` : randomToken(16);
      await db
        .insert(paymentOrders)
        .values({
          userId,
          provider: provider.name,
          requestId,
          kind,
          productId,
          product: sold,
          shoppingArea: input.area,
          amount,
          currency,
          createdAt: clock.now(),
          updatedAt: clock.now(),
        })
        .onConflictDoNothing({ target: paymentOrders.requestId });
      const [order] = await db.select().from(paymentOrders).where(eq(paymentOrders.requestId, requestId));
      if (!order || order.userId !== userId) throw new DomainError("conflict");
      // A retry (after a provider failure the key's answer is not kept) must ask for the same thing.
      if (order.kind !== kind || order.productId !== productId || order.amount !== amount) {
        throw new DomainError("idempotency_mismatch");
      }
      if (order.providerOrderId && order.approveUrl) return { orderId: order.providerOrderId, approveUrl: order.approveUrl };
      const prefix = input.locale === "ru" ? "" : `/${input.locale}`;
      const returnUrl = `${publicUrl}${prefix}/payment/paypal`;
      let created;
      try {
        created = await provider.createOrder({
          requestId,
          referenceId: String(order.id),
          amount: { value: toDecimal(order.amount, digits), currency },
          description,
          returnUrl,
          cancelUrl: `${returnUrl}?cancel=1`,
        });
      } catch (error) {
        providerFailure(error);
      }
      if (!created.approveUrl) throw new DomainError("payment_failed");
      await db
        .update(paymentOrders)
        .set({ providerOrderId: created.id, approveUrl: created.approveUrl, updatedAt: clock.now() })
        .where(eq(paymentOrders.id, order.id));
      return { orderId: created.id, approveUrl: created.approveUrl };
    },

    /** The return page and payment/paypal/capture: capture at the provider, apply once. */
    async capture(userId: number, providerOrderId: string): Promise<CaptureResult> {
      const order = await findOrder(providerOrderId, userId);
      if (order.captureId) return result(order); // completed, and maybe refunded or reversed since
      let capture: ProviderCapture;
      try {
        capture = await provider.captureOrder(providerOrderId, `${order.requestId}-capture`);
      } catch (error) {
        if (error instanceof ProviderError && error.issue === "ORDER_NOT_APPROVED") throw new DomainError("payment_not_approved");
        providerFailure(error);
      }
      return apply(order, capture);
    },

    async order(userId: number, providerOrderId: string): Promise<PaymentOrder> {
      return paymentOrder(await findOrder(providerOrderId, userId));
    },

    /**
     * A provider's webhook (docs/product/money.md#paying-through-a-provider): the provider checks
     * its signature and reads its event; what it asks for is applied once. An unreadable body is
     * 400, one the provider did not sign 403.
     */
    async webhook(headers: Record<string, string | undefined>, rawBody: string): Promise<{ applied: boolean }> {
      let action: WebhookAction;
      try {
        action = await provider.parseWebhook(headers, rawBody);
      } catch (error) {
        if (error instanceof WebhookRefused) {
          throw error.why === "malformed" ? new DomainError("invalid_json") : new DomainError("forbidden", "errors.webhook_unverified");
        }
        providerFailure(error);
      }
      return { applied: await this.applyWebhook(action) };
    },

    /** A verified webhook's action, in no provider's words; whether it changed anything. */
    async applyWebhook(action: WebhookAction): Promise<boolean> {
      switch (action.kind) {
        case "captured": {
          const { capture } = action;
          // Only an order we do not know is acknowledged without effect (the provider then stops
          // resending it); any other failure, a database error above all, must answer 5xx so that
          // the provider delivers the event again.
          const order = await findOrder(capture.orderId).catch((error: unknown) => {
            if (error instanceof DomainError && error.code === "not_found") return undefined;
            throw error;
          });
          if (!order) return false;
          // A capture event may not name the payer; the order does (a self-referral signal).
          let payerId = capture.payerId;
          if (!order.captureId && payerId === undefined) {
            try {
              payerId = (await provider.getOrder(capture.orderId)).payerId;
            } catch (error) {
              providerFailure(error);
            }
          }
          await apply(order, { ...capture, payerId });
          return true;
        }
        case "refunded":
        case "reversed": {
          const minor = fromDecimal(action.amount.value, digits);
          if (minor === undefined || action.amount.currency !== currency) return false;
          const kind = action.kind === "reversed" ? "reversal" : "refund";
          return this.takeBack({ kind, captureId: action.captureId, eventId: action.eventId, amount: minor, orderRef: action.orderRef });
        }
        case "disputed":
          return this.flagDispute(action.captureIds, action.disputeId);
        case "expired":
          return this.expire(action.orderId);
        case "partial": {
          // Money that matches no order is credited later (docs/product/money.md#not-built-yet); an
          // operator sees it meanwhile. Nothing moves, and the order stays open.
          const order = await findOrder(action.orderId).catch(() => undefined);
          logger.warn({ orderId: order?.id, providerOrderId: action.orderId, amount: action.amount }, "partial payment: for operators");
          return false;
        }
        case "ignored":
          return false;
      }
    },

    /**
     * An order the provider gave up unpaid fails: it is never booked, whatever arrives for it
     * later. One that was paid meanwhile stays as it is. Whether it changed anything.
     */
    async expire(providerOrderId: string): Promise<boolean> {
      const failed = await db
        .update(paymentOrders)
        .set({ status: "failed", updatedAt: clock.now() })
        .where(
          and(
            eq(paymentOrders.providerOrderId, providerOrderId),
            eq(paymentOrders.provider, provider.name),
            inArray(paymentOrders.status, ["created", "approved"]),
          ),
        )
        .returning({ id: paymentOrders.id });
      return failed.length > 0;
    },

    /**
     * A dispute opened at the provider: the payments are flagged for operators (docs/product/money.md#disputes); no
     * money moves until the provider decides (a reversal then arrives as its own event).
     */
    async flagDispute(captureIds: string[], disputeId: string): Promise<boolean> {
      const flagged = await db
        .update(paymentOrders)
        .set({ disputedAt: clock.now(), disputeId, updatedAt: clock.now() })
        .where(and(inArray(paymentOrders.captureId, captureIds), eq(paymentOrders.provider, provider.name), isNull(paymentOrders.disputedAt)))
        .returning({ id: paymentOrders.id, userId: paymentOrders.userId });
      for (const order of flagged) logger.warn({ orderId: order.id, userId: order.userId, disputeId }, "payment disputed: flagged for operators");
      return flagged.length > 0;
    },

    /**
     * A refund or a reversal (chargeback) of a captured payment, applied once per provider event
     * whatever the order and concurrency of deliveries (docs/product/money.md#refunds-and-reversals): the order's row is locked,
     * and the event's reference is booked in the same transaction. At most what is left of the
     * payment is taken. A top-up is taken back from the balance, then from what the balance paid
     * for since (latest first), and what is still uncovered becomes `owed`; a direct purchase
     * loses its share of days (never time already used); the referrer's reward follows; a reversal
     * also suspends the buyer. Returns false for an unknown capture or an event applied before.
     */
    async takeBack(input: { kind: "refund" | "reversal"; captureId: string; eventId: string; amount: number; orderRef?: string }): Promise<boolean> {
      const reference = `${provider.name}:${input.kind}:${input.eventId}`;
      const applied = await db.transaction(async (tx) => {
        // NO KEY UPDATE: events of one payment queue here, while ledger rows that name the order
        // (their foreign key takes KEY SHARE, e.g. the referrer's released reward) do not wait.
        const [order] = await tx
          .select()
          .from(paymentOrders)
          .where(and(eq(paymentOrders.captureId, input.captureId), eq(paymentOrders.provider, provider.name)))
          .for("no key update");
        if (!order) return undefined;
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
        if (input.kind === "reversal") await suspensions.suspend(tx, order.userId, "chargeback");
        return true;
      });
      if (applied !== undefined) return applied;
      // An unknown capture. When the event names (custom_id) an order of ours whose capture is not
      // booked yet — the capture's own webhook failed and waits for PayPal's retry — the refund
      // must wait too: 409, so PayPal resends it after the capture is booked. Otherwise it is not
      // ours: acknowledged.
      if (input.orderRef && /^\d{1,10}$/.test(input.orderRef) && Number(input.orderRef) <= 2_147_483_647) {
        const [pending] = await db
          .select({ id: paymentOrders.id })
          .from(paymentOrders)
          .where(and(eq(paymentOrders.id, Number(input.orderRef)), eq(paymentOrders.provider, provider.name), isNull(paymentOrders.captureId)));
        if (pending) throw new DomainError("payment_pending");
      }
      return false;
    },
  };
}
