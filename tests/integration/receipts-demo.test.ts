// Receipts of the built-in demo provider's payments (docs/product/money.md#receipts): the same
// exactly-once rule as PayPal's — the return page and capture calls racing send one receipt, in the
// buyer's language, naming the demo payment.
import { describe, expect, it } from "vitest";
import { formatMoney } from "../../i18n/format.ts";
import { PRODUCTS, registerUser, useShop, type User } from "../kit/shop.ts";
import { oneReceipt } from "./receipts-kit.ts";

const shop = useShop({ smtp: true, pages: true });

async function approvedDemoOrder(user: User, body: { amount?: number; product_id?: number }): Promise<string> {
  const created = await shop.call("POST", "/v2/web/payment/paypal/order", { token: user.token, json: body });
  expect(created.status, created.text).toBe(200);
  const orderId = created.body.order_id as string;
  expect(await shop.services.demoProvider!.approve(orderId)).toBe(true);
  return orderId;
}

describe("receipts of demo payments", () => {
  it("a top-up, the return page and two capture calls racing: one receipt, in the buyer's language", async () => {
    const buyer = await registerUser(shop, { lang: "cn" });
    const orderId = await approvedDemoOrder(buyer, { amount: 3000 });
    const capture = () => shop.call("POST", "/v2/web/payment/paypal/capture", { token: buyer.token, json: { order_id: orderId } });
    const page = () => shop.request(`/cn/payment/paypal?token=${orderId}`, { headers: { cookie: `access_token=${buyer.token}` } });
    const [a, b, c] = await Promise.all([capture(), page(), capture()]);
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    const { mail, row } = await oneReceipt(shop, buyer, "cn");
    expect(row).toMatchObject({ kind: "topup", method: "demo", amount: 3000, orderRef: orderId });
    const t = shop.services.catalogs.t("cn");
    expect(mail.text).toContain(`${t("mail.receipt.method")}: ${t("receipt.method.demo")}`);
    expect(mail.text).toContain(`${t("mail.receipt.total")}: ${formatMoney(3000, "USD", "cn")}`);
  });

  it("a product bought with the demo provider: one receipt naming it", async () => {
    const buyer = await registerUser(shop, { lang: "id" });
    const orderId = await approvedDemoOrder(buyer, { product_id: PRODUCTS.minecraft.days90.id });
    expect((await shop.request(`/id/payment/paypal?token=${orderId}`, { headers: { cookie: `access_token=${buyer.token}` } })).status).toBe(200);
    expect((await shop.call("POST", "/v2/web/payment/paypal/capture", { token: buyer.token, json: { order_id: orderId } })).status).toBe(200);
    const { mail, row } = await oneReceipt(shop, buyer, "id");
    expect(row).toMatchObject({ kind: "purchase", method: "demo", amount: PRODUCTS.minecraft.days90.price });
    const t = shop.services.catalogs.t("id");
    expect(mail.text).toContain(t("product.name", { game: "Minecraft", days: t("plural.days", { count: 90 }) }));
  });
});
