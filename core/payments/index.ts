// Payments by provider (decisions §3): a top-up of the balance or the direct purchase of a product.
// A payment is applied exactly once however often the return page, the capture call and the
// webhook arrive, in any order: the order row is claimed with a guarded UPDATE, and the ledger
// entry carries the capture id as its unique reference. A capture whose amount, currency or order
// reference differs from what we created is never applied.
import { and, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { paymentOrders, transactions, users, type ProductSnapshot } from "../../db/schema/index.ts";
import type { Locale } from "../../i18n/locales.ts";
import type { Catalog } from "../catalog/index.ts";
import { snapshot, toView, type Ledger, type TransactionView } from "../ledger/index.ts";
import type { Notifications } from "../notifications/index.ts";
import type { Referrals } from "../referrals/index.ts";
import type { Subscriptions, SubscriptionView } from "../subscriptions/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import { minorDigits } from "../shared/money.ts";
import { randomToken, sha256 } from "../shared/tokens.ts";
import { fromDecimal, ProviderError, toDecimal, type PaymentProvider, type ProviderCapture } from "./provider.ts";

export { createPayPal } from "./paypal.ts";
export { createDemoProvider } from "./demo.ts";
export { ProviderError, toDecimal, fromDecimal, type PaymentProvider } from "./provider.ts";

type Order = typeof paymentOrders.$inferSelect;
type Logger = { error(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };

export type CaptureResult = { transaction: TransactionView; balance: number; subscriptions: SubscriptionView[]; order: OrderView };
export type OrderView = { order_id: string | null; kind: string; amount: number; currency: string; status: string; product_id: number | null };

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
  publicUrl: string;
  currency: string;
  topup: { min: number; max: number };
  logger: Logger;
}) {
  const { db, clock, provider, ledger, subscriptions, catalog, referrals, notifications, publicUrl, currency, topup, logger } = deps;
  const digits = minorDigits(currency);
  const captureRef = (captureId: string) => `${provider.name}:capture:${captureId}`;

  const orderView = (o: Order): OrderView => ({
    order_id: o.providerOrderId,
    kind: o.kind,
    amount: o.amount,
    currency: o.currency,
    status: o.status,
    product_id: o.productId,
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
   * row, the referrer's row, then the subscription, as every other writer takes user rows before
   * subscriptions (a referrer's gift to the buyer would otherwise deadlock with this).
   */
  async function book(tx: Tx, order: Order, captureId: string): Promise<TransactionView> {
    const now = clock.now();
    const reference = captureRef(captureId);
    let transaction: TransactionView;
    const product = order.kind === "product" ? productOf(order) : undefined;
    if (order.kind === "topup") {
      ({ transaction } = await ledger.post(tx, { userId: order.userId, type: "topup", amount: order.amount, paid: order.amount, source: provider.name, reference }, now));
    } else {
      if (!product) throw new Error(`order ${order.id}: product ${order.productId} is gone`);
      ({ transaction } = await ledger.post(
        tx,
        { userId: order.userId, type: "purchase", amount: 0, paid: order.amount, source: provider.name, products: [product], reference },
        now,
      ));
    }
    await referrals.rewardPayment(tx, order.userId, order.amount, reference);
    if (product) await subscriptions.grantDays(tx, order.userId, product.cheat_id, product.params.days);
    await notifications.create(order.userId, "payment_completed", { amount: order.amount, currency: order.currency }, tx);
    return transaction;
  }

  /**
   * The product an order sold, as it was sold: the snapshot taken when the order was made (its
   * area's price, its days), whatever the catalogue says by the time PayPal reports the capture.
   * Orders made before the snapshot existed fall back to the catalogue.
   */
  function productOf(order: Order): ProductSnapshot | undefined {
    if (order.product) return order.product;
    const current = order.productId === null ? undefined : catalog.productById(order.productId);
    return current ? snapshot(current) : undefined;
  }

  async function result(order: Order): Promise<CaptureResult> {
    const [row] = order.captureId
      ? await db.select().from(transactions).where(eq(transactions.reference, captureRef(order.captureId)))
      : [];
    if (!row) throw new DomainError("conflict", "errors.payment_pending");
    return {
      transaction: toView(row),
      balance: await ledger.balanceOf(order.userId),
      subscriptions: await subscriptions.list(order.userId),
      order: orderView(order),
    };
  }

  /** Applies a provider's capture to our order once; refuses one that does not match the order. */
  async function apply(order: Order, capture: ProviderCapture): Promise<CaptureResult> {
    if (capture.status !== "COMPLETED" || !capture.captureId) throw new DomainError("conflict", "errors.payment_pending");
    const paid = capture.amount ? fromDecimal(capture.amount.value, digits) : undefined;
    const matches =
      paid === order.amount &&
      capture.amount?.currency === order.currency &&
      capture.orderId === order.providerOrderId &&
      (capture.referenceId === undefined || capture.referenceId === String(order.id));
    if (!matches) {
      logger.error({ orderId: order.id, capture }, "capture does not match the order: not applied");
      throw new DomainError("conflict", "errors.payment_mismatch");
    }
    const captureId = capture.captureId;
    const claimed = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(paymentOrders)
        .set({ status: "completed", captureId, updatedAt: clock.now() })
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
    ): Promise<{ order_id: string; approve_url: string }> {
      let kind: "topup" | "product";
      let amount: number;
      let description: string;
      let productId: number | null = null;
      let sold: ProductSnapshot | null = null;
      if (input.productId !== undefined) {
        const product = catalog.productsForArea(input.area).find((p) => p.id === input.productId);
        if (!product) throw new DomainError("not_found", "errors.product_not_found");
        kind = "product";
        amount = product.price;
        productId = product.id;
        sold = snapshot(product);
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
        throw new DomainError("conflict", "errors.idempotency_mismatch");
      }
      if (order.providerOrderId && order.approveUrl) return { order_id: order.providerOrderId, approve_url: order.approveUrl };
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
      return { order_id: created.id, approve_url: created.approveUrl };
    },

    /** The return page and payment/paypal/capture: capture at the provider, apply once. */
    async capture(userId: number, providerOrderId: string): Promise<CaptureResult> {
      const order = await findOrder(providerOrderId, userId);
      if (order.status === "completed" || order.status === "refunded") return result(order);
      let capture: ProviderCapture;
      try {
        capture = await provider.captureOrder(providerOrderId, `${order.requestId}-capture`);
      } catch (error) {
        if (error instanceof ProviderError && error.issue === "ORDER_NOT_APPROVED") throw new DomainError("conflict", "errors.payment_not_approved");
        providerFailure(error);
      }
      return apply(order, capture);
    },

    async order(userId: number, providerOrderId: string): Promise<OrderView> {
      return orderView(await findOrder(providerOrderId, userId));
    },

    /** A PayPal webhook: its signature verified (without calling PayPal), then applied once. */
    async webhook(headers: Record<string, string | undefined>, rawBody: string, event: unknown): Promise<{ applied: boolean }> {
      let verified = false;
      try {
        verified = await provider.verifyWebhook(headers, rawBody);
      } catch (error) {
        providerFailure(error);
      }
      if (!verified) throw new DomainError("forbidden", "errors.webhook_unverified");
      const { event_type: type, resource } = (event ?? {}) as { event_type?: string; resource?: Record<string, unknown> };
      if (!resource) return { applied: false };
      if (type === "PAYMENT.CAPTURE.COMPLETED") {
        const related = (resource.supplementary_data as { related_ids?: { order_id?: string } } | undefined)?.related_ids?.order_id;
        if (!related) return { applied: false };
        // Only an order we do not know is acknowledged without effect (PayPal then stops
        // resending it); any other failure, a database error above all, must answer 5xx so that
        // PayPal delivers the event again.
        const order = await findOrder(related).catch((error: unknown) => {
          if (error instanceof DomainError && error.code === "not_found") return undefined;
          throw error;
        });
        if (!order) return { applied: false };
        const amount = resource.amount as { value?: string; currency_code?: string } | undefined;
        await apply(order, {
          orderId: related,
          status: String(resource.status ?? ""),
          captureId: typeof resource.id === "string" ? resource.id : undefined,
          amount: amount?.value && amount.currency_code ? { value: amount.value, currency: amount.currency_code } : undefined,
          referenceId: typeof resource.custom_id === "string" ? resource.custom_id : undefined,
        });
        return { applied: true };
      }
      if (type === "PAYMENT.CAPTURE.REFUNDED") {
        const up = (resource.links as { rel?: string; href?: string }[] | undefined)?.find((l) => l.rel === "up")?.href;
        const captureId = up?.split("/").pop();
        const refundId = typeof resource.id === "string" ? resource.id : undefined;
        const amount = resource.amount as { value?: string; currency_code?: string } | undefined;
        const refunded = amount?.value ? fromDecimal(amount.value, digits) : undefined;
        if (!captureId || !refundId || refunded === undefined || amount?.currency_code !== currency) return { applied: false };
        return { applied: await this.refund(captureId, refundId, refunded) };
      }
      return { applied: false };
    },

    /**
     * Reverses a captured payment once (by refund id): a top-up takes the refunded amount back
     * from the balance (as much as is left: the balance never goes below zero); a product loses
     * its days. Booked as a `refund` transaction.
     */
    async refund(captureId: string, refundId: string, refundedMinor: number): Promise<boolean> {
      const reference = `${provider.name}:refund:${refundId}`;
      return db.transaction(async (tx) => {
        const [order] = await tx.select().from(paymentOrders).where(eq(paymentOrders.captureId, captureId)).for("update");
        if (!order || (await ledger.hasReference(tx, reference))) return false;
        const amount = Math.min(refundedMinor, order.amount);
        const now = clock.now();
        // The owner's row before the subscription's: the lock order of purchases and gifts (the
        // other way round a refund and a purchase of the same user deadlock).
        const [owner] = await tx.select({ balance: users.balance }).from(users).where(eq(users.id, order.userId)).for("no key update");
        if (order.kind === "topup") {
          const taken = Math.min(owner?.balance ?? 0, amount);
          if (taken < amount) logger.warn({ orderId: order.id, amount, taken }, "refund larger than the balance left");
          await ledger.post(tx, { userId: order.userId, type: "refund", amount: -taken, paid: -amount, source: provider.name, reference }, now);
        } else {
          const product = productOf(order);
          const days = product ? Math.round((product.params.days * amount) / order.amount) : 0;
          if (product && days > 0) await subscriptions.revokeDays(tx, order.userId, product.cheat_id, days);
          await ledger.post(
            tx,
            { userId: order.userId, type: "refund", amount: 0, paid: -amount, source: provider.name, reference, products: product ? [product] : [] },
            now,
          );
        }
        await tx.update(paymentOrders).set({ status: "refunded", updatedAt: now }).where(eq(paymentOrders.id, order.id));
        return true;
      });
    },
  };
}
