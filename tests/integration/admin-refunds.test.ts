// Refunds from the back office (docs/product/back-office.md#refunds, issue 10 point 4) against the
// loopback PayPal: `POST /v2/admin/payments/{id}/refund` asks PayPal's capture refund API and
// applies the rules of docs/product/money.md#refunds-and-reversals once, whether PayPal's answer or
// its PAYMENT.CAPTURE.REFUNDED event comes first, or both at once; a refund after the buyer spent the
// money follows the same rules; PayPal's failures leave nothing half-done and a retry is never a
// second refund. And the payments list: filters, cursor paging, CSV.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { paymentOrders, paymentRefunds } from "../../db/schema/index.ts";
import { manualClock } from "../../core/shared/clock.ts";
import type { KitOrder } from "../kit/paypal.ts";
import { GAMES, PRODUCTS, balanceOf, expectConsistentLedger, owedOf, registerUser, rowsOf, subscriptionOf, subscriptionsOf, useShop, type Reply, type User } from "../kit/shop.ts";
import { auditEntries, makeOperator, payByPayPal, signInWithCode, type Operator } from "./admin-kit.ts";

const DAY = 86_400_000;
const clock = manualClock(new Date("2026-06-01T00:00:00.000Z"));
const shop = useShop({ paypal: true, clock });

let owner: Operator;

beforeAll(async () => {
  owner = await makeOperator(shop, clock, "owner");
  // One step-up for the file's refunds; the window is checked in admin-access.test.ts.
  const stepUp = await shop.call("POST", "/v2/admin/step-up", { token: owner.token, json: { code: owner.code() } });
  expect(stepUp.status).toBe(200);
});

/**
 * The window lasts five minutes of the manual clock and an operator session 12 hours: signed in and
 * stepped up again before each test's refunds (after any move of the clock).
 */
async function steppedUp() {
  owner.token = await signInWithCode(shop, clock, owner, owner.secret);
  const reply = await shop.call("POST", "/v2/admin/step-up", { token: owner.token, json: { code: owner.code() } });
  expect(reply.status, reply.text).toBe(200);
}

function refund(paymentId: number, body: { amount?: number; reason?: string } = {}, headers: Record<string, string> = {}): Promise<Reply> {
  return shop.call("POST", `/v2/admin/payments/${paymentId}/refund`, { token: owner.token, json: { reason: "buyer asked", ...body }, headers });
}

async function webhook(event: unknown): Promise<Reply> {
  return shop.call("POST", "/v2/web/payment/paypal/webhook", { json: event, headers: shop.paypal.webhookHeaders(event) });
}

/** PayPal's REFUNDED event for a refund of the order (the latest unless named). */
const refundEvent = (order: KitOrder, refundId?: string) => shop.paypal.webhookEvent("PAYMENT.CAPTURE.REFUNDED", order, { refundId });

/** Polls (5 ms) until the condition holds, at most 5 s. */
async function until(condition: () => boolean) {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("the condition never held");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const refundCalls = () => shop.paypal.requestsTo(/^POST \/v2\/payments\/captures\/[^/]+\/refund$/);

async function paymentRow(id: number) {
  const [row] = await shop.services.db.select().from(paymentOrders).where(eq(paymentOrders.id, id));
  return row!;
}

describe("a refund through PayPal's refund API", () => {
  it("partial, then the rest: PayPal is asked, the balance taken back, the payment marked; PayPal's events afterwards change nothing", async () => {
    await steppedUp();
    const buyer = await registerUser(shop);
    const { order, paymentId } = await payByPayPal(shop, buyer, { amount: 5000 });
    const calls = refundCalls().length;

    const partial = await refund(paymentId, { amount: 2000 });
    expect(partial.status, partial.text).toBe(200);
    expect(partial.body.payment).toMatchObject({ id: paymentId, status: "partially_refunded", refunded: 2000, amount: 5000 });
    expect(partial.body.refund.status).toBe("completed");
    expect(partial.body.transactions).toHaveLength(1);
    expect(partial.body.transactions[0]).toMatchObject({ type: "refund", amount: -2000, paid: -2000, payment_id: paymentId, balance_after: 3000 });
    expect(await balanceOf(shop, buyer.id)).toBe(3000);
    const asked = refundCalls().slice(calls);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.path).toBe(`/v2/payments/captures/${order.capture!.id}/refund`);
    expect(asked[0]!.body).toMatchObject({ amount: { value: "20.00", currency_code: "USD" }, note_to_payer: "buyer asked" });
    expect(asked[0]!.requestId).toMatch(/^refund-/);

    const rows = (await rowsOf(shop, buyer.id)).length;
    expect((await webhook(refundEvent(order, partial.body.refund.id))).status).toBe(200);
    expect(await rowsOf(shop, buyer.id)).toHaveLength(rows);

    const rest = await refund(paymentId);
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.payment).toMatchObject({ status: "refunded", refunded: 5000 });
    expect(shop.paypal.orders.get(order.id)!.refunds.map((r) => r.amount.value)).toEqual(["20.00", "30.00"]);
    expect((await webhook(refundEvent(order, rest.body.refund.id))).status).toBe(200);
    expect(await balanceOf(shop, buyer.id)).toBe(0);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(0);

    const again = await refund(paymentId);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("Only a completed payment that has not been fully refunded or charged back can be refunded.");
    expect(refundCalls()).toHaveLength(calls + 2);
    const audited = await auditEntries(shop, "refund.request", 2);
    expect(audited.map((e) => [e.actorId, e.targetId, e.reason, e.before, e.after])).toMatchObject([
      [owner.id, String(paymentId), "buyer asked", { status: "partially_refunded", refunded: 2000 }, { amount: 3000, user_id: buyer.id }],
      [owner.id, String(paymentId), "buyer asked", { status: "completed", refunded: 0 }, { amount: 2000, user_id: buyer.id }],
    ]);
  });

  it("applies once when PayPal's event comes first, while PayPal's answer is on its way", async () => {
    await steppedUp();
    const buyer = await registerUser(shop);
    const { order, paymentId } = await payByPayPal(shop, buyer, { amount: 4000 });
    shop.paypal.delayNext(1, 400, /\/refund$/);
    const call = refund(paymentId, { amount: 1500 });
    await until(() => shop.paypal.orders.get(order.id)!.refunds.length === 1);
    expect((await webhook(refundEvent(order))).status).toBe(200);
    expect(await balanceOf(shop, buyer.id)).toBe(2500);
    const reply = await call;
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.payment).toMatchObject({ refunded: 1500, status: "partially_refunded" });
    expect(reply.body.transactions).toHaveLength(1);
    expect(await balanceOf(shop, buyer.id)).toBe(2500);
    await expectConsistentLedger(shop, buyer.id);
  });

  it("after a lost answer, PayPal's event applies it, and the retry with the same Idempotency-Key is that refund, not a second", async () => {
    await steppedUp();
    const buyer = await registerUser(shop);
    const { order, paymentId } = await payByPayPal(shop, buyer, { amount: 4000 });
    const key = { "idempotency-key": `lost-${paymentId}` };
    shop.paypal.hangNext(1, /\/refund$/, { process: true });
    const lost = await refund(paymentId, { amount: 1500 }, key);
    expect(lost.status).toBe(502);
    expect(lost.body.message).toBe("The payment provider did not answer. Try again: the same refund is never made twice.");
    expect(await balanceOf(shop, buyer.id)).toBe(4000);
    // PayPal made it all the same, and says so.
    expect((await webhook(refundEvent(order))).status).toBe(200);
    expect(await balanceOf(shop, buyer.id)).toBe(2500);

    const retry = await refund(paymentId, { amount: 1500 }, key);
    expect(retry.status, retry.text).toBe(200);
    expect(shop.paypal.orders.get(order.id)!.refunds).toHaveLength(1);
    expect(retry.body.refund.id).toBe(shop.paypal.orders.get(order.id)!.refunds[0]!.id);
    expect(retry.body.payment).toMatchObject({ refunded: 1500, status: "partially_refunded" });
    expect(retry.body.transactions).toHaveLength(1);
    expect(await balanceOf(shop, buyer.id)).toBe(2500);
    await expectConsistentLedger(shop, buyer.id);

    // A new refund (no key, or another one) of the same amount is a second refund, as asked.
    const second = await refund(paymentId, { amount: 1500 });
    expect(second.status, second.text).toBe(200);
    expect(shop.paypal.orders.get(order.id)!.refunds).toHaveLength(2);
    expect(await balanceOf(shop, buyer.id)).toBe(1000);
  });

  it("applies once with the API's answer, PayPal's event and the operator's retry all at the same time", async () => {
    await steppedUp();
    const buyer = await registerUser(shop);
    const { order, paymentId } = await payByPayPal(shop, buyer, { amount: 6000 });
    // PayPal makes the refund at once but answers late: its events are delivered meanwhile.
    const key = { "idempotency-key": `parallel-${paymentId}` };
    shop.paypal.delayNext(1, 300, /\/refund$/);
    const first = refund(paymentId, { amount: 2500 }, key);
    await until(() => shop.paypal.orders.get(order.id)!.refunds.length === 1);
    const event = refundEvent(order);
    const replies = await Promise.all([first, ...Array.from({ length: 6 }, () => webhook(event)), refund(paymentId, { amount: 2500 }, key)]);
    for (const reply of replies) expect(reply.status, reply.text).toBe(200);
    expect(shop.paypal.orders.get(order.id)!.refunds).toHaveLength(1);
    expect(await balanceOf(shop, buyer.id)).toBe(3500);
    expect((await paymentRow(paymentId)).refunded).toBe(2500);
    expect((await rowsOf(shop, buyer.id)).filter((r) => r.type === "refund")).toHaveLength(1);
    await expectConsistentLedger(shop, buyer.id);
  });

  it("after the buyer spent the money, follows the rules: the balance first, then the days it bought (never used time), then owed", async () => {
    await steppedUp();
    const buyer = await registerUser(shop);
    const { paymentId } = await payByPayPal(shop, buyer, { amount: 3000 });
    const bought = await shop.call("POST", "/v2/web/user/purchase", { token: buyer.token, json: { product_id: PRODUCTS.minecraft.days30.id } });
    expect(bought.status, bought.text).toBe(200);
    expect(await balanceOf(shop, buyer.id)).toBe(1001);
    const before = subscriptionOf(await subscriptionsOf(shop, buyer.token), GAMES.minecraft.id)!;
    clock.advance(DAY);
    await steppedUp();

    const reply = await refund(paymentId);
    expect(reply.status, reply.text).toBe(200);
    expect(await balanceOf(shop, buyer.id)).toBe(0);
    // 1001 came off the balance; the other 1999 undo the purchase: all its days not used yet go
    // (the pass ends now), and the day already used is what the buyer still owes, in proportion.
    const after = subscriptionOf(await subscriptionsOf(shop, buyer.token), GAMES.minecraft.id)!;
    expect(after.remaining_seconds).toBe(0);
    const removed = (new Date(before.expires_at).getTime() - new Date(after.expires_at).getTime()) / 1000;
    const covered = Math.floor((1999 * removed) / (30 * 86_400));
    expect(reply.body.transactions.map((t: { type: string; amount: number; paid: number; owed_change: number }) => [t.type, t.amount, t.paid, t.owed_change])).toEqual([
      ["refund", -1001, -3000, 0],
      ["refund", 0, -covered, 0],
      ["refund", 0, 0, 1999 - covered],
    ]);
    expect(await owedOf(shop, buyer.id)).toBe(1999 - covered);
    expect(1999 - covered).toBeGreaterThanOrEqual(Math.floor(1999 / 30));
    expect(1999 - covered).toBeLessThanOrEqual(Math.ceil(1999 / 30) + 1);
    await expectConsistentLedger(shop, buyer.id);
  });

  it("of a direct purchase, takes its share of days: half the money, half the days", async () => {
    await steppedUp();
    const buyer = await registerUser(shop);
    const { paymentId } = await payByPayPal(shop, buyer, { product_id: PRODUCTS.cs2.days30.id });
    const before = subscriptionOf(await subscriptionsOf(shop, buyer.token), GAMES.cs2.id)!;
    const half = Math.floor(PRODUCTS.cs2.days30.price / 2);
    const reply = await refund(paymentId, { amount: half });
    expect(reply.status, reply.text).toBe(200);
    const after = subscriptionOf(await subscriptionsOf(shop, buyer.token), GAMES.cs2.id)!;
    const removed = new Date(before.expires_at).getTime() - new Date(after.expires_at).getTime();
    expect(removed).toBe(Math.round((30 * 86_400 * half) / PRODUCTS.cs2.days30.price) * 1000);
    expect(await balanceOf(shop, buyer.id)).toBe(0);
  });
});

describe("when PayPal fails or refuses", () => {
  it("a PayPal error (500) leaves nothing applied, and the retry is the same refund", async () => {
    await steppedUp();
    const buyer = await registerUser(shop);
    const { order, paymentId } = await payByPayPal(shop, buyer, { amount: 2000 });
    shop.paypal.failNext(1, /\/refund$/);
    const failed = await refund(paymentId, { amount: 700 });
    expect(failed.status).toBe(502);
    expect(await balanceOf(shop, buyer.id)).toBe(2000);
    const ok = await refund(paymentId, { amount: 700 });
    expect(ok.status, ok.text).toBe(200);
    const ids = refundCalls()
      .slice(-2)
      .map((r) => r.requestId);
    expect(ids[0]).toBe(ids[1]);
    expect(shop.paypal.orders.get(order.id)!.refunds).toHaveLength(1);
    expect(await balanceOf(shop, buyer.id)).toBe(1300);
  });

  it("a refusal (422) is said with PayPal's reason and moves nothing; the request stays in the audit log", async () => {
    await steppedUp();
    const buyer = await registerUser(shop);
    const { paymentId } = await payByPayPal(shop, buyer, { amount: 2000 });
    const audited = (await auditEntries(shop, "refund.request", 100)).length;
    shop.paypal.refuseNextRefund("REFUND_TIME_LIMIT_EXCEEDED");
    const refused = await refund(paymentId);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("The payment provider refused the refund (REFUND_TIME_LIMIT_EXCEEDED).");
    expect(await balanceOf(shop, buyer.id)).toBe(2000);
    expect((await auditEntries(shop, "refund.request", 100)).length).toBe(audited + 1);
    const [request] = await shop.services.db.select().from(paymentRefunds).where(eq(paymentRefunds.orderId, paymentId));
    expect(request!.status).toBe("refused");
  });

  it("a pending refund moves nothing until PayPal's event says it completed, then applies once", async () => {
    await steppedUp();
    const buyer = await registerUser(shop);
    const { order, paymentId } = await payByPayPal(shop, buyer, { amount: 2000 });
    shop.paypal.refundStatus = "PENDING";
    try {
      const pending = await refund(paymentId, { amount: 500 });
      expect(pending.status, pending.text).toBe(200);
      expect(pending.body.refund.status).toBe("pending");
      expect(pending.body.payment).toMatchObject({ status: "completed", refunded: 0 });
      expect(pending.body.transactions).toEqual([]);
      expect(await balanceOf(shop, buyer.id)).toBe(2000);
      shop.paypal.completeRefund(pending.body.refund.id);
      expect((await webhook(refundEvent(order))).status).toBe(200);
      expect((await webhook(refundEvent(order))).status).toBe(200);
      expect(await balanceOf(shop, buyer.id)).toBe(1500);
    } finally {
      shop.paypal.refundStatus = "COMPLETED";
    }
  });

  it("refuses more than is left (400), an unknown payment (404) and a payment never captured (409), asking PayPal nothing", async () => {
    await steppedUp();
    const buyer = await registerUser(shop);
    const { paymentId } = await payByPayPal(shop, buyer, { amount: 1000 });
    const calls = refundCalls().length;
    const tooMuch = await refund(paymentId, { amount: 1001 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.errors.amount).toBe("This is more than is left to refund.");
    expect((await refund(999_999)).status).toBe(404);
    expect((await shop.call("POST", "/v2/admin/payments/abc/refund", { token: owner.token, json: { reason: "x" } })).status).toBe(404);
    const created = await shop.call("POST", "/v2/web/payment/paypal/order", { token: buyer.token, json: { amount: 700 } });
    const [open] = await shop.services.db.select().from(paymentOrders).where(eq(paymentOrders.providerOrderId, created.body.order_id));
    expect((await refund(open!.id)).status).toBe(409);
    expect(refundCalls()).toHaveLength(calls);
  });

  it("with an Idempotency-Key, replays the first answer without a step-up code and refunds nothing again", async () => {
    await steppedUp();
    const buyer = await registerUser(shop);
    const { order, paymentId } = await payByPayPal(shop, buyer, { amount: 1000 });
    const first = await refund(paymentId, { amount: 300 }, { "idempotency-key": `refund-${paymentId}` });
    expect(first.status).toBe(200);
    clock.advance(10 * 60_000); // the step-up window is closed
    const replay = await refund(paymentId, { amount: 300 }, { "idempotency-key": `refund-${paymentId}` });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect(shop.paypal.orders.get(order.id)!.refunds).toHaveLength(1);
    expect(await balanceOf(shop, buyer.id)).toBe(700);
  });
});

describe("the payments list", () => {
  let buyer: User;
  const ids: number[] = [];

  beforeAll(async () => {
    buyer = await registerUser(shop, { tag: "lister" });
    for (const amount of [1100, 1200, 1300]) ids.push((await payByPayPal(shop, buyer, { amount })).paymentId);
    clock.advance(2 * DAY);
    ids.push((await payByPayPal(shop, buyer, { amount: 1400 })).paymentId);
    owner.token = await signInWithCode(shop, clock, owner, owner.secret);
  });

  it("filters by user, status, provider and period, newest first, paged by cursor", async () => {
    const get = (q: string) => shop.call("GET", `/v2/admin/payments?${q}`, { token: owner.token });
    const first = await get(`user=${buyer.id}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.payments.map((p: { id: number }) => p.id)).toEqual([ids[3], ids[2]]);
    expect(first.body.payments[0]).toMatchObject({ user_id: buyer.id, user_email: buyer.email, provider: "paypal", kind: "topup", status: "completed", amount: 1400 });
    const second = await get(`user=${buyer.id}&limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.payments.map((p: { id: number }) => p.id)).toEqual([ids[1], ids[0]]);
    expect(second.body.next_cursor).toBeNull();

    const day = clock.now().toISOString().slice(0, 10);
    expect((await get(`user=${buyer.id}&from=${day}`)).body.payments.map((p: { id: number }) => p.id)).toEqual([ids[3]]);
    expect((await get(`user=${buyer.id}&to=${new Date(clock.now().getTime() - DAY).toISOString()}`)).body.payments).toHaveLength(3);
    expect((await get(`user=${buyer.id}&status=refunded`)).body.payments).toEqual([]);
    expect((await get(`user=${buyer.id}&provider=demo`)).body.payments).toEqual([]);
    expect((await get(`status=gone`)).status).toBe(400);
    expect((await get(`from=yesterday`)).body.errors.from).toBe("Enter a date (YYYY-MM-DD) or a time in ISO 8601.");
  });

  it("exports CSV: every matching payment, a header, one line each, no-store", async () => {
    const reply = await shop.request(`/v2/admin/payments?user=${buyer.id}&format=csv`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(reply.headers.get("content-disposition")).toMatch(/attachment; filename="payments.csv"/);
    expect(reply.headers.get("cache-control")).toBe("no-store");
    const lines = (await reply.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe("id,created_at,user_id,user_email,provider,kind,status,amount,refunded,currency,product,shopping_area,provider_order_id,capture_id,disputed_at");
    expect(lines.slice(1).map((l) => Number(l.split(",")[0]))).toEqual([...ids].reverse());
    expect(lines[1]).toContain(`,${buyer.id},${buyer.email},paypal,topup,completed,1400,0,USD,,global,`);
  });
});
