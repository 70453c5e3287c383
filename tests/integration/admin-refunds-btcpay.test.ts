// Operators' refunds with two providers on (docs/product/money.md#btcpay-server): each payment is
// refunded through the provider that took it — a BTCPay one as a pull payment of its invoice,
// applied at once, a split order's balance part given back with a full refund — and the checkout
// lists both providers.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../../core/shared/clock.ts";
import { paymentOrders } from "../../db/schema/index.ts";
import { PRODUCTS, balanceOf, expectConsistentLedger, registerUser, rowsOf, topUp, useShop, type Reply } from "../kit/shop.ts";
import { makeOperator, payByPayPal, signInWithCode, type Operator } from "./admin-kit.ts";

const clock = manualClock(new Date("2026-06-01T00:00:00.000Z"));
const shop = useShop({ paypal: true, btcpay: true, clock, env: { BTCPAY_TIMEOUT_MS: "6000" } });
const product = PRODUCTS.dota2.days30;

let owner: Operator;

beforeAll(async () => {
  owner = await makeOperator(shop, clock, "owner");
});

async function steppedUp() {
  owner.token = await signInWithCode(shop, clock, owner, owner.secret);
  const reply = await shop.call("POST", "/v2/admin/step-up", { token: owner.token, json: { code: owner.code() } });
  expect(reply.status, reply.text).toBe(200);
}

function refund(paymentId: number, body: { amount?: number } = {}): Promise<Reply> {
  return shop.call("POST", `/v2/admin/payments/${paymentId}/refund`, { token: owner.token, json: { reason: "buyer asked", ...body } });
}

describe("refunds per provider", () => {
  it("lists both providers, PayPal first", async () => {
    const reply = await shop.call("GET", "/v2/web/payment/providers");
    expect(reply.body.providers).toEqual([
      { id: "paypal", name: "PayPal" },
      { id: "btcpay", name: "BTCPay Server" },
    ]);
  });

  it("a BTCPay split purchase refunded in full: a pull payment of the invoice, the days taken back, the balance part returned", async () => {
    await steppedUp();
    const buyer = await registerUser(shop);
    await topUp(shop, buyer.id, 500);
    const created = await shop.call("POST", "/v2/web/payment/btcpay/order", { token: buyer.token, json: { product_id: product.id, use_balance: true } });
    expect(created.status, created.text).toBe(200);
    const invoiceId = created.body.order_id as string;
    shop.btcpay.pay(invoiceId);
    expect((await shop.call("POST", "/v2/web/payment/btcpay/capture", { token: buyer.token, json: { order_id: invoiceId } })).status).toBe(200);
    expect(await balanceOf(shop, buyer.id)).toBe(0);
    const [order] = await shop.services.db.select().from(paymentOrders).where(eq(paymentOrders.providerOrderId, invoiceId));

    const reply = await refund(order!.id);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.payment).toMatchObject({ status: "refunded", refunded: product.price - 500 });
    const pulls = shop.btcpay.invoices.get(invoiceId)!.refunds;
    expect(pulls).toEqual([{ id: reply.body.refund.id, amount: ((product.price - 500) / 100).toFixed(2), currency: "USD" }]);
    expect(shop.paypal.requestsTo(/refund$/)).toHaveLength(0);
    // The balance part comes back with the full refund; the days are gone.
    expect(await balanceOf(shop, buyer.id)).toBe(500);
    expect((await rowsOf(shop, buyer.id)).map((r) => r.type)).toEqual(["topup", "reserve", "purchase", "refund", "release"]);
    await expectConsistentLedger(shop, buyer.id);
  });

  it("a PayPal payment beside it still goes through PayPal", async () => {
    await steppedUp();
    const buyer = await registerUser(shop);
    const { paymentId } = await payByPayPal(shop, buyer, { amount: 3000 });
    const pulls = [...shop.btcpay.invoices.values()].reduce((n, i) => n + i.refunds.length, 0);
    const reply = await refund(paymentId);
    expect(reply.status, reply.text).toBe(200);
    expect(shop.paypal.requestsTo(/^POST \/v2\/payments\/captures\/[^/]+\/refund$/)).toHaveLength(1);
    expect([...shop.btcpay.invoices.values()].reduce((n, i) => n + i.refunds.length, 0)).toBe(pulls);
    expect(await balanceOf(shop, buyer.id)).toBe(0);
  });
});
