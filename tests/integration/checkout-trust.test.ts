// What a buyer knows before paying and where they turn when a payment does not go through (issue 9
// point 7): the order on the sign-in and registration pages when they came from "Buy"; on the
// checkout the pass's new end and the balance after paying from it, paying from a short balance
// not offered, the policies linked; a cancelled payment offered again, an unknown one pointing
// to support.
import { describe, expect, it } from "vitest";
import { formatDate, formatMoney } from "../../i18n/format.ts";
import { GAMES, PRODUCTS, registerUser, topUp, useShop, type User } from "../kit/shop.ts";
import { pageText } from "../kit/html.ts";
import type { Locale } from "../../i18n/locales.ts";

const shop = useShop({ pages: true });
const t = (locale: Locale = "en") => shop.services.catalogs.t(locale);
const DAY = 86_400_000;

async function open(path: string, user?: User) {
  const res = await shop.request(path, { headers: user ? { cookie: `access_token=${user.token}` } : {}, redirect: "manual" });
  const html = await res.text();
  return { status: res.status, location: res.headers.get("location"), html, text: pageText(html) };
}

/** The `<button>` of a form's intent, as rendered. */
const button = (html: string, intent: string) => new RegExp(`<button[^>]*value="${intent}"[^>]*>`).exec(html)?.[0] ?? "";

describe("signing in from Buy", () => {
  it("shows the order on the sign-in and registration pages, in the page's language and area's price", async () => {
    const product = PRODUCTS.cs2.days30;
    const checkout = `/cs2/profile/payment?product=${product.id}`;
    // A guest's Buy leads to the sign-in page with the checkout to come back to.
    const buy = await open(checkout);
    expect(buy.status).toBe(302);
    expect(buy.location).toBe(`/auth?redirectTo=${encodeURIComponent(checkout)}`);
    for (const page of [`/auth?redirectTo=${encodeURIComponent(checkout)}`, `/auth/register?redirectTo=${encodeURIComponent(checkout)}`]) {
      const shown = await open(page);
      expect(shown.status).toBe(200);
      expect(shown.text).toContain(t("ru")("auth.order.title"));
      expect(shown.text).toContain(t("ru")("product.name", { game: GAMES.cs2.name, days: t("ru")("plural.days", { count: 30 }) }));
      expect(shown.text).toContain(pageText(formatMoney(product.price, "USD", "ru")));
      expect(shown.text).toContain(t("ru")("auth.order.note"));
    }
    const en = await open(`/en/auth/register?redirectTo=${encodeURIComponent(`/en/minecraft/profile/payment?product=${PRODUCTS.minecraft.days7.id}`)}`);
    expect(en.text).toContain(t("en")("product.name", { game: GAMES.minecraft.name, days: t("en")("plural.days", { count: 7 }) }));
  });

  it("shows no order for anything but a checkout of a product on sale", async () => {
    for (const redirectTo of [
      "/dota2/profile/balance",
      `/dota2/profile/payment?product=${PRODUCTS.cs2.days7.id}`, // another game's product
      "/dota2/profile/payment?product=99999",
      `//evil.example/dota2/profile/payment?product=${PRODUCTS.dota2.days7.id}`,
      `https://evil.example/dota2/profile/payment?product=${PRODUCTS.dota2.days7.id}`,
    ]) {
      const page = await open(`/en/auth?redirectTo=${encodeURIComponent(redirectTo)}`);
      expect(page.status, redirectTo).toBe(200);
      expect(page.text, redirectTo).not.toContain(t()("auth.order.title"));
    }
  });
});

describe("the checkout", () => {
  it("says what the payment makes of the pass and of the balance before paying, and links the policies", async () => {
    const user = await registerUser(shop, { balance: 5000 });
    const product = PRODUCTS.dota2.days30;
    // No pass yet: it would start now.
    const first = await open(`/en/dota2/profile/payment?product=${product.id}`, user);
    expect(first.status).toBe(200);
    const startsAt = shop.clock.now().getTime(); // the shop runs on its manual clock
    const shownEnd = new Date(/data-testid="new-end"><time dateTime="([^"]+)"/.exec(first.html)![1]!).getTime();
    expect(Math.abs(shownEnd - (startsAt + 30 * DAY))).toBeLessThan(60_000);
    expect(first.html).toMatch(new RegExp(`data-testid="balance-after">${formatMoney(5000 - product.price, "USD", "en").replace(/\$/g, "\\$")}<`));
    expect(button(first.html, "balance")).not.toContain("disabled");
    for (const slug of ["terms", "refunds", "support"]) expect(first.html).toContain(`href="/en/${slug}"`);
    expect(first.text).toContain(t()("payment.agree"));

    // With a pass: it is extended from its end, which is what paying then does.
    const bought = await shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: PRODUCTS.dota2.days7.id } });
    const end = new Date(bought.body.subscriptions[0].expires_at);
    const extending = await open(`/en/dota2/profile/payment?product=${product.id}`, user);
    const promised = new Date(end.getTime() + 30 * DAY);
    expect(extending.text).toContain(`${t()("payment.newEnd")} ${formatDate(promised)}`);
    const paid = await shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: product.id } });
    expect(new Date(paid.body.subscriptions[0].expires_at).getTime()).toBe(promised.getTime());
  });

  it("does not offer paying from a short balance, and says how much is missing", async () => {
    const user = await registerUser(shop);
    await topUp(shop, user.id, 500);
    const product = PRODUCTS.minecraft.days30;
    const page = await open(`/en/minecraft/profile/payment?product=${product.id}`, user);
    const fromBalance = button(page.html, "balance");
    expect(fromBalance).toMatch(/\sdisabled=""/);
    expect(fromBalance).toContain('aria-describedby="balance-short"');
    expect(page.text).toContain(pageText(t()("payment.short", { missing: formatMoney(product.price - 500, "USD", "en") })));
    expect(page.html).not.toContain('data-testid="balance-after"');
    expect(button(page.html, "paypal")).not.toContain("disabled");
  });
});

describe("a payment that did not go through", () => {
  it("cancelled: offers the same checkout again, and the support", async () => {
    const user = await registerUser(shop);
    const product = PRODUCTS.cs2.days7;
    const order = await shop.call("POST", "/v2/web/payment/paypal/order", { token: user.token, json: { product_id: product.id } });
    expect(order.status, order.text).toBe(200);
    const page = await open(`/en/payment/paypal?cancel=1&token=${order.body.order_id}`, user);
    expect(page.status).toBe(200);
    expect(page.text).toContain(t()("return.cancelled.title"));
    expect(page.html).toContain(`href="/en/cs2/profile/payment?product=${product.id}">${t()("return.again")}</a>`);
    expect(page.text).toContain(t()("return.help", { order: order.body.order_id }));
    expect(page.html).toContain('href="/en/support"');

    const topup = await shop.call("POST", "/v2/web/payment/paypal/order", { token: user.token, json: { amount: 1000 } });
    const again = await open(`/en/payment/paypal?cancel=1&token=${topup.body.order_id}`, user);
    expect(again.html).toMatch(new RegExp(`href="/en/[a-z0-9]+/profile/balance">${t()("return.again")}</a>`));
  });

  it("unknown: says so, and points to the support", async () => {
    const user = await registerUser(shop);
    const page = await open("/en/payment/paypal?token=DEMO-UNKNOWN123", user);
    expect(page.status).toBe(200);
    expect(page.text).toContain(t()("return.noOrder"));
    expect(page.html).toContain('href="/en/support"');
    expect(page.text).toContain(t()("return.help", { order: "DEMO-UNKNOWN123" }));
    const none = await open("/en/payment/paypal", user);
    expect(none.text).toContain(t()("return.helpNoOrder"));
  });
});
