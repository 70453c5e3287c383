// Receipts (docs/product/money.md#receipts) through the loopback PayPal and SMTP servers: every
// payment by PayPal (a top-up, a product), every purchase from the balance and every gift sends
// exactly one receipt to the buyer, in the buyer's language — the webhook, the return page and the
// capture call racing included; a mail that did not go is sent by the job, once; the profile lists
// the same receipts. The demo provider's payments: receipts-demo.test.ts.
import { describe, expect, it } from "vitest";
import { formatMoney } from "../../i18n/format.ts";
import type { KitOrder } from "../kit/paypal.ts";
import { runJobsOnce } from "../../server/jobs.ts";
import { GAMES, PRODUCTS, registerUser, useShop, type Reply, type User } from "../kit/shop.ts";
import { oneReceipt, receiptMails, receiptRows } from "./receipts-kit.ts";

const shop = useShop({ paypal: true, smtp: true, pages: true });

async function createOrder(user: User, body: { amount?: number; product_id?: number }): Promise<KitOrder> {
  const reply = await shop.call("POST", "/v2/web/payment/paypal/order", { token: user.token, json: body });
  expect(reply.status, reply.text).toBe(200);
  shop.paypal.approve(reply.body.order_id);
  return shop.paypal.orders.get(reply.body.order_id)!;
}

const capture = (user: User, orderId: string): Promise<Reply> => shop.call("POST", "/v2/web/payment/paypal/capture", { token: user.token, json: { order_id: orderId } });
const webhook = (event: unknown): Promise<Reply> => shop.call("POST", "/v2/web/payment/paypal/webhook", { json: event, headers: shop.paypal.webhookHeaders(event) });

describe("a receipt for every payment through PayPal", () => {
  it("a top-up with the capture call and two webhooks racing: one receipt, in the buyer's language", async () => {
    const buyer = await registerUser(shop, { lang: "pt" });
    const order = await createOrder(buyer, { amount: 2500 });
    // PayPal captured it (its answer to the shop got lost); the return and two deliveries of the event race.
    shop.paypal.captureAtProvider(order.id);
    const event = shop.paypal.webhookEvent("PAYMENT.CAPTURE.COMPLETED", order);
    const replies = await Promise.all([capture(buyer, order.id), webhook(event), webhook(event), capture(buyer, order.id)]);
    for (const reply of replies) expect(reply.status, reply.text).toBe(200);
    const { mail, row } = await oneReceipt(shop, buyer, "pt");
    expect(row).toMatchObject({ kind: "topup", method: "paypal", amount: 2500, orderRef: order.id });
    const t = shop.services.catalogs.t("pt");
    expect(mail.text).toContain(`${t("mail.receipt.order")}: ${order.id}`);
    expect(mail.text).toContain(`${t("mail.receipt.item")}: ${t("receipt.item.topup")} — ${formatMoney(2500, "USD", "pt")}`);
    expect(mail.text).toContain(`${t("mail.receipt.method")}: PayPal`);
    expect(mail.text).toContain(`${t("mail.receipt.total")}: ${formatMoney(2500, "USD", "pt")}`);
    expect(mail.text).toContain(t("mail.receipt.support", { email: shop.services.settings.SUPPORT_EMAIL }));
  });

  it("a product with the webhook first and the return page after: one receipt, in the buyer's language", async () => {
    const buyer = await registerUser(shop, { lang: "hi" });
    const order = await createOrder(buyer, { product_id: PRODUCTS.dota2.days7.id });
    shop.paypal.captureAtProvider(order.id);
    expect((await webhook(shop.paypal.webhookEvent("PAYMENT.CAPTURE.COMPLETED", order))).status).toBe(200);
    const page = await shop.request(`/hi/payment/paypal?token=${order.id}`, { headers: { cookie: `access_token=${buyer.token}` } });
    expect(page.status).toBe(200);
    // A reload of the return page shows the same result and mails nothing more.
    expect((await shop.request(`/hi/payment/paypal?token=${order.id}`, { headers: { cookie: `access_token=${buyer.token}` } })).status).toBe(200);
    const { mail, row } = await oneReceipt(shop, buyer, "hi");
    expect(row).toMatchObject({ kind: "purchase", method: "paypal", amount: PRODUCTS.dota2.days7.price });
    const t = shop.services.catalogs.t("hi");
    const item = t("product.name", { game: "Dota 2", days: t("plural.days", { count: 7 }) });
    expect(mail.text).toContain(`${t("mail.receipt.item")}: ${item} — ${formatMoney(PRODUCTS.dota2.days7.price, "USD", "hi")}`);
    expect(mail.html).toContain('lang="hi"');
  });

  it("a payment the provider never completed sends none", async () => {
    const buyer = await registerUser(shop, { lang: "en" });
    const created = await shop.call("POST", "/v2/web/payment/paypal/order", { token: buyer.token, json: { amount: 1500 } });
    expect(created.status).toBe(200);
    expect((await capture(buyer, created.body.order_id)).status).toBe(409); // not approved
    expect(await receiptRows(shop, buyer.id)).toHaveLength(0);
    expect(receiptMails(shop, buyer)).toHaveLength(0);
  });
});

describe("a receipt for every purchase and gift from the balance", () => {
  it("a purchase: one receipt in the buyer's language, none more for the same Idempotency-Key replayed", async () => {
    const buyer = await registerUser(shop, { lang: "ru", balance: 10_000 });
    const headers = { "idempotency-key": `receipt-${buyer.id}` };
    const first = await shop.call("POST", "/v2/web/user/purchase", { token: buyer.token, json: { product_id: PRODUCTS.minecraft.days30.id }, headers });
    expect(first.status, first.text).toBe(200);
    const again = await shop.call("POST", "/v2/web/user/purchase", { token: buyer.token, json: { product_id: PRODUCTS.minecraft.days30.id }, headers });
    expect(again.body).toEqual(first.body);
    const { mail, row } = await oneReceipt(shop, buyer, "ru");
    expect(row).toMatchObject({ kind: "purchase", method: "balance", amount: PRODUCTS.minecraft.days30.price, orderRef: null });
    const t = shop.services.catalogs.t("ru");
    expect(mail.text).toContain(`${t("mail.receipt.method")}: ${t("receipt.method.balance")}`);
    expect(mail.text).not.toContain(`${t("mail.receipt.order")}:`);
  });

  it("a refused purchase (not enough balance) sends none", async () => {
    const buyer = await registerUser(shop, { lang: "en", balance: 100 });
    expect((await shop.call("POST", "/v2/web/user/purchase", { token: buyer.token, json: { product_id: PRODUCTS.cs2.days90.id } })).status).toBe(409);
    expect(await receiptRows(shop, buyer.id)).toHaveLength(0);
  });

  it("a gift: the giver gets the receipt in the giver's language, the recipient none", async () => {
    const giver = await registerUser(shop, { lang: "es", balance: 10_000 });
    const friend = await registerUser(shop, { lang: "id" });
    const gift = await shop.call("POST", "/v2/web/user/gift", { token: giver.token, json: { product_id: PRODUCTS.cs2.days7.id, recipient: friend.username } });
    expect(gift.status, gift.text).toBe(200);
    const { mail, row } = await oneReceipt(shop, giver, "es");
    expect(row).toMatchObject({ kind: "gift", method: "balance", amount: PRODUCTS.cs2.days7.price });
    const t = shop.services.catalogs.t("es");
    expect(mail.text).toContain(t("receipt.item.gift", { item: t("product.name", { game: shop.services.catalog.gameName(GAMES.cs2.id), days: t("plural.days", { count: 7 }) }) }));
    expect(await receiptRows(shop, friend.id)).toHaveLength(0);
    expect(receiptMails(shop, friend)).toHaveLength(0);
  });

  it("a mail that never went (the process stopped after the commit) is sent by the job, once", async () => {
    const buyer = await registerUser(shop, { lang: "cn", balance: 10_000 });
    // The purchase booked and its receipt written, the process gone before the mail: as the core
    // leaves it when nothing calls mailSoon.
    const { services } = shop;
    await services.db.transaction(async (tx) => {
      const { transaction } = await services.ledger.post(tx, { userId: buyer.id, type: "purchase", amount: -999, paid: 999, source: "balance" }, new Date());
      await services.receipts.issue(tx, { userId: buyer.id, kind: "purchase", method: "balance", transaction, amount: 999 });
    });
    expect((await receiptRows(shop, buyer.id))[0]!.mailedAt).toBeNull();
    expect((await runJobsOnce(services)).receipted).toBe(1);
    expect((await runJobsOnce(services)).receipted).toBe(0);
    await oneReceipt(shop, buyer, "cn");
  });
});

describe("the receipts in the profile", () => {
  it("lists each receipt on the balance page: number, item, method and amount", async () => {
    const buyer = await registerUser(shop, { lang: "en", balance: 10_000 });
    expect((await shop.call("POST", "/v2/web/user/purchase", { token: buyer.token, json: { product_id: PRODUCTS.dota2.days30.id } })).status).toBe(200);
    const order = await createOrder(buyer, { amount: 1200 });
    expect((await capture(buyer, order.id)).status).toBe(200);
    const rows = await receiptRows(shop, buyer.id);
    expect(rows).toHaveLength(2);
    const html = await (await shop.request("/en/dota2/profile/balance", { headers: { cookie: `access_token=${buyer.token}` } })).text();
    const [purchase, topup] = rows.map((r) => String(r.id).padStart(6, "0"));
    const receiptRow = (number: string) => new RegExp(`<tr data-receipt="${number}">([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? "";
    expect(receiptRow(purchase!)).toContain("Dota 2 · 30 days");
    expect(receiptRow(purchase!)).toContain("Balance");
    expect(receiptRow(purchase!)).toContain(formatMoney(PRODUCTS.dota2.days30.price, "USD", "en"));
    expect(receiptRow(topup!)).toContain("Balance top-up");
    expect(receiptRow(topup!)).toContain("PayPal");
    // Newest first.
    expect(html.indexOf(`data-receipt="${topup}"`)).toBeLessThan(html.indexOf(`data-receipt="${purchase}"`));
  });
});
