// Payments by BTCPay Server through the HTTP API against the loopback Greenfield server
// (tests/kit/btcpay.ts): top-up, purchase and gift end to end; BTCPay-Sig checked; replays
// credited once; read-back mismatches never credited; expired, partial, late and overpaid
// invoices; split payments with their reservations, one balance under 20 parallel orders.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { paymentOrders, receipts } from "../../db/schema/index.ts";
import { PRODUCTS, balanceOf, expectConsistentLedger, registerUser, rowsOf, topUp, useShop, type Reply, type User } from "../kit/shop.ts";

// A generous timeout: 25 parallel read-backs on a busy machine must not look like a silent BTCPay.
const shop = useShop({ btcpay: true, env: { BTCPAY_TIMEOUT_MS: "6000" } });

const CREATE = /^POST \/api\/v1\/stores\/[^/]+\/invoices$/;
const product = PRODUCTS.dota2.days30;

async function order(user: User, body: { amount?: number; product_id?: number; use_balance?: boolean }, key?: string): Promise<Reply> {
  return shop.call("POST", "/v2/web/payment/btcpay/order", { token: user.token, json: body, headers: key ? { "idempotency-key": key } : {} });
}

async function capture(user: User, invoiceId: string): Promise<Reply> {
  return shop.call("POST", "/v2/web/payment/btcpay/capture", { token: user.token, json: { order_id: invoiceId } });
}

async function hook(type: Parameters<typeof shop.btcpay.webhook>[0], invoiceId: string, signature?: "good" | "bad" | "missing" | "other-secret"): Promise<Reply> {
  const { body, headers } = shop.btcpay.webhook(type, invoiceId, { signature });
  return shop.call("POST", "/v2/web/payment/btcpay/webhook", { raw: body, headers });
}

async function orderRow(invoiceId: string) {
  const [row] = await shop.services.db.select().from(paymentOrders).where(eq(paymentOrders.providerOrderId, invoiceId));
  return row!;
}

async function receiptsOf(userId: number) {
  return shop.services.db.select().from(receipts).where(eq(receipts.userId, userId));
}

/** Creates an order (200 expected); its invoice id. */
async function invoiceFor(user: User, body: { amount?: number; product_id?: number; use_balance?: boolean }): Promise<string> {
  const reply = await order(user, body);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.order_id as string;
}

describe("BTCPay end to end", () => {
  // Where the development conveniences are (this loopback shop), the demo stands in for PayPal beside
  // BTCPay (docs/decisions/0041-demo-beside-btcpay.md); a public shop with BTCPay alone offers BTCPay alone.
  it("lists the providers that are on: the demo under PayPal's id (no PayPal credentials, a loopback shop), then BTCPay", async () => {
    const reply = await shop.call("GET", "/v2/web/payment/providers");
    expect(reply.status).toBe(200);
    expect(reply.body.providers).toEqual([
      { id: "paypal", name: "Demo" },
      { id: "btcpay", name: "BTCPay Server" },
    ]);
    const user = await registerUser(shop);
    const demo = await shop.call("POST", "/v2/web/payment/paypal/order", { token: user.token, json: { amount: 1000 } });
    expect(demo.status, demo.text).toBe(200);
    expect(demo.body.approve_url).toMatch(/\/payment\/demo\?order=DEMO-/);
    expect(shop.btcpay.requestsTo(CREATE)).toHaveLength(0);
  });

  it("tops up: invoice with our order id, checkout link, settled webhook booked once, return page the same, receipt naming BTCPay", async () => {
    const user = await registerUser(shop);
    const created = await order(user, { amount: 2500 });
    expect(created.status, created.text).toBe(200);
    const invoiceId = created.body.order_id as string;
    expect(created.body.approve_url).toBe(`${shop.btcpay.url}/i/${invoiceId}`);
    expect(created.body.amount).toBe(2500);
    const sent = shop.btcpay.requestsTo(CREATE).at(-1)!;
    const body = sent.body as { amount: string; currency: string; metadata: { orderId: string }; checkout: { redirectURL: string } };
    expect(body).toMatchObject({ amount: "25.00", currency: "USD", metadata: { orderId: String((await orderRow(invoiceId)).id) } });
    expect(body.checkout.redirectURL).toMatch(/\/payment\/btcpay\?invoice=\{InvoiceId\}$/);
    expect(sent.headers.authorization).toBe(`token ${shop.btcpay.apiKey}`);

    const early = await capture(user, invoiceId);
    expect(early.status).toBe(409);
    expect(early.body.code).toBe("payment_pending");

    shop.btcpay.pay(invoiceId);
    const delivered = await hook("InvoiceSettled", invoiceId);
    expect(delivered.status, delivered.text).toBe(200);
    expect(await balanceOf(shop, user.id)).toBe(2500);
    const back = await capture(user, invoiceId);
    expect(back.status, back.text).toBe(200);
    expect(back.body.balance).toBe(2500);
    expect(back.body.transaction).toMatchObject({ type: "topup", amount: 2500, source: "btcpay" });
    const [receipt, ...more] = await receiptsOf(user.id);
    expect(more).toHaveLength(0);
    expect(receipt).toMatchObject({ kind: "topup", method: "btcpay", amount: 2500, orderRef: invoiceId });
    await expectConsistentLedger(shop, user.id);
  });

  it("buys a product: the days are granted once, and a gift is then given from the balance topped up by BTCPay", async () => {
    const user = await registerUser(shop);
    const invoiceId = await invoiceFor(user, { product_id: product.id });
    shop.btcpay.pay(invoiceId);
    const paid = await capture(user, invoiceId);
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.transaction).toMatchObject({ type: "purchase", amount: 0, paid: product.price, source: "btcpay" });
    const sub = (paid.body.subscriptions as { cheat_id: number; expires_at: string }[]).find((s) => s.cheat_id === product.cheatId)!;
    expect(Date.parse(sub.expires_at) - shop.clock.now().getTime()).toBe(product.days * 86_400_000);
    expect((await hook("InvoiceSettled", invoiceId)).status).toBe(200);
    expect((await receiptsOf(user.id)).map((r) => r.method)).toEqual(["btcpay"]);

    const topup = await invoiceFor(user, { amount: product.price });
    shop.btcpay.pay(topup);
    expect((await hook("InvoiceSettled", topup)).status).toBe(200);
    const friend = await registerUser(shop);
    const gift = await shop.call("POST", "/v2/web/user/gift", { token: user.token, json: { product_id: product.id, recipient: friend.email } });
    expect(gift.status, gift.text).toBe(200);
    expect(await balanceOf(shop, user.id)).toBe(0);
    await expectConsistentLedger(shop, user.id);
  });
});

describe("webhooks", () => {
  it("a bad, missing or foreign signature credits nothing and costs no call to BTCPay; a body that is not JSON is 400", async () => {
    const user = await registerUser(shop);
    const invoiceId = await invoiceFor(user, { amount: 1000 });
    shop.btcpay.pay(invoiceId);
    const reads = shop.btcpay.requests.length;
    for (const signature of ["bad", "missing", "other-secret"] as const) {
      const reply = await hook("InvoiceSettled", invoiceId, signature);
      expect(reply.status).toBe(403);
    }
    const junk = await shop.call("POST", "/v2/web/payment/btcpay/webhook", { raw: "not json", headers: { "btcpay-sig": "sha256=00" } });
    expect(junk.status).toBe(400);
    expect(shop.btcpay.requests.length).toBe(reads);
    expect(await balanceOf(shop, user.id)).toBe(0);
    expect(await rowsOf(shop, user.id)).toHaveLength(0);
  });

  it("replayed 25 times in parallel with the return page: credited once, one receipt", async () => {
    const user = await registerUser(shop);
    const invoiceId = await invoiceFor(user, { product_id: product.id });
    shop.btcpay.pay(invoiceId);
    const replies = await Promise.all(Array.from({ length: 25 }, (_, i) => (i % 5 === 0 ? capture(user, invoiceId) : hook("InvoiceSettled", invoiceId))));
    for (const reply of replies) expect(reply.status, reply.text).toBe(200);
    const rows = await rowsOf(shop, user.id);
    expect(rows.filter((r) => r.type === "purchase")).toHaveLength(1);
    expect(await receiptsOf(user.id)).toHaveLength(1);
    const subs = await shop.call("GET", "/v2/web/user/subscriptions", { token: user.token });
    const sub = (subs.body.subscriptions as { cheat_id: number; expires_at: string }[]).find((s) => s.cheat_id === product.cheatId)!;
    expect(Date.parse(sub.expires_at) - shop.clock.now().getTime()).toBe(product.days * 86_400_000);
  });

  it.each([
    ["amount", { amount: "0.01" }],
    ["currency", { currency: "EUR" }],
    ["orderId", { orderId: "999999" }],
  ])("an invoice read back with another %s is never credited", async (_what, tamper) => {
    const user = await registerUser(shop);
    const invoiceId = await invoiceFor(user, { amount: 1500 });
    shop.btcpay.pay(invoiceId);
    shop.btcpay.tamper(invoiceId, tamper);
    const reply = await hook("InvoiceSettled", invoiceId);
    expect(reply.status).toBe(409);
    expect(reply.body.code).toBe("payment_mismatch");
    expect((await capture(user, invoiceId)).body.code).toBe("payment_mismatch");
    expect(await rowsOf(shop, user.id)).toHaveLength(0);
    expect((await orderRow(invoiceId)).status).toBe("created");
  });

  it("BTCPay failing or silent: the webhook answers 5xx (BTCPay delivers it again), the create call 502 with nothing reserved", async () => {
    const user = await registerUser(shop);
    const invoiceId = await invoiceFor(user, { amount: 1200 });
    shop.btcpay.pay(invoiceId);
    shop.btcpay.failNext(1, /^GET /);
    expect((await hook("InvoiceSettled", invoiceId)).status).toBe(502);
    shop.btcpay.hangNext(1, /^GET /);
    expect((await hook("InvoiceSettled", invoiceId)).status).toBe(502);
    expect(await balanceOf(shop, user.id)).toBe(0);
    expect((await hook("InvoiceSettled", invoiceId)).status).toBe(200);
    expect(await balanceOf(shop, user.id)).toBe(1200);
  });
});

describe("ended, partial, late and overpaid invoices", () => {
  it("an expired invoice cancels the order and releases its reservation; the return page says so (409 payment_failed)", async () => {
    const user = await registerUser(shop);
    await topUp(shop, user.id, 500);
    const created = await order(user, { product_id: product.id, use_balance: true });
    expect(created.status, created.text).toBe(200);
    expect(created.body.amount).toBe(product.price - 500);
    expect(await balanceOf(shop, user.id)).toBe(0);
    const invoiceId = created.body.order_id as string;
    shop.btcpay.expire(invoiceId);
    expect((await hook("InvoiceExpired", invoiceId)).status).toBe(200);
    expect((await orderRow(invoiceId)).status).toBe("failed");
    expect(await balanceOf(shop, user.id)).toBe(500);
    // Again, and on the return page: released once.
    expect((await hook("InvoiceExpired", invoiceId)).status).toBe(200);
    const back = await capture(user, invoiceId);
    expect(back.status).toBe(409);
    expect(back.body.code).toBe("payment_failed");
    expect(await balanceOf(shop, user.id)).toBe(500);
    expect((await rowsOf(shop, user.id)).map((r) => r.type)).toEqual(["topup", "reserve", "release"]);
    await expectConsistentLedger(shop, user.id);
  });

  it("a partial payment: the buyer is told; when the invoice expires, what was paid goes to the balance, once", async () => {
    const user = await registerUser(shop);
    const invoiceId = await invoiceFor(user, { product_id: product.id });
    shop.btcpay.pay(invoiceId, 400);
    const pending = await capture(user, invoiceId);
    expect(pending.status).toBe(409);
    expect(pending.body).toMatchObject({ code: "payment_pending", message: expect.stringContaining("Only part of the amount") });
    expect((await hook("InvoiceReceivedPayment", invoiceId)).status).toBe(200);
    expect(await balanceOf(shop, user.id)).toBe(0);
    shop.btcpay.expire(invoiceId);
    const replies = await Promise.all(Array.from({ length: 5 }, () => hook("InvoiceExpired", invoiceId)));
    for (const reply of replies) expect(reply.status).toBe(200);
    expect(await balanceOf(shop, user.id)).toBe(400);
    expect((await orderRow(invoiceId)).status).toBe("failed");
    expect((await receiptsOf(user.id)).map((r) => [r.kind, r.amount])).toEqual([["topup", 400]]);
    await expectConsistentLedger(shop, user.id);
  });

  it("paid after expiry: the whole payment is credited to the balance, no days", async () => {
    const user = await registerUser(shop);
    const invoiceId = await invoiceFor(user, { product_id: product.id });
    shop.btcpay.expire(invoiceId);
    expect((await hook("InvoiceExpired", invoiceId)).status).toBe(200);
    shop.btcpay.pay(invoiceId);
    expect((await hook("InvoiceReceivedPayment", invoiceId)).status).toBe(200);
    expect((await hook("InvoiceExpired", invoiceId)).status).toBe(200);
    expect(await balanceOf(shop, user.id)).toBe(product.price);
    expect((await rowsOf(shop, user.id)).filter((r) => r.type === "purchase")).toHaveLength(0);
  });

  it("overpaid: the product is booked and the part above its price goes to the balance", async () => {
    const user = await registerUser(shop);
    const invoiceId = await invoiceFor(user, { product_id: product.id });
    shop.btcpay.pay(invoiceId, product.price + 300);
    for (let i = 0; i < 3; i++) expect((await hook("InvoiceSettled", invoiceId)).status).toBe(200);
    expect(await balanceOf(shop, user.id)).toBe(300);
    expect((await rowsOf(shop, user.id)).map((r) => r.type)).toEqual(["purchase", "topup"]);
  });
});

describe("split payments", () => {
  it("the balance pays what it can, reserved at once; paid, the purchase shows the whole price and its receipt both methods", async () => {
    const user = await registerUser(shop);
    await topUp(shop, user.id, 700);
    const created = await order(user, { product_id: product.id, use_balance: true });
    expect(created.body.amount).toBe(product.price - 700);
    const invoiceId = created.body.order_id as string;
    expect(shop.btcpay.invoices.get(invoiceId)!.amount).toBe(((product.price - 700) / 100).toFixed(2));
    shop.btcpay.pay(invoiceId);
    const paid = await capture(user, invoiceId);
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.balance).toBe(0);
    expect(paid.body.transaction).toMatchObject({ type: "purchase", paid: product.price });
    expect((await receiptsOf(user.id)).map((r) => [r.method, r.amount])).toEqual([["balance_btcpay", product.price]]);
    // Expiring afterwards changes nothing: never released after it was paid.
    shop.btcpay.expire(invoiceId);
    expect((await hook("InvoiceExpired", invoiceId)).status).toBe(200);
    expect(await balanceOf(shop, user.id)).toBe(0);
    await expectConsistentLedger(shop, user.id);
  });

  it("a balance that covers the price completes at once from the balance, with no invoice", async () => {
    const user = await registerUser(shop);
    await topUp(shop, user.id, product.price + 1);
    const invoices = shop.btcpay.invoices.size;
    const reply = await order(user, { product_id: product.id, use_balance: true });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.approve_url).toBeUndefined();
    expect(reply.body.balance).toBe(1);
    expect(shop.btcpay.invoices.size).toBe(invoices);
  });

  it("the provider failing: the reservation goes back at once, and a retry with the same key reserves anew", async () => {
    const user = await registerUser(shop);
    await topUp(shop, user.id, 600);
    shop.btcpay.failNext(1, CREATE);
    const failed = await order(user, { product_id: product.id, use_balance: true }, "split-retry");
    expect(failed.status).toBe(502);
    expect(await balanceOf(shop, user.id)).toBe(600);
    const retried = await order(user, { product_id: product.id, use_balance: true }, "split-retry");
    expect(retried.status, retried.text).toBe(200);
    expect(await balanceOf(shop, user.id)).toBe(0);
    shop.btcpay.invalidate(retried.body.order_id);
    expect((await hook("InvoiceInvalid", retried.body.order_id)).status).toBe(200);
    expect(await balanceOf(shop, user.id)).toBe(600);
    await expectConsistentLedger(shop, user.id);
  });

  it("20 parallel split orders on one balance: reservations never exceed it, each charges price minus reservation, expiring all gives it back", async () => {
    const user = await registerUser(shop);
    const start = Math.floor(product.price * 2.5);
    await topUp(shop, user.id, start);
    const replies = await Promise.all(Array.from({ length: 20 }, () => order(user, { product_id: product.id, use_balance: true })));
    const orders = [];
    for (const reply of replies) {
      expect(reply.status, reply.text).toBe(200);
      // Two are paid from the balance at once; the rest are provider orders.
      if (reply.body.order_id) orders.push(await orderRow(reply.body.order_id));
    }
    const purchases = replies.filter((r) => !r.body.order_id).length;
    const reserved = orders.reduce((sum, o) => sum + o.reserved, 0);
    expect(purchases * product.price + reserved).toBe(start);
    for (const o of orders) expect(o.amount + o.reserved).toBe(product.price);
    expect(await balanceOf(shop, user.id)).toBe(0);
    await Promise.all(
      orders.map(async (o) => {
        shop.btcpay.expire(o.providerOrderId!);
        expect((await hook("InvoiceExpired", o.providerOrderId!)).status).toBe(200);
      }),
    );
    expect(await balanceOf(shop, user.id)).toBe(start - purchases * product.price);
    await expectConsistentLedger(shop, user.id);
  });
});
