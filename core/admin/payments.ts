// Payments in the back office (docs/product/back-office.md#payments): the list with filters and
// cursor paging (and its CSV export, page by page), and refunds — full or partial — made through
// the provider's refund API and applied by the rules of docs/product/money.md#refunds-and-reversals
// exactly once, whether the provider's answer or its refund event comes first, or both at once:
// both name the provider's refund id, which is the ledger reference that books the refund once.
import { and, asc, desc, eq, gte, isNull, like, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { paymentOrders, paymentRefunds, transactions, users, type PaymentOrderKind, type PaymentOrderStatus, type RefundRequestStatus } from "../../db/schema/index.ts";
import type { Audit } from "../audit/index.ts";
import { fromSnapshot, type SoldProduct } from "../catalog/index.ts";
import { toLedgerEntry, type LedgerEntry } from "../ledger/index.ts";
import type { Mailer } from "../mail/index.ts";
import type { Notifications } from "../notifications/index.ts";
import type { Operators } from "../operators/index.ts";
import { fromDecimal, ProviderError, toDecimal, type Payments } from "../payments/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import { minorDigits } from "../shared/money.ts";
import { randomToken, sha256 } from "../shared/tokens.ts";
import type { Actor } from "./customers.ts";

type Logger = { warn(obj: object, msg?: string): void };

/** A payment as operators see it (docs/product/back-office.md#payments): a provider order and what became of it. */
export type AdminPayment = {
  id: number;
  userId: number;
  userEmail: string;
  provider: string;
  kind: PaymentOrderKind;
  status: PaymentOrderStatus;
  amount: number;
  /** Minor units refunded or reversed so far. */
  refunded: number;
  currency: string;
  product: SoldProduct | null;
  shoppingArea: string;
  providerOrderId: string | null;
  captureId: string | null;
  payerId: string | null;
  disputedAt: Date | null;
  disputeId: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export function toAdminPayment(order: typeof paymentOrders.$inferSelect, userEmail: string): AdminPayment {
  return {
    id: order.id,
    userId: order.userId,
    userEmail,
    provider: order.provider,
    kind: order.kind,
    status: order.status,
    amount: order.amount,
    refunded: order.refunded,
    currency: order.currency,
    product: order.product ? fromSnapshot(order.product) : null,
    shoppingArea: order.shoppingArea,
    providerOrderId: order.providerOrderId,
    captureId: order.captureId,
    payerId: order.payerId,
    disputedAt: order.disputedAt,
    disputeId: order.disputeId,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
  };
}

export type PaymentFilter = {
  userId?: number;
  status?: PaymentOrderStatus;
  provider?: string;
  /** Made at or after. */
  from?: Date;
  /** Made before. */
  to?: Date;
  /** Older than this payment id (the previous page's cursor). */
  before?: number;
  limit: number;
};

/** What a refund did: the payment after it, the ledger rows it wrote, and the provider's refund. */
export type RefundResult = { payment: AdminPayment; transactions: LedgerEntry[]; refund: { id: string; status: "completed" | "pending" } };

/** Refunds may be made of payments in these states: money taken and not all of it given back. */
const REFUNDABLE: ReadonlySet<PaymentOrderStatus> = new Set(["completed", "partially_refunded"]);

export function createAdminPayments(deps: {
  db: Db;
  clock: Clock;
  audit: Audit;
  operators: Operators;
  payments: Payments;
  paymentProviders?: Payments[];
  currency: string;
  logger: Logger;
  /** The buyer is told where to claim a refund the provider does not send back by itself (BTCPay). */
  notifications: Notifications;
  mailer: Mailer;
}) {
  const { db, clock, audit, operators, currency, logger, notifications, mailer } = deps;
  /** Refunds go through the provider that took the payment (docs/product/back-office.md#refunds). */
  const providers = deps.paymentProviders ?? [deps.payments];
  const digits = minorDigits(currency);

  async function page(filter: PaymentFilter): Promise<{ payments: AdminPayment[]; nextCursor: number | null }> {
    const conditions: SQL[] = [];
    if (filter.userId !== undefined) conditions.push(eq(paymentOrders.userId, filter.userId));
    if (filter.status !== undefined) conditions.push(eq(paymentOrders.status, filter.status));
    if (filter.provider !== undefined) conditions.push(eq(paymentOrders.provider, filter.provider));
    if (filter.from !== undefined) conditions.push(gte(paymentOrders.createdAt, filter.from));
    if (filter.to !== undefined) conditions.push(lt(paymentOrders.createdAt, filter.to));
    if (filter.before !== undefined) conditions.push(lt(paymentOrders.id, filter.before));
    const rows = await db
      .select({ order: paymentOrders, email: users.email })
      .from(paymentOrders)
      .innerJoin(users, eq(users.id, paymentOrders.userId))
      .where(and(...conditions))
      .orderBy(desc(paymentOrders.id))
      .limit(filter.limit + 1);
    const list = rows.slice(0, filter.limit).map((r) => toAdminPayment(r.order, r.email));
    return { payments: list, nextCursor: rows.length > filter.limit ? list.at(-1)!.id : null };
  }

  async function paymentById(id: number): Promise<AdminPayment> {
    const [row] = await db.select({ order: paymentOrders, email: users.email }).from(paymentOrders).innerJoin(users, eq(users.id, paymentOrders.userId)).where(eq(paymentOrders.id, id));
    if (!row) throw new DomainError("not_found", "errors.payment_not_found");
    return toAdminPayment(row.order, row.email);
  }

  /** The ledger rows a refund wrote: its reference, and the steps that carry it as their prefix. */
  async function rowsOfRefund(reference: string): Promise<LedgerEntry[]> {
    const rows = await db
      .select()
      .from(transactions)
      .where(or(eq(transactions.reference, reference), like(transactions.reference, `${reference}:%`)))
      .orderBy(asc(transactions.id));
    return rows.map(toLedgerEntry);
  }

  const keyedRequestId = (orderId: number, actorId: number, key: string) => `refund-${orderId}-${sha256(`${actorId}:${key}`).slice(0, 32)}`;

  async function keyedRequest(orderId: number, actorId: number, key: string) {
    const [row] = await db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.requestId, keyedRequestId(orderId, actorId, key)));
    return row;
  }

  /**
   * The request a refund is made under, and the operator's audit entry for it (written once, when
   * the request is made: whatever the provider answers, the operator asked). With the call's
   * Idempotency-Key it is the key's (a retry is the same refund at the provider). Without one, a
   * request still waiting for the provider's answer, of the same payment and amount, is asked again
   * under its id (the answer was lost: the same refund, never a second); else a new one. Made under
   * the payment's row lock, so two clicks make one request.
   */
  async function requestOf(actor: Actor, order: typeof paymentOrders.$inferSelect, amount: number, input: { reason: string; requestKey?: string }) {
    return db.transaction(async (tx) => {
      await tx.select({ id: paymentOrders.id }).from(paymentOrders).where(eq(paymentOrders.id, order.id)).for("no key update");
      const keyed = input.requestKey === undefined ? undefined : keyedRequestId(order.id, actor.operator.id, input.requestKey);
      const [open] = await tx
        .select()
        .from(paymentRefunds)
        .where(
          keyed
            ? eq(paymentRefunds.requestId, keyed)
            : and(eq(paymentRefunds.orderId, order.id), eq(paymentRefunds.amount, amount), eq(paymentRefunds.status, "requested"), isNull(paymentRefunds.refundId)),
        )
        .limit(1);
      if (open) return open;
      const now = clock.now();
      const [created] = await tx
        .insert(paymentRefunds)
        .values({ orderId: order.id, amount, actorId: actor.operator.id, requestId: keyed ?? `refund-${order.id}-${randomToken(12)}`, createdAt: now, updatedAt: now })
        .returning();
      await audit.record(tx, {
        actorId: actor.operator.id,
        action: "refund.request",
        targetType: "payment",
        targetId: order.id,
        reason: input.reason,
        before: { status: order.status, refunded: order.refunded },
        after: { amount, request_id: created!.requestId, user_id: order.userId },
        ip: actor.ip,
      });
      return created!;
    });
  }

  async function resultOf(paymentId: number, refundId: string, status: "completed" | "pending"): Promise<RefundResult> {
    const payment = await paymentById(paymentId);
    return { payment, transactions: await rowsOfRefund(`${payment.provider}:refund:${refundId}`), refund: { id: refundId, status } };
  }

  /** The provider's answer to a request (its event may have given it already: the refund id stays). */
  async function settle(id: number, outcome: { status: RefundRequestStatus; refundId?: string }) {
    await db
      .update(paymentRefunds)
      .set({ status: outcome.status, refundId: outcome.refundId === undefined ? undefined : sql`coalesce(${paymentRefunds.refundId}, ${outcome.refundId})`, updatedAt: clock.now() })
      .where(eq(paymentRefunds.id, id));
  }

  /**
   * A refund the buyer claims (BTCPay's pull payment, docs/decisions/0042-refund-claim-link.md): its
   * link in an inbox notification and a mail in the buyer's language. The refund is made whatever
   * becomes of these; a failure is logged (the operator sees the link in the provider's back office).
   */
  async function tellClaim(order: typeof paymentOrders.$inferSelect, amount: number, link: string): Promise<void> {
    try {
      const [buyer] = await db.select({ email: users.email, locale: users.locale }).from(users).where(eq(users.id, order.userId));
      if (!buyer) return;
      await notifications.create(order.userId, "refund_claim", { link });
      await mailer.send({
        to: buyer.email,
        locale: buyer.locale,
        template: "refund_claim",
        params: { refund: { amount, currency: order.currency }, orderRef: order.providerOrderId ?? order.captureId ?? String(order.id), link },
      });
    } catch (err) {
      logger.warn({ err, paymentId: order.id }, "the refund's claim link could not be sent to the buyer");
    }
  }

  return {
    list: page,

    /** Every payment of the filter, page by page (newest first), for the CSV export. */
    async *all(filter: Omit<PaymentFilter, "before" | "limit">): AsyncGenerator<AdminPayment[]> {
      let before: number | undefined;
      for (;;) {
        const next = await page({ ...filter, before, limit: 500 });
        if (next.payments.length > 0) yield next.payments;
        if (next.nextCursor === null) return;
        before = next.nextCursor;
      }
    },

    byId: paymentById,

    /**
     * Refunds `amount` (default: all that is left) of a captured payment through the provider,
     * under a refund request whose id the provider dedupes (requestOf: a retry after a lost answer,
     * or a double click, is the same refund at the provider). A completed refund is applied here,
     * once (the provider's event about it finds it booked, and the other way round); a pending one
     * is applied by that event when it completes.
     */
    async refund(actor: Actor, paymentId: number, input: { amount?: number; reason: string; requestKey?: string }): Promise<RefundResult> {
      operators.require(actor.operator, "refund");
      const [order] = await db.select().from(paymentOrders).where(eq(paymentOrders.id, paymentId));
      if (!order) throw new DomainError("not_found", "errors.payment_not_found");
      const [owner] = await db.select({ role: users.role }).from(users).where(eq(users.id, order.userId));
      if (owner?.role) throw new DomainError("forbidden", "errors.admin_target_operator");
      // A retry under the same Idempotency-Key whose refund is known (its event came first): that refund.
      const keyed = input.requestKey === undefined ? undefined : await keyedRequest(order.id, actor.operator.id, input.requestKey);
      if (keyed?.refundId && keyed.status !== "refused") return resultOf(paymentId, keyed.refundId, keyed.status === "pending" ? "pending" : "completed");
      if (!order.captureId || !REFUNDABLE.has(order.status)) throw new DomainError("conflict", "errors.refund_not_refundable");
      const payments = providers.find((p) => p.provider.name === order.provider);
      if (!payments) throw new DomainError("conflict", "errors.refund_other_provider");
      const provider = payments.provider;
      const left = order.amount - order.refunded;
      if (left <= 0) throw new DomainError("conflict", "errors.refund_nothing_left");
      const amount = keyed?.amount ?? input.amount ?? left;
      if (amount > left) {
        throw new DomainError("validation_failed", "errors.validation_failed", { fields: { amount: "validation.refund_too_much" } });
      }
      const request = await requestOf(actor, order, amount, input);
      let refund;
      try {
        refund = await provider.refundCapture({
          captureId: order.captureId,
          amount: { value: toDecimal(amount, digits), currency: order.currency },
          requestId: request.requestId,
          reference: request.requestId,
          note: input.reason,
        });
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        logger.warn({ err: error, paymentId }, "refund refused or failed at the provider");
        if (error.status !== undefined && error.status >= 400 && error.status < 500 && error.issue) {
          await settle(request.id, { status: "refused" });
          throw new DomainError("conflict", "errors.refund_refused", { params: { issue: error.issue.slice(0, 64) } });
        }
        // No answer, or the provider's own failure: the request stays open, and a retry asks again with its id.
        throw new DomainError("payment_failed", "errors.refund_failed");
      }
      if (refund.status === "failed") {
        await settle(request.id, { status: "refused", refundId: refund.id });
        throw new DomainError("conflict", "errors.refund_refused", { params: { issue: "FAILED" } });
      }
      await settle(request.id, { status: refund.status, refundId: refund.id });
      if (refund.status === "completed") {
        const refunded = (refund.amount && refund.amount.currency === order.currency ? fromDecimal(refund.amount.value, digits) : undefined) ?? amount;
        // Applied here, or found applied by the provider's event that came first: once either way.
        await payments.takeBack({ kind: "refund", captureId: order.captureId, eventId: refund.id, amount: refunded });
        if (refund.claimUrl) await tellClaim(order, refunded, refund.claimUrl);
      }
      return resultOf(paymentId, refund.id, refund.status);
    },
  };
}
