// Payments by provider (docs/product/money.md#paying-through-a-provider): a top-up of the balance or the direct purchase of a product.
// A payment is applied exactly once however often the return page, the capture call and the
// webhook arrive, in any order: the order row is claimed with a guarded UPDATE, and the ledger
// entry carries the capture id as its unique reference. A capture whose amount, currency or order
// reference differs from what we created is never applied.
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { paymentOrders, transactions, type PaymentOrderKind, type PaymentOrderStatus, type ProductSnapshot } from "../../db/schema/index.ts";
import type { Locale } from "../../i18n/locales.ts";
import { soldProduct, toSnapshot, type Catalog, type SoldProduct } from "../catalog/index.ts";
import { toTransaction, type Ledger, type Transaction } from "../ledger/index.ts";
import type { Notifications } from "../notifications/index.ts";
import type { Receipts } from "../receipts/index.ts";
import type { Referrals } from "../referrals/index.ts";
import type { Subscription, Subscriptions } from "../subscriptions/index.ts";
import type { Suspensions } from "../suspensions/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import { minorDigits } from "../shared/money.ts";
import type { Outbox } from "../webhooks/outbox.ts";
import { WEBHOOK_EVENTS } from "../../db/schema/index.ts";
import { randomToken, sha256 } from "../shared/tokens.ts";
import { fromDecimal, ProviderError, toDecimal, WebhookRefused, type PaymentProvider, type ProviderCapture, type WebhookAction } from "./provider.ts";
import { captureReference, createRefunds, orderProduct, type Order } from "./refunds.ts";

export { createPayPal } from "./paypal.ts";
export { createDemoProvider } from "./demo.ts";
export { ProviderError, WebhookRefused, toDecimal, fromDecimal, type PaymentProvider, type WebhookAction } from "./provider.ts";

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
  receipts: Receipts;
  suspensions: Suspensions;
  publicUrl: string;
  currency: string;
  topup: { min: number; max: number };
  logger: Logger;
  outbox?: Outbox;
}) {
  const { db, clock, provider, ledger, subscriptions, catalog, referrals, notifications, receipts, suspensions, publicUrl, currency, topup, logger, outbox } = deps;
  const digits = minorDigits(currency);
  const captureRef = (captureId: string) => captureReference(provider.name, captureId);
  const refunds = createRefunds({ db, clock, providerName: provider.name, ledger, subscriptions, catalog, referrals, suspensions, outbox });

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
   * recorded here, pending (it is credited by the job after the hold). The receipt is written here
   * too, so that one payment has one (docs/product/money.md#receipts); its id is for the mail.
   */
  async function book(tx: Tx, order: Order, captureId: string): Promise<{ transaction: Transaction; receiptId: number }> {
    const now = clock.now();
    const reference = captureRef(captureId);
    let transaction: Transaction;
    const product = order.kind === "product" ? productOf(order) : undefined;
    if (order.kind === "topup") {
      ({ transaction } = await ledger.credit(tx, { userId: order.userId, type: "topup", amount: order.amount, paid: order.amount, source: provider.name, reference, orderId: order.id }, now));
    } else {
      if (!product) throw new Error(`order ${order.id}: product ${order.productId} is gone`);
      ({ transaction } = await ledger.post(
        tx,
        { userId: order.userId, type: "purchase", amount: 0, paid: order.amount, source: provider.name, products: [product], reference, orderId: order.id },
        now,
      ));
    }
    await referrals.rewardPayment(tx, { buyerId: order.userId, paid: order.amount, reference, orderId: order.id, payerId: order.payerId });
    // The payment first, then what it changed: receivers see them in this order.
    await outbox?.emit(tx, WEBHOOK_EVENTS.paymentCompleted, order.userId, {
      user_id: order.userId,
      order_id: order.providerOrderId,
      provider: provider.name,
      kind: order.kind,
      amount: order.amount,
      currency: order.currency,
      product: product ? { id: product.id, cheat_id: product.cheatId, days: product.days, title: product.title } : null,
      completed_at: now.toISOString(),
    });
    if (product) await subscriptions.grantDays(tx, order.userId, product.cheatId, product.days);
    await notifications.create(order.userId, "payment_completed", { amount: order.amount, currency: order.currency }, tx);
    const receiptId = await receipts.issue(tx, {
      userId: order.userId,
      kind: order.kind === "topup" ? "topup" : "purchase",
      method: provider.name,
      transaction,
      amount: order.amount,
      orderRef: order.providerOrderId,
    });
    return { transaction, receiptId };
  }

  const productOf = (order: Order) => orderProduct(order, catalog);

  async function result(order: Order): Promise<CaptureResult> {
    const [row] = order.captureId
      ? await db
          .select()
          .from(transactions)
          .where(eq(transactions.reference, captureRef(order.captureId)))
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
      const { receiptId } = await book(tx, row, captureId);
      return { row, receiptId };
    });
    if (claimed) {
      // Only the caller that booked the payment mails its receipt: one mail per payment.
      receipts.mailSoon(claimed.receiptId);
      return result(claimed.row);
    }
    const [current] = await db.select().from(paymentOrders).where(eq(paymentOrders.id, order.id));
    return result(current!);
  }

  async function findOrder(providerOrderId: string, userId?: number): Promise<Order> {
    const conditions = [eq(paymentOrders.providerOrderId, providerOrderId), eq(paymentOrders.provider, provider.name)];
    if (userId !== undefined) conditions.push(eq(paymentOrders.userId, userId));
    const [order] = await db
      .select()
      .from(paymentOrders)
      .where(and(...conditions));
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
    async createOrder(userId: number, input: { productId?: number; amount?: number; area: string; locale: Locale; requestKey?: string }): Promise<CreatedOrder> {
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
      await db.update(paymentOrders).set({ providerOrderId: created.id, approveUrl: created.approveUrl, updatedAt: clock.now() }).where(eq(paymentOrders.id, order.id));
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
          return refunds.takeBack({ kind, captureId: action.captureId, eventId: action.eventId, amount: minor, orderRef: action.orderRef, requestRef: action.requestRef });
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
        .where(and(eq(paymentOrders.providerOrderId, providerOrderId), eq(paymentOrders.provider, provider.name), inArray(paymentOrders.status, ["created", "approved"])))
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

    /** A refund or a reversal of a captured payment, once per provider event (refunds.ts). */
    takeBack: refunds.takeBack,
  };
}
