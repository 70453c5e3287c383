// The shopping area and its prices (issue 7, point 11): a country header nobody vouches for picks
// nothing, and an order keeps the area, price and product it was made with, whatever the catalogue
// says by the time PayPal reports the capture.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../core/shared/clock.ts";
import { paymentOrders, products, shoppingAreaCountries } from "../../db/schema/index.ts";
import { GAMES, PRODUCTS, registerUser, rowsOf, subscriptionOf, topUp, useShop, type Shop, type User } from "../kit/shop.ts";

const DAY_MS = 86_400_000;
/** No proxy in front: the client's own CF-IPCountry must not count. */
const open = useShop({ paypal: true, clock: systemClock, env: { TRUST_PROXY: "0" } });
/** Behind a proxy that writes the header. */
const proxied = useShop({ paypal: true, clock: systemClock });

const RU = { "CF-IPCountry": "RU" };

function order(shop: Shop, user: User, productId: number, headers: Record<string, string> = {}) {
  return shop.call("POST", "/v2/web/payment/paypal/order", { token: user.token, json: { product_id: productId }, headers });
}

describe("a country header without a trusted proxy", () => {
  it("leaves every request in the global area: data, purchases and orders", async () => {
    const data = await open.call("GET", "/v2/web/frontend/data", { headers: RU });
    expect(data.body.shopping_area).toBe("global");
    expect(data.body.products.find((p: { cheat_id: number; params: { days: number } }) => p.cheat_id === GAMES.dota2.id && p.params.days === 30).price).toBe(1999);
    const buyer = await registerUser(open);
    await topUp(open, buyer.id, 5000);
    // dota2's CIS price: out of reach, whatever the client claims.
    expect((await open.call("POST", "/v2/web/user/purchase", { token: buyer.token, json: { product_id: PRODUCTS.dota2Cis.days1.id }, headers: RU })).status).toBe(404);
    expect((await order(open, buyer, PRODUCTS.dota2Cis.days1.id, RU)).status).toBe(404);
    const global = await order(open, buyer, PRODUCTS.dota2.days30.id, RU);
    expect(global.status, global.text).toBe(200);
    expect(open.paypal.orders.get(global.body.order_id)!.amount.value).toBe("19.99");
  });

  it("counts behind a trusted proxy", async () => {
    const data = await proxied.call("GET", "/v2/web/frontend/data", { headers: RU });
    expect(data.body.shopping_area).toBe("cis");
  });
});

describe("an order made in an area", () => {
  it("is booked with its own price and product after the catalogue and the areas changed", async () => {
    const buyer = await registerUser(proxied);
    const created = await order(proxied, buyer, PRODUCTS.dota2Cis.days30.id, RU); // dota2 30 days at the CIS price
    expect(created.status, created.text).toBe(200);
    const [row] = await proxied.services.db.select().from(paymentOrders).where(eq(paymentOrders.providerOrderId, created.body.order_id));
    expect(row).toMatchObject({ shoppingArea: "cis", amount: 1499, product: { id: PRODUCTS.dota2Cis.days30.id, cheat_id: GAMES.dota2.id, params: { days: 30 }, price: 1499 } });

    // Before the buyer comes back, an operator reprices and lengthens the product, and Russia
    // leaves the CIS area.
    await proxied.services.db.update(products).set({ price: 2999, days: 60, title: "Dota 2 · 60d" }).where(eq(products.id, PRODUCTS.dota2Cis.days30.id));
    await proxied.services.db.delete(shoppingAreaCountries).where(eq(shoppingAreaCountries.country, "RU"));
    await proxied.services.catalog.reload();

    proxied.paypal.approve(created.body.order_id);
    const before = Date.now();
    const captured = await proxied.call("POST", "/v2/web/payment/paypal/capture", { token: buyer.token, json: { order_id: created.body.order_id } });
    expect(captured.status, captured.text).toBe(200);
    expect(captured.body.transaction).toMatchObject({ type: "purchase", paid: 1499, product_id: PRODUCTS.dota2Cis.days30.id });
    expect(captured.body.transaction.product).toMatchObject({ price: 1499, params: { days: 30 }, title: "Dota 2 · 30d" });
    const expires = new Date(subscriptionOf(captured, GAMES.dota2.id)!.expires_at).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 30 * DAY_MS - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS + 1000);
    const rows = await rowsOf(proxied, buyer.id);
    expect(rows.map((r) => [r.type, r.paid, r.products[0]?.params.days])).toEqual([["purchase", 1499, 30]]);
  });
});
