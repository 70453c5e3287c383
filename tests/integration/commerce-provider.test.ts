// A payment provider is one file (issue 8, point 3): createPayments applies the neutral webhook
// actions of provider.ts — captured, refunded, reversed, disputed, expired, partial, ignored — and
// never reads a provider's own format. This provider (not PayPal, not the demo one) has a wire
// format of its own and is plugged into the same core as the shop's, with every money rule kept:
// a payment books once, a refund takes back at most what was paid, a chargeback suspends.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../core/shared/clock.ts";
import { paymentOrders, users } from "../../db/schema/index.ts";
import { createPayments, toDecimal, WebhookRefused, type PaymentProvider, type Payments, type WebhookAction } from "../../core/payments/index.ts";
import { expectConsistentLedger, registerUser, rowsOf, useShop, type User } from "../kit/shop.ts";

const shop = useShop({ clock: systemClock });

/** Its orders, and whether their money was taken; its webhooks carry a shared secret and the action as JSON. */
const orders = new Map<string, { referenceId: string; value: string; currency: string; completed: boolean }>();
let serial = 0;
const provider: PaymentProvider = {
  // The name is the ledger's `source` (the schema allows "paypal" and "demo" today).
  name: "demo",
  async createOrder(input) {
    const id = `ELSE-${++serial}`;
    orders.set(id, { referenceId: input.referenceId, value: input.amount.value, currency: input.amount.currency, completed: false });
    return { id, status: "open", approveUrl: `https://pay.example/checkout/${id}` };
  },
  async captureOrder(orderId) {
    return this.getOrder(orderId);
  },
  async getOrder(orderId) {
    const order = orders.get(orderId)!;
    return {
      orderId,
      completed: order.completed,
      captureId: order.completed ? `PAID-${orderId}` : undefined,
      amount: { value: order.value, currency: order.currency },
      referenceId: order.referenceId,
      payerId: "ELSE-PAYER",
    };
  },
  async refundCapture(input) {
    return { id: `ELSE-REFUND-${input.requestId}`, status: "completed", amount: input.amount };
  },
  async parseWebhook(headers, rawBody) {
    if (headers["x-else-signature"] !== "secret") throw new WebhookRefused("unverified");
    try {
      return JSON.parse(rawBody) as WebhookAction;
    } catch {
      throw new WebhookRefused("malformed");
    }
  },
};

const warnings: string[] = [];
let payments: Payments;

beforeAll(() => {
  const { services } = shop;
  payments = createPayments({
    db: services.db,
    clock: services.clock,
    provider,
    ledger: services.ledger,
    subscriptions: services.subscriptions,
    catalog: services.catalog,
    referrals: services.referrals,
    notifications: services.notifications,
    receipts: services.receipts,
    suspensions: services.suspensions,
    publicUrl: services.settings.PUBLIC_URL,
    currency: "USD",
    topup: { min: services.settings.TOPUP_MIN, max: services.settings.TOPUP_MAX },
    logger: { error: (_obj, msg) => warnings.push(`error: ${msg}`), warn: (_obj, msg) => warnings.push(`warn: ${msg}`) },
  });
});

const signed = { "x-else-signature": "secret" };
const deliver = (action: WebhookAction, headers: Record<string, string> = signed) => payments.webhook(headers, JSON.stringify(action));

/** An order for a top-up, paid at the provider; the shop has not heard of it yet. */
async function paidTopUp(user: User, amount: number): Promise<string> {
  const { orderId } = await payments.createOrder(user.id, { amount, area: "global", locale: "en" });
  orders.get(orderId)!.completed = true;
  return orderId;
}

const captured = async (orderId: string): Promise<WebhookAction> => ({ kind: "captured", capture: await provider.getOrder(orderId) });
const orderRow = async (orderId: string) => (await shop.services.db.select().from(paymentOrders).where(eq(paymentOrders.providerOrderId, orderId)))[0]!;

describe("another provider's webhooks, as neutral actions", () => {
  it("captured: the payment books once, however often it arrives", async () => {
    const buyer = await registerUser(shop);
    const orderId = await paidTopUp(buyer, 2500);
    expect(await deliver(await captured(orderId))).toEqual({ applied: true });
    expect(await deliver(await captured(orderId))).toEqual({ applied: true });
    expect((await rowsOf(shop, buyer.id)).map((r) => [r.type, r.amount, r.source, r.reference])).toEqual([["topup", 2500, "demo", `demo:capture:PAID-${orderId}`]]);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(2500);
    expect((await orderRow(orderId)).payerId).toBe("ELSE-PAYER");
    // A capture that does not match the order is refused, as from PayPal.
    const other = await paidTopUp(buyer, 1000);
    const tampered = await captured(other);
    if (tampered.kind === "captured") tampered.capture.amount = { value: toDecimal(1, 2), currency: "USD" };
    await expect(deliver(tampered)).rejects.toMatchObject({ code: "payment_mismatch" });
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(2500);
  });

  it("refunded and reversed: at most what was paid comes back, once per event; a chargeback suspends", async () => {
    const buyer = await registerUser(shop);
    const orderId = await paidTopUp(buyer, 3000);
    await deliver(await captured(orderId));
    const captureId = `PAID-${orderId}`;
    const refund: WebhookAction = { kind: "refunded", captureId, eventId: "R-1", amount: { value: "10.00", currency: "USD" } };
    expect(await deliver(refund)).toEqual({ applied: true });
    expect(await deliver(refund)).toEqual({ applied: false });
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(2000);
    // Another currency than the shop's, or an amount that is no amount, is not applied.
    expect(await deliver({ ...refund, eventId: "R-2", amount: { value: "5.00", currency: "EUR" } })).toEqual({ applied: false });
    expect(await deliver({ ...refund, eventId: "R-3", amount: { value: "5.001", currency: "USD" } })).toEqual({ applied: false });
    expect(await deliver({ kind: "reversed", captureId, eventId: "V-1", amount: { value: "30.00", currency: "USD" } })).toEqual({ applied: true });
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(0);
    expect(await orderRow(orderId)).toMatchObject({ status: "reversed", refunded: 3000 });
    const [account] = await shop.services.db.select({ suspendedAt: users.suspendedAt, reason: users.suspendedReason }).from(users).where(eq(users.id, buyer.id));
    expect(account).toMatchObject({ reason: "chargeback" });
    expect(account!.suspendedAt).not.toBeNull();
  });

  it("disputed: the payment is flagged for operators, no money moves", async () => {
    const buyer = await registerUser(shop);
    const orderId = await paidTopUp(buyer, 1500);
    await deliver(await captured(orderId));
    expect(await deliver({ kind: "disputed", disputeId: "D-1", captureIds: [`PAID-${orderId}`, "NOT-OURS"] })).toEqual({ applied: true });
    expect(await deliver({ kind: "disputed", disputeId: "D-1", captureIds: [`PAID-${orderId}`] })).toEqual({ applied: false });
    expect(await orderRow(orderId)).toMatchObject({ status: "completed", disputeId: "D-1" });
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(1500);
  });

  it("expired: an open order fails and is never booked; money that turns up later goes to the balance once; a paid one stays paid", async () => {
    const buyer = await registerUser(shop);
    const { orderId } = await payments.createOrder(buyer.id, { amount: 1200, area: "global", locale: "en" });
    expect(await deliver({ kind: "expired", orderId })).toEqual({ applied: true });
    expect(await deliver({ kind: "expired", orderId })).toEqual({ applied: false });
    expect((await orderRow(orderId)).status).toBe("failed");
    orders.get(orderId)!.completed = true;
    await expect(payments.capture(buyer.id, orderId)).rejects.toMatchObject({ code: "payment_failed" });
    await expect(deliver(await captured(orderId))).rejects.toMatchObject({ code: "payment_failed" });
    // The order is never booked; money that turns up for it all the same goes to the balance once
    // (docs/product/money.md#money-that-matches-no-order), never lost.
    const late = await rowsOf(shop, buyer.id);
    expect(late.map((r) => [r.type, r.amount])).toEqual([["topup", 1200]]);

    const paid = await paidTopUp(buyer, 800);
    await deliver(await captured(paid));
    expect(await deliver({ kind: "expired", orderId: paid })).toEqual({ applied: false });
    expect((await orderRow(paid)).status).toBe("completed");
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(1200 + 800);
  });

  it("partial: nothing moves and the order stays open; operators are told", async () => {
    const buyer = await registerUser(shop);
    const { orderId } = await payments.createOrder(buyer.id, { amount: 2000, area: "global", locale: "en" });
    warnings.length = 0;
    expect(await deliver({ kind: "partial", orderId, amount: { value: "5.00", currency: "USD" } })).toEqual({ applied: false });
    expect(warnings).toEqual(["warn: partial payment: for operators"]);
    expect((await orderRow(orderId)).status).toBe("created");
    expect(await rowsOf(shop, buyer.id)).toHaveLength(0);
  });

  it("ignored, an unknown order, and what the provider refuses", async () => {
    expect(await deliver({ kind: "ignored", reason: "an event the shop does not use" })).toEqual({ applied: false });
    expect(await deliver({ kind: "captured", capture: { orderId: "ELSE-NOBODY", completed: true, captureId: "X" } })).toEqual({ applied: false });
    await expect(deliver({ kind: "ignored", reason: "forged" }, {})).rejects.toMatchObject({ code: "forbidden", messageKey: "errors.webhook_unverified" });
    await expect(payments.webhook(signed, "{nope")).rejects.toMatchObject({ code: "invalid_json" });
  });
});
