// Payments by PayPal through the HTTP API against a loopback PayPal: top-ups and direct purchases
// end to end, a payment applied exactly once whatever the order of capture calls and webhooks,
// webhook signatures (checked without calling PayPal), captures that do not match the order, provider failures and timeouts with
// an idempotent retry, refunds, and one user's order out of another's reach.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../core/shared/clock.ts";
import { idempotencyKeys, paymentOrders } from "../../db/schema/index.ts";
import type { KitOrder } from "../kit/paypal.ts";
import { runJobsOnce } from "../../server/jobs.ts";
import { GAMES, PRODUCTS, balanceOf, expectConsistentLedger, owedOf, registerUser, rowsOf, subscriptionOf, subscriptionsOf, useShop, type Reply, type User } from "../kit/shop.ts";

// The country header is trusted here as behind a CDN that sets it (issue 7, point 11); referral
// rewards are released by the first job run (the 14-day hold is tested in commerce-refunds).
const shop = useShop({ paypal: true, clock: systemClock, env: { COUNTRY_HEADER_TRUSTED: "1", REFERRAL_HOLD_DAYS: "0" } });

const DAY_MS = 86_400_000;
const CREATE = /^POST \/v2\/checkout\/orders$/;
const CAPTURE = /^POST \/v2\/checkout\/orders\/[^/]+\/capture$/;

async function createOrder(user: User, body: { amount?: number; product_id?: number }, key?: string, headers: Record<string, string> = {}): Promise<Reply> {
  return shop.call("POST", "/v2/web/payment/paypal/order", { token: user.token, json: body, headers: key ? { "idempotency-key": key, ...headers } : headers });
}

async function capture(user: User, orderId: string): Promise<Reply> {
  return shop.call("POST", "/v2/web/payment/paypal/capture", { token: user.token, json: { order_id: orderId } });
}

async function webhook(event: unknown, headers = shop.paypal.webhookHeaders(event)): Promise<Reply> {
  return shop.call("POST", "/v2/web/payment/paypal/webhook", { json: event, headers });
}

/** Creates an order (200 expected) and lets the buyer approve it at PayPal. */
async function approvedOrder(user: User, body: { amount?: number; product_id?: number }): Promise<KitOrder> {
  const reply = await createOrder(user, body);
  expect(reply.status, reply.text).toBe(200);
  shop.paypal.approve(reply.body.order_id);
  return shop.paypal.orders.get(reply.body.order_id)!;
}

async function orderRow(providerOrderId: string) {
  const [row] = await shop.services.db.select().from(paymentOrders).where(eq(paymentOrders.providerOrderId, providerOrderId));
  return row!;
}

async function referralCode(user: User): Promise<string> {
  const reply = await shop.call("GET", "/v2/web/user/referral", { token: user.token });
  expect(reply.status).toBe(200);
  return reply.body.referral.code as string;
}

async function notificationTypes(user: User): Promise<string[]> {
  const reply = await shop.call("GET", "/v2/web/user/notification", { token: user.token });
  expect(reply.status).toBe(200);
  return (reply.body.notifications as { type: string }[]).map((n) => n.type);
}

describe("a top-up and a direct purchase, end to end", () => {
  it("tops up the balance: order → approve → capture, booked once, the referrer's reward released once by the job", async () => {
    const referrer = await registerUser(shop, { tag: "ref" });
    const buyer = await registerUser(shop, { referrer: await referralCode(referrer) });

    const created = await createOrder(buyer, { amount: 2500 });
    expect(created.status, created.text).toBe(200);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const orderId = created.body.order_id as string;
    expect(created.body.approve_url).toBe(`https://www.sandbox.paypal.com/checkoutnow?token=${orderId}`);
    // What the shop asked PayPal for: 25.00 USD, our order as reference, a PayPal-Request-Id.
    const sent = shop.paypal.requestsTo(CREATE).at(-1)!;
    const unit = (sent.body as { purchase_units: { amount: unknown; reference_id: string }[] }).purchase_units[0]!;
    expect(unit.amount).toEqual({ currency_code: "USD", value: "25.00" });
    expect(unit.reference_id).toBe(String((await orderRow(orderId)).id));
    expect(sent.requestId).toBeTruthy();
    expect(sent.headers.authorization).toMatch(/^Bearer A21AA/);

    // Not approved yet: nothing happens.
    const early = await capture(buyer, orderId);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ status: false, code: "payment_not_approved", message: "The payment has not been approved yet." });
    expect(await rowsOf(shop, buyer.id)).toHaveLength(0);

    shop.paypal.approve(orderId);
    const tokensBefore = shop.paypal.tokenCalls;
    const captured = await capture(buyer, orderId);
    expect(captured.status, captured.text).toBe(200);
    expect(captured.body.balance).toBe(2500);
    expect(captured.body.transaction).toMatchObject({ type: "topup", amount: 2500, paid: 2500, currency: "USD", status: "completed", source: "paypal" });
    expect(await balanceOf(shop, buyer.id)).toBe(2500);
    expect((await orderRow(orderId)).status).toBe("completed");

    // The return page captures again: the same answer, nothing booked twice.
    const again = await capture(buyer, orderId);
    expect(again.status).toBe(200);
    expect(again.body.transaction.id).toBe(captured.body.transaction.id);
    expect(again.body.balance).toBe(2500);

    const rows = await rowsOf(shop, buyer.id);
    expect(rows.map((r) => [r.type, r.amount, r.source])).toEqual([["topup", 2500, "paypal"]]);
    await expectConsistentLedger(shop, buyer.id);
    // REFERRAL_PERCENT (10 %) of the payment, held until the job releases it, once.
    expect(await rowsOf(shop, referrer.id)).toHaveLength(0);
    expect((await runJobsOnce(shop.services)).released).toBe(1);
    expect((await runJobsOnce(shop.services)).released).toBe(0);
    const rewards = await rowsOf(shop, referrer.id);
    expect(rewards.map((r) => [r.type, r.amount])).toEqual([["referral_reward", 250]]);
    expect(await balanceOf(shop, referrer.id)).toBe(250);
    const summary = await shop.call("GET", "/v2/web/user/referral", { token: referrer.token });
    expect(summary.body.referral).toMatchObject({ invited: 1, earned: 250, percent: 10 });
    expect(await notificationTypes(referrer)).toEqual(["referral_reward"]);
    expect(await notificationTypes(buyer)).toEqual(["payment_completed"]);
    // The OAuth token was cached: capturing twice asked for no new one.
    expect(shop.paypal.tokenCalls).toBe(tokensBefore);
    expect(shop.paypal.tokenCalls).toBe(1);
  });

  it("buys a product directly: days granted, a purchase row that moves no balance, the referrer's reward released once", async () => {
    const referrer = await registerUser(shop, { tag: "ref" });
    const buyer = await registerUser(shop, { referrer: await referralCode(referrer) });
    shop.paypal.approveRel = "approve"; // the older link PayPal sends without payment_source
    try {
      const created = await createOrder(buyer, { product_id: PRODUCTS.dota2.days30.id });
      expect(created.status, created.text).toBe(200);
      expect(created.body.approve_url).toContain(created.body.order_id);
      const sent = shop.paypal.requestsTo(CREATE).at(-1)!;
      expect((sent.body as { purchase_units: { amount: unknown }[] }).purchase_units[0]!.amount).toEqual({ currency_code: "USD", value: "19.99" });
      shop.paypal.approve(created.body.order_id);
      const before = Date.now();
      const captured = await capture(buyer, created.body.order_id);
      expect(captured.status, captured.text).toBe(200);
      expect(captured.body.transaction).toMatchObject({ type: "purchase", amount: 0, paid: 1999, product_id: PRODUCTS.dota2.days30.id, source: "paypal" });
      expect(captured.body.transaction.product).toMatchObject({ id: 3, cheat_id: GAMES.dota2.id, params: { days: 30 } });
      expect(captured.body.balance).toBe(0);
      const dota = subscriptionOf(captured, GAMES.dota2.id)!;
      expect(dota.state).toBe("active");
      const expires = new Date(dota.expires_at).getTime();
      expect(expires).toBeGreaterThanOrEqual(before + 30 * DAY_MS - 1000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS + 1000);
      expect(subscriptionOf(await subscriptionsOf(shop, buyer.token), GAMES.dota2.id)!.expires_at).toBe(dota.expires_at);

      expect((await capture(buyer, created.body.order_id)).body.transaction.id).toBe(captured.body.transaction.id);
      expect(subscriptionOf(await subscriptionsOf(shop, buyer.token), GAMES.dota2.id)!.expires_at).toBe(dota.expires_at);
      await runJobsOnce(shop.services);
      expect((await rowsOf(shop, referrer.id)).map((r) => [r.type, r.amount])).toEqual([["referral_reward", 199]]);
      await expectConsistentLedger(shop, buyer.id);
      await expectConsistentLedger(shop, referrer.id);
    } finally {
      shop.paypal.reset();
    }
  });

  it("offers a product only in the buyer's shopping area and checks the top-up amount", async () => {
    const buyer = await registerUser(shop);
    expect((await createOrder(buyer, { product_id: PRODUCTS.dota2Cis.days1.id })).status).toBe(404); // a CIS price, asked from global
    const cis = await createOrder(buyer, { product_id: PRODUCTS.dota2Cis.days1.id }, undefined, { "CF-IPCountry": "RU" });
    expect(cis.status, cis.text).toBe(200);
    const sent = shop.paypal.requestsTo(CREATE).at(-1)!;
    expect((sent.body as { purchase_units: { amount: { value: string } }[] }).purchase_units[0]!.amount.value).toBe("1.49");
    expect((await createOrder(buyer, { product_id: PRODUCTS.dota2.days1.id }, undefined, { "CF-IPCountry": "RU" })).status).toBe(404);
    expect((await createOrder(buyer, { amount: 99 })).status).toBe(400); // below TOPUP_MIN
    expect((await createOrder(buyer, {})).status).toBe(400);
    expect((await createOrder(buyer, { amount: 500, product_id: PRODUCTS.dota2.days1.id })).status).toBe(400);
    expect((await shop.call("POST", "/v2/web/payment/paypal/order", { json: { amount: 500 } })).status).toBe(401);
  });
});

describe("a payment is applied exactly once", () => {
  type Step = "capture" | "webhook";
  const orders: [string, Step[]][] = [
    ["capture, return page, webhook, webhook", ["capture", "capture", "webhook", "webhook"]],
    ["webhook, webhook, capture, return page", ["webhook", "webhook", "capture", "capture"]],
    ["webhook, capture, webhook, capture", ["webhook", "capture", "webhook", "capture"]],
  ];

  it.each(orders)("%s → credited once", async (_name, steps) => {
    const buyer = await registerUser(shop);
    const order = await approvedOrder(buyer, { amount: 1000 });
    // A webhook comes only after PayPal captured: when it comes first, PayPal captured on its own
    // (the shop's own capture answer was lost), and the shop's capture then finds it captured.
    if (steps[0] === "webhook") shop.paypal.captureAtProvider(order.id);
    const transactionIds = new Set<number>();
    for (const step of steps) {
      if (step === "capture") {
        const reply = await capture(buyer, order.id);
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body.balance).toBe(1000);
        transactionIds.add(reply.body.transaction.id);
      } else {
        const reply = await webhook(shop.paypal.webhookEvent("PAYMENT.CAPTURE.COMPLETED", order));
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body.status).toBe(true);
      }
    }
    expect(transactionIds.size).toBe(1);
    const rows = await rowsOf(shop, buyer.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: "topup", amount: 1000, reference: `paypal:capture:${order.capture!.id}` });
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(1000);
    // The shop asked PayPal to capture at most once; later calls were answered from the database.
    expect(shop.paypal.requestsTo(CAPTURE).filter((r) => r.path.includes(order.id))).toHaveLength(steps[0] === "capture" ? 1 : 0);
  });

  it("two captures and two webhooks at once → credited once", async () => {
    const buyer = await registerUser(shop);
    const order = await approvedOrder(buyer, { amount: 1500 });
    const replies = await Promise.all([capture(buyer, order.id), capture(buyer, order.id)]);
    for (const reply of replies) expect(reply.status, reply.text).toBe(200);
    expect(replies[0]!.body.transaction.id).toBe(replies[1]!.body.transaction.id);
    const event = shop.paypal.webhookEvent("PAYMENT.CAPTURE.COMPLETED", order);
    const more = await Promise.all([webhook(event), webhook(event), capture(buyer, order.id), webhook(shop.paypal.webhookEvent("PAYMENT.CAPTURE.COMPLETED", order))]);
    for (const reply of more) expect(reply.status, reply.text).toBe(200);
    expect(await rowsOf(shop, buyer.id)).toHaveLength(1);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(1500);
  });

  it("a direct purchase by webhook alone grants the days once", async () => {
    const buyer = await registerUser(shop);
    const order = await approvedOrder(buyer, { product_id: PRODUCTS.dota2.days7.id });
    shop.paypal.captureAtProvider(order.id);
    const event = shop.paypal.webhookEvent("PAYMENT.CAPTURE.COMPLETED", order);
    expect((await webhook(event)).status).toBe(200);
    const first = subscriptionOf(await subscriptionsOf(shop, buyer.token), GAMES.dota2.id)!;
    expect((await webhook(event)).status).toBe(200);
    const reply = await capture(buyer, order.id);
    expect(reply.status).toBe(200);
    expect(subscriptionOf(reply, GAMES.dota2.id)!.expires_at).toBe(first.expires_at);
    expect((await rowsOf(shop, buyer.id)).map((r) => [r.type, r.amount, r.paid])).toEqual([["purchase", 0, 799]]);
  });
});

describe("what is never applied", () => {
  it("a webhook whose signature does not verify → 403, nothing credited, and PayPal is never asked", async () => {
    const buyer = await registerUser(shop);
    const order = await approvedOrder(buyer, { amount: 1200 });
    shop.paypal.captureAtProvider(order.id);
    const event = shop.paypal.webhookEvent("PAYMENT.CAPTURE.COMPLETED", order);
    const callsBefore = shop.paypal.requests.filter((r) => !r.path.startsWith("/v1/notifications/certs/")).length;
    shop.paypal.verification = "FAILURE";
    try {
      const reply = await webhook(event);
      expect(reply.status).toBe(403);
      expect(reply.body).toMatchObject({ status: false, code: "forbidden", message: "The webhook signature could not be verified." });
    } finally {
      shop.paypal.reset();
    }
    // Genuine headers over another body (the amount changed after PayPal signed it): refused.
    const genuine = shop.paypal.webhookHeaders(event);
    const altered = { ...event, resource: { ...event.resource, amount: { value: "9999.00", currency_code: "USD" } } };
    expect((await webhook(altered, genuine)).status).toBe(403);
    // Without PayPal's transmission headers the event is refused too.
    const bare = await webhook(event, {});
    expect(bare.status).toBe(403);
    // The signatures were checked here: no call to PayPal's API (verify-webhook-signature or other).
    expect(shop.paypal.requests.filter((r) => !r.path.startsWith("/v1/notifications/certs/")).length).toBe(callsBefore);
    expect(shop.paypal.requestsTo(/verify-webhook-signature/)).toHaveLength(0);
    expect(await rowsOf(shop, buyer.id)).toHaveLength(0);
    expect(await balanceOf(shop, buyer.id)).toBe(0);
    expect((await orderRow(order.id)).status).toBe("created");
    // Not JSON at all: 400, nothing else.
    const junk = await shop.request("/v2/web/payment/paypal/webhook", { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
    expect(junk.status).toBe(400);
    // The genuine event, verified, still applies (once).
    expect((await webhook(event)).status).toBe(200);
    expect(await balanceOf(shop, buyer.id)).toBe(1200);
  });

  it.each([
    ["amount", { amount: "1.00" }],
    ["currency", { currency: "EUR" }],
    ["reference_id", { referenceId: "999999" }],
  ])("a capture whose %s differs from the order → 409, nothing credited, the order not completed", async (_what, tamper) => {
    const buyer = await registerUser(shop);
    const order = await approvedOrder(buyer, { amount: 2000 });
    shop.paypal.tamperNextCapture(tamper);
    const reply = await capture(buyer, order.id);
    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({ status: false, code: "payment_mismatch", message: "The payment does not match the order and was not applied. Please contact support." });
    // The return page tries again, and PayPal's webhook arrives: still nothing.
    expect((await capture(buyer, order.id)).status).toBe(409);
    const hook = await webhook(shop.paypal.webhookEvent("PAYMENT.CAPTURE.COMPLETED", order));
    expect(hook.status).toBe(409);
    expect(hook.body.code).toBe("payment_mismatch");
    expect(await rowsOf(shop, buyer.id)).toHaveLength(0);
    expect(await balanceOf(shop, buyer.id)).toBe(0);
    const row = await orderRow(order.id);
    expect(row.status).not.toBe("completed");
    expect(row.captureId).toBeNull();
  });

  it("a verified webhook with another amount than the order's is not applied", async () => {
    const buyer = await registerUser(shop);
    const order = await approvedOrder(buyer, { amount: 2000 });
    shop.paypal.captureAtProvider(order.id);
    const event = shop.paypal.webhookEvent("PAYMENT.CAPTURE.COMPLETED", order);
    event.resource.amount = { value: "2000.00", currency_code: "USD" };
    expect((await webhook(event)).status).toBe(409);
    expect(await rowsOf(shop, buyer.id)).toHaveLength(0);
  });

  it("another user's order can be neither captured nor read", async () => {
    const owner = await registerUser(shop);
    const other = await registerUser(shop, { tag: "other" });
    const order = await approvedOrder(owner, { amount: 1000 });
    const stolen = await capture(other, order.id);
    expect(stolen.status).toBe(404);
    expect(stolen.body.code).toBe("not_found");
    expect(shop.paypal.requestsTo(CAPTURE).some((r) => r.path.includes(order.id))).toBe(false);
    expect((await capture(owner, order.id)).status).toBe(200);
    expect((await capture(other, order.id)).status).toBe(404);
    expect(await balanceOf(shop, other.id)).toBe(0);
    expect(await rowsOf(shop, other.id)).toHaveLength(0);
    expect(await balanceOf(shop, owner.id)).toBe(1000);
    expect((await capture(other, "NO-SUCH-ORDER")).status).toBe(404);
    expect((await capture(other, "bad id!")).status).toBe(400);
  });
});

describe("PayPal failing or silent", () => {
  it.each([
    ["answers 500", "fail"],
    ["does not answer", "hang"],
  ] as const)("creating an order while PayPal %s → 502 payment_failed; the retry with the same key reuses the PayPal-Request-Id and succeeds", async (_name, mode) => {
    const buyer = await registerUser(shop);
    const key = `order-${mode}-${buyer.id}`;
    if (mode === "fail") shop.paypal.failNext(1, CREATE);
    // A silent PayPal that created the order all the same: the retry must find that very order.
    else shop.paypal.hangNext(1, CREATE, { process: true });
    const ordersBefore = shop.paypal.orders.size;
    const started = Date.now();
    const failed = await createOrder(buyer, { amount: 1800 }, key);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ status: false, code: "payment_failed" });
    expect(failed.body.message).toBe("The payment service did not respond. Nothing was charged; please try again.");

    // The failed answer is not kept, but the key still belongs to that request.
    const other = await createOrder(buyer, { amount: 1900 }, key);
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: "idempotency_mismatch", message: "This Idempotency-Key was already used for a different request." });

    const retried = await createOrder(buyer, { amount: 1800 }, key);
    expect(retried.status, retried.text).toBe(200);
    const attempts = shop.paypal.requestsTo(CREATE).slice(-2);
    expect(attempts[0]!.answered).toBe(mode === "fail" ? 500 : "hung");
    expect(attempts[1]!.requestId).toBe(attempts[0]!.requestId);
    expect(shop.paypal.orders.size).toBe(ordersBefore + 1);
    // Once answered, the key replays the answer without asking PayPal again.
    const creates = shop.paypal.requestsTo(CREATE).length;
    const replay = await createOrder(buyer, { amount: 1800 }, key);
    expect(replay.body).toEqual(retried.body);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(shop.paypal.requestsTo(CREATE).length).toBe(creates);
    expect((await createOrder(buyer, { amount: 1900 }, key)).status).toBe(409);

    shop.paypal.approve(retried.body.order_id);
    const captured = await capture(buyer, retried.body.order_id);
    expect(captured.status, captured.text).toBe(200);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(1800);

    // Once the key is forgotten (after 24 h), reusing it for another amount never yields that order.
    await shop.services.db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.userId, buyer.id), eq(idempotencyKeys.key, key)));
    const reused = await createOrder(buyer, { amount: 1900 }, key);
    expect(reused.status).toBe(409);
    expect(reused.body.order_id).toBeUndefined();
  });

  it("parallel requests with one key while PayPal fails once: one 502, then one retry creates the order and the rest replay it", async () => {
    const buyer = await registerUser(shop);
    const key = `order-parallel-${buyer.id}`;
    const creates = shop.paypal.requestsTo(CREATE).length;
    shop.paypal.failNext(1, CREATE);
    const replies = await Promise.all(Array.from({ length: 5 }, () => createOrder(buyer, { amount: 2200 }, key)));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 502]);
    const ok = replies.filter((r) => r.status === 200);
    for (const reply of ok) expect(reply.body).toEqual(ok[0]!.body);
    const sent = shop.paypal.requestsTo(CREATE).slice(creates);
    expect(sent).toHaveLength(2);
    expect(new Set(sent.map((r) => r.requestId)).size).toBe(1);
    expect(shop.paypal.orders.get(ok[0]!.body.order_id)!.amount.value).toBe("22.00");
  });

  it("a capture PayPal answers with 500 → 502, nothing booked; the retry books it once", async () => {
    const buyer = await registerUser(shop);
    const order = await approvedOrder(buyer, { amount: 1100 });
    shop.paypal.failNext(1, CAPTURE);
    const failed = await capture(buyer, order.id);
    expect(failed.status).toBe(502);
    expect(failed.body.code).toBe("payment_failed");
    expect(await rowsOf(shop, buyer.id)).toHaveLength(0);
    const ok = await capture(buyer, order.id);
    expect(ok.status, ok.text).toBe(200);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(1100);
  });

  it("a capture PayPal performs but never answers → 502 within the timeout; the retry finds it captured and books it once", async () => {
    const buyer = await registerUser(shop);
    const order = await approvedOrder(buyer, { amount: 1300 });
    shop.paypal.hangNext(1, CAPTURE, { process: true });
    const started = Date.now();
    const failed = await capture(buyer, order.id);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(failed.status).toBe(502);
    expect(await rowsOf(shop, buyer.id)).toHaveLength(0);
    expect(order.status).toBe("COMPLETED");
    const ok = await capture(buyer, order.id);
    expect(ok.status, ok.text).toBe(200);
    expect(shop.paypal.requestsTo(CAPTURE).at(-1)!.answered).toBe(422); // ORDER_ALREADY_CAPTURED → read the order
    expect(shop.paypal.requestsTo(/^GET \/v2\/checkout\/orders\//).at(-1)!.path).toBe(`/v2/checkout/orders/${order.id}`);
    expect((await rowsOf(shop, buyer.id)).map((r) => r.reference)).toEqual([`paypal:capture:${order.capture!.id}`]);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(1300);
  });

  it("a webhook whose signing certificate PayPal cannot serve right now → 502 (PayPal retries), then applied once", async () => {
    const buyer = await registerUser(shop);
    const order = await approvedOrder(buyer, { amount: 1400 });
    shop.paypal.captureAtProvider(order.id);
    const event = shop.paypal.webhookEvent("PAYMENT.CAPTURE.COMPLETED", order);
    const CERT = /certs\/CERT-KIT-RETRY$/;
    shop.paypal.failNext(1, CERT);
    expect((await webhook(event, shop.paypal.webhookHeaders(event, { certId: "CERT-KIT-RETRY" }))).status).toBe(502);
    expect(await rowsOf(shop, buyer.id)).toHaveLength(0);
    expect((await webhook(event, shop.paypal.webhookHeaders(event, { certId: "CERT-KIT-RETRY" }))).status).toBe(200);
    expect((await webhook(event, shop.paypal.webhookHeaders(event, { certId: "CERT-KIT-RETRY" }))).status).toBe(200);
    // Fetched again after the failure, then kept.
    expect(shop.paypal.requestsTo(CERT).map((r) => r.answered)).toEqual([500, 200]);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(1400);
  });
});

describe("refunds", () => {
  it("a refunded top-up takes the amount back, once", async () => {
    const buyer = await registerUser(shop);
    const order = await approvedOrder(buyer, { amount: 3000 });
    expect((await capture(buyer, order.id)).body.balance).toBe(3000);
    shop.paypal.refund(order.id);
    const event = shop.paypal.webhookEvent("PAYMENT.CAPTURE.REFUNDED", order);
    expect((await webhook(event)).status).toBe(200);
    expect((await webhook(event)).status).toBe(200);
    const rows = await rowsOf(shop, buyer.id);
    expect(rows.map((r) => [r.type, r.amount])).toEqual([
      ["topup", 3000],
      ["refund", -3000],
    ]);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(0);
    expect((await orderRow(order.id)).status).toBe("refunded");
    const listed = await shop.call("GET", "/v2/web/user/transactions", { token: buyer.token });
    expect(listed.body.data[0]).toMatchObject({ type: "refund", amount: -3000 });
  });

  it("a refund larger than the balance left takes the balance, then the days the rest paid for", async () => {
    // (Before issue 7 it took what was left and let the 7 days stay. The exact rules, on a
    // controlled clock, are in commerce-refunds.)
    const buyer = await registerUser(shop);
    const order = await approvedOrder(buyer, { amount: 1000 });
    await capture(buyer, order.id);
    const bought = await shop.call("POST", "/v2/web/user/purchase", { token: buyer.token, json: { product_id: PRODUCTS.dota2.days7.id } });
    expect(bought.status, bought.text).toBe(200);
    expect(bought.body.balance).toBe(201);
    shop.paypal.refund(order.id);
    expect((await webhook(shop.paypal.webhookEvent("PAYMENT.CAPTURE.REFUNDED", order))).status).toBe(200);
    const rows = await rowsOf(shop, buyer.id);
    const purchaseRow = rows.find((r) => r.type === "purchase")!;
    expect(rows.find((r) => r.reference?.startsWith("paypal:refund:") && r.amount !== 0)).toMatchObject({ type: "refund", amount: -201, paid: -1000, balanceAfter: 0 });
    // The 7 days bought with the rest are taken back (the few milliseconds used since stay).
    expect(rows.find((r) => r.relatedId === purchaseRow.id)).toMatchObject({ type: "refund", amount: 0 });
    const end = new Date(subscriptionOf(await subscriptionsOf(shop, buyer.token), GAMES.dota2.id)!.expires_at).getTime();
    expect(end).toBeLessThanOrEqual(Date.now() + 1000);
    expect(await owedOf(shop, buyer.id)).toBeLessThanOrEqual(1);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(0);
  });

  it("a refunded product loses its days, once", async () => {
    const buyer = await registerUser(shop, { balance: 1999 });
    const base = await shop.call("POST", "/v2/web/user/purchase", { token: buyer.token, json: { product_id: PRODUCTS.dota2.days30.id } });
    const before = new Date(subscriptionOf(base, GAMES.dota2.id)!.expires_at).getTime();
    const order = await approvedOrder(buyer, { product_id: PRODUCTS.dota2.days7.id });
    const paid = await capture(buyer, order.id);
    expect(new Date(subscriptionOf(paid, GAMES.dota2.id)!.expires_at).getTime()).toBe(before + 7 * DAY_MS);
    shop.paypal.refund(order.id);
    const event = shop.paypal.webhookEvent("PAYMENT.CAPTURE.REFUNDED", order);
    expect((await webhook(event)).status).toBe(200);
    expect((await webhook(event)).status).toBe(200);
    const after = subscriptionOf(await subscriptionsOf(shop, buyer.token), GAMES.dota2.id)!;
    expect(new Date(after.expires_at).getTime()).toBe(before);
    const refunds = (await rowsOf(shop, buyer.id)).filter((r) => r.type === "refund");
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 0, paid: -799 });
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(0);
    const [row] = await shop.services.db
      .select()
      .from(paymentOrders)
      .where(and(eq(paymentOrders.providerOrderId, order.id), eq(paymentOrders.userId, buyer.id)));
    expect(row!.status).toBe("refunded");
  });
});
