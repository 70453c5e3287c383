// Payments by provider (docs/product/money.md#paying-through-a-provider): a top-up of the balance or the direct purchase of a product.
// A payment is applied exactly once however often the return page, the capture call and the
// webhook arrive, in any order: the order row is claimed with a guarded UPDATE, and the ledger
// entry carries the capture id as its unique reference. A capture whose amount, currency or order
// reference differs from what we created is never applied.
import { and, eq, inArray, isNull, lt, sql, type SQL } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { paymentOrders, transactions, users, type PaymentOrderKind, type PaymentOrderStatus, type ProductSnapshot } from "../../db/schema/index.ts";
import type { Locale } from "../../i18n/locales.ts";
import { fromSnapshot, soldProduct, toSnapshot, type Catalog, type SoldProduct } from "../catalog/index.ts";
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
import { fromDecimal, ProviderError, toDecimal, WebhookRefused, type PaymentProvider, type ProviderAmount, type ProviderCapture, type WebhookAction } from "./provider.ts";
import { captureReference, createRefunds, orderProduct, type Order } from "./refunds.ts";

export { createPayPal } from "./paypal.ts";
export { createBtcPay } from "./btcpay.ts";
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
  /** The balance part of a split payment, reserved (docs/product/money.md#split-payments). */
  reserved: number;
};

/** An order made at the provider: where the buyer pays, and what the provider charges there. */
export type CreatedOrder = { orderId: string; approveUrl: string; amount: number };

/** A PayPal order (or the demo's) not approved within this long gives its reservation back (docs/product/money.md#split-payments). */
export const UNAPPROVED_ORDER_MS = 3 * 3600_000;

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
    reserved: o.reserved,
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
        // A split payment's balance part left the balance when it was reserved: the row shows the whole price.
        { userId: order.userId, type: "purchase", amount: 0, paid: order.amount + order.reserved, source: provider.name, products: [product], reference, orderId: order.id },
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
      method: order.reserved > 0 ? `balance_${provider.name}` : provider.name,
      transaction,
      amount: order.amount + order.reserved,
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

  /** Minor units of a provider amount in the shop currency; undefined for another currency or an unreadable one. */
  const minorOf = (amount: ProviderAmount | undefined) => (amount && amount.currency === currency ? fromDecimal(amount.value, digits) : undefined);

  /**
   * Money that matches no open order — paid after expiry, the part paid over the amount, a partial
   * payment of an order that then expired — is credited to the buyer's balance as a top-up
   * (docs/product/money.md#money-that-matches-no-order), once per provider order: under the order's
   * row lock, with the provider order as the unique reference. Whether it credited anything.
   */
  async function creditUnmatched(order: Order, minor: number | undefined, why: "late" | "over" | "partial"): Promise<boolean> {
    if (minor === undefined || minor <= 0 || !order.providerOrderId) return false;
    const reference = `${provider.name}:unmatched:${order.providerOrderId}`;
    const booked = await db.transaction(async (tx) => {
      await tx.select({ id: paymentOrders.id }).from(paymentOrders).where(eq(paymentOrders.id, order.id)).for("update");
      if (await ledger.hasReference(tx, reference)) return undefined;
      const { transaction } = await ledger.credit(tx, { userId: order.userId, type: "topup", amount: minor, paid: minor, source: provider.name, reference, orderId: order.id }, clock.now());
      await notifications.create(order.userId, "payment_completed", { amount: minor, currency }, tx);
      return receipts.issue(tx, { userId: order.userId, kind: "topup", method: provider.name, transaction, amount: minor, orderRef: order.providerOrderId });
    });
    if (booked === undefined) return false;
    logger.warn({ orderId: order.id, providerOrderId: order.providerOrderId, amount: minor, why }, "money matching no open order: credited to the balance");
    receipts.mailSoon(booked);
    return true;
  }

  /**
   * Fails an order that is still open (the provider gave it up, the buyer cancelled, or it was never
   * approved) and gives its reservation back as a `release` row — in one transaction, guarded by
   * the order's status, so never twice and never after it was paid. Whether it failed it now.
   */
  async function fail(where: SQL | undefined): Promise<Order | undefined> {
    return db.transaction(async (tx) => {
      const [row] = await tx
        .update(paymentOrders)
        .set({ status: "failed", updatedAt: clock.now() })
        .where(and(where, eq(paymentOrders.provider, provider.name), inArray(paymentOrders.status, ["created", "approved"])))
        .returning();
      if (!row) return undefined;
      if (row.reserved > 0) {
        await ledger.post(tx, { userId: row.userId, type: "release", amount: row.reserved, paid: 0, source: "balance", reference: `release:${row.id}`, orderId: row.id }, clock.now());
      }
      return row;
    });
  }

  /** 409 payment_failed: the order ended at the provider (docs/product/money.md#btcpay-server), unlike a provider that did not answer (502). */
  const ended = (key: "errors.payment_expired" | "errors.payment_late") => Object.defineProperty(new DomainError("payment_failed", key), "status", { value: 409 });

  /** Applies a provider's capture to our order once; refuses one that does not match the order. */
  async function apply(order: Order, capture: ProviderCapture): Promise<CaptureResult> {
    if (capture.ended && !capture.completed) {
      // Given up at the provider (expired, invalid): the order fails; money paid for it goes to the balance.
      await fail(eq(paymentOrders.id, order.id));
      await creditUnmatched(order, minorOf(capture.received), "partial");
      throw ended("errors.payment_expired");
    }
    if (!capture.completed || !capture.captureId) throw new DomainError("payment_pending", capture.partial ? "errors.payment_partial" : undefined);
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
    }
    const [current] = await db.select().from(paymentOrders).where(eq(paymentOrders.id, order.id));
    if (current!.status === "failed") {
      // Settled after the order had failed (paid late): the whole payment goes to the balance.
      await creditUnmatched(current!, minorOf(capture.received) ?? paid, "late");
      throw ended("errors.payment_late");
    }
    // Paid over the amount: the part above it goes to the balance.
    const over = (minorOf(capture.received) ?? paid!) - paid!;
    if (over > 0) await creditUnmatched(current!, over, "over");
    return result(claimed?.row ?? current!);
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
    async createOrder(userId: number, input: { productId?: number; amount?: number; useBalance?: boolean; area: string; locale: Locale; requestKey?: string }): Promise<CreatedOrder> {
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
      const split = input.useBalance === true && kind === "product";
      // PayPal-Request-Id must stay short: the client's key (up to 128 characters) is hashed.
      const requestId = input.requestKey ? `u${userId}-${provider.name}-${sha256(input.requestKey).slice(0, 40)}` : randomToken(16);
      const price = amount;
      // A split payment (docs/product/money.md#split-payments): the balance pays what it can, reserved
      // at once under the buyer's row lock (so parallel orders never reserve more than there is),
      // the provider the rest. The order and its reservation are one transaction.
      const covered = await db.transaction(async (tx) => {
        const [existing] = await tx.select({ id: paymentOrders.id }).from(paymentOrders).where(eq(paymentOrders.requestId, requestId));
        if (existing) return false;
        let reserved = 0;
        if (split) {
          const [buyer] = await tx.select({ balance: users.balance }).from(users).where(eq(users.id, userId)).for("no key update");
          reserved = Math.min(buyer?.balance ?? 0, price);
          // The balance covers the whole price: no provider order (the caller buys from the balance).
          if (reserved >= price) return true;
        }
        const [created] = await tx
          .insert(paymentOrders)
          .values({
            userId,
            provider: provider.name,
            requestId,
            kind,
            productId,
            product: sold,
            shoppingArea: input.area,
            amount: price - reserved,
            reserved,
            currency,
            createdAt: clock.now(),
            updatedAt: clock.now(),
          })
          .onConflictDoNothing({ target: paymentOrders.requestId })
          .returning();
        if (created && reserved > 0) {
          await ledger.post(
            tx,
            { userId, type: "reserve", amount: -reserved, paid: 0, source: "balance", reference: `reserve:${created.id}`, orderId: created.id, products: sold ? [fromSnapshot(sold)] : [] },
            clock.now(),
          );
        }
        return false;
      });
      if (covered) throw new DomainError("conflict", "errors.balance_covers", { reason: "balance_covers" });
      const [order] = await db.select().from(paymentOrders).where(eq(paymentOrders.requestId, requestId));
      if (!order || order.userId !== userId) throw new DomainError("conflict");
      // A retry (after a provider failure the key's answer is not kept) must ask for the same thing.
      if (order.kind !== kind || order.productId !== productId || order.amount + order.reserved !== price || order.reserved > 0 !== (split && order.reserved > 0)) {
        throw new DomainError("idempotency_mismatch");
      }
      if (order.providerOrderId && order.approveUrl) return { orderId: order.providerOrderId, approveUrl: order.approveUrl, amount: order.amount };
      if (order.status === "failed") throw new DomainError("payment_failed");
      const prefix = input.locale === "ru" ? "" : `/${input.locale}`;
      // BTCPay fills {InvoiceId} in when it sends the buyer back; PayPal adds ?token= itself.
      const returnUrl = provider.name === "btcpay" ? `${publicUrl}${prefix}/payment/btcpay?invoice={InvoiceId}` : `${publicUrl}${prefix}/payment/paypal`;
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
        // A split order the provider did not take gives its reservation back at once; the
        // request id is set free, so a retry with the same key makes (and reserves) anew.
        if (order.reserved > 0 && error instanceof ProviderError) await this.abandon(order.id);
        providerFailure(error);
      }
      if (!created.approveUrl) throw new DomainError("payment_failed");
      await db.update(paymentOrders).set({ providerOrderId: created.id, approveUrl: created.approveUrl, updatedAt: clock.now() }).where(eq(paymentOrders.id, order.id));
      return { orderId: created.id, approveUrl: created.approveUrl, amount: order.amount };
    },

    /** A split order the provider never made: failed, its reservation released, its request id free again. */
    async abandon(orderId: number): Promise<void> {
      const failed = await fail(eq(paymentOrders.id, orderId));
      if (failed)
        await db
          .update(paymentOrders)
          .set({ requestId: `${failed.requestId}:failed:${failed.id}` })
          .where(eq(paymentOrders.id, orderId));
    },

    /** The buyer gave up at the provider (PayPal's cancel): the order fails and its reservation comes back. */
    async cancel(userId: number, providerOrderId: string): Promise<boolean> {
      return (await fail(and(eq(paymentOrders.providerOrderId, providerOrderId), eq(paymentOrders.userId, userId)))) !== undefined;
    },

    /**
     * Orders with a reservation the buyer never approved within UNAPPROVED_ORDER_MS (PayPal, the
     * demo; BTCPay says so by its expiry event) fail and give the reservation back. How many.
     */
    async releaseStale(): Promise<number> {
      if (provider.name === "btcpay") return 0;
      const stale = await db
        .select({ id: paymentOrders.id })
        .from(paymentOrders)
        .where(
          and(
            eq(paymentOrders.provider, provider.name),
            eq(paymentOrders.status, "created"),
            sql`${paymentOrders.reserved} > 0`,
            lt(paymentOrders.createdAt, new Date(clock.now().getTime() - UNAPPROVED_ORDER_MS)),
          ),
        )
        .limit(500);
      let released = 0;
      for (const { id } of stale) if (await fail(eq(paymentOrders.id, id))) released++;
      return released;
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
          // (BTCPay's action is its invoice read back already, and it names no payer.)
          if (!order.captureId && payerId === undefined && provider.name !== "btcpay") {
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
        case "expired": {
          const failed = await this.expire(action.orderId);
          const order = await findOrder(action.orderId).catch(() => undefined);
          const credited = order ? await creditUnmatched(order, minorOf(action.received), "partial") : false;
          return failed || credited;
        }
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
      return (await fail(eq(paymentOrders.providerOrderId, providerOrderId))) !== undefined;
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
