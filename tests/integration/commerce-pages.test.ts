// The commerce pages against the same core as the API (issue 8, point 3): their forms are checked
// by the core's input schemas, so a field is refused the same way through either door; the
// payment return page tells a payment worth retrying by the error's code; and the pages show the
// core's domain types (dates and money through i18n/format.ts).
import { describe, expect, it } from "vitest";
import { systemClock } from "../../core/shared/clock.ts";
import { formatDate, formatMoney } from "../../i18n/format.ts";
import { GAMES, PRODUCTS, registerUser, topUp, useShop, type User } from "../kit/shop.ts";
import { pageText } from "../kit/html.ts";

const shop = useShop({ pages: true, clock: systemClock });
const origin = () => shop.services.settings.PUBLIC_URL;

const textOf = pageText;

async function page(user: User, path: string): Promise<{ status: number; text: string }> {
  const res = await shop.request(path, { headers: { cookie: `access_token=${user.token}` }, redirect: "manual" });
  return { status: res.status, text: textOf(await res.text()) };
}

/** A page form posted as a browser without JavaScript posts it. */
async function post(user: User, path: string, fields: Record<string, string>): Promise<{ status: number; text: string; location: string | null }> {
  const res = await shop.request(path, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: origin(),
      "sec-fetch-site": "same-origin",
      cookie: `access_token=${user.token}`,
    },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  return { status: res.status, text: textOf(await res.text()), location: res.headers.get("location") };
}

describe("one input, one check, whichever door", () => {
  it("an empty gift code is a missing field on the page, as in the API (not a code that does not exist)", async () => {
    const user = await registerUser(shop);
    const api = await shop.call("POST", "/v2/web/user/gift/redeem", { token: user.token, json: { code: "" } });
    expect(api.status).toBe(400);
    expect(api.body.errors).toEqual({ code: "This field is required." });
    const form = await post(user, "/en/give/subscription", { intent: "redeem", code: "" });
    expect(form.status).toBe(400);
    expect(form.text).toContain("This field is required.");
    expect(form.text).not.toContain("This gift code does not exist or has already been redeemed.");
    // A code nobody made is the same answer through both doors.
    expect((await shop.call("POST", "/v2/web/user/gift/redeem", { token: user.token, json: { code: "ABCD-EFGH-JKMN" } })).status).toBe(404);
    const unknown = await post(user, "/en/give/subscription", { intent: "redeem", code: "ABCD-EFGH-JKMN" });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain("This gift code does not exist or has already been redeemed.");
  });

  it("a recipient longer than any address is too long on the page and in the API; nothing is paid", async () => {
    const user = await registerUser(shop, { balance: 5000 });
    const long = `${"a".repeat(250)}@example.com`;
    const api = await shop.call("POST", "/v2/web/user/gift", { token: user.token, json: { product_id: PRODUCTS.dota2.days1.id, recipient: long } });
    expect(api.status).toBe(400);
    expect(api.body.errors).toEqual({ recipient: "This value is too long." });
    const form = await post(user, "/en/give/subscription", { intent: "give", product: String(PRODUCTS.dota2.days1.id), recipient: long });
    expect(form.status).toBe(400);
    expect(form.text).toContain("This value is too long.");
    const bad = await post(user, "/en/give/subscription", { intent: "give", product: "1e0" });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("This value is not valid.");
    expect((await shop.call("GET", "/v2/web/user/me", { token: user.token })).body.user.balance).toBe(5000);
  });

  it("an id in a query string is digits, for the API as for the pages", async () => {
    const user = await registerUser(shop);
    for (const before of ["1e3", "0x10", " 5", "1.0"]) {
      const reply = await shop.call("GET", `/v2/web/user/transactions?before=${encodeURIComponent(before)}`, { token: user.token });
      expect(reply.status, before).toBe(400);
      expect(reply.body.code).toBe("validation_failed");
      expect((await shop.call("GET", `/v2/web/user/statistics?cheat_id=${encodeURIComponent(before)}`, { token: user.token })).status, before).toBe(400);
    }
    expect((await shop.call("GET", "/v2/web/user/transactions?before=1000", { token: user.token })).status).toBe(200);
    // The balance page refuses the same ?before= in place of its list.
    const balance = await page(user, "/en/dota2/profile/balance?before=1e3");
    expect(balance.status).toBe(200);
    expect(balance.text).toContain("Failed to fetch transactions");
  });

  it("a top-up typed on the balance page: the shop currency's decimals, the same range as the API", async () => {
    const user = await registerUser(shop);
    const { TOPUP_MIN, TOPUP_MAX } = shop.services.settings;
    for (const typed of ["", "abc", "1.234", "-5"]) {
      const form = await post(user, "/en/dota2/profile/balance", { intent: "topup", amount: typed });
      expect(form.status, typed).toBe(400);
      expect(form.text).toContain(typed === "" ? "This field is required." : "Enter an amount, for example 25 or 25.50.");
    }
    const tooMuch = await post(user, "/en/dota2/profile/balance", { intent: "topup", amount: String(TOPUP_MAX / 100 + 1) });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.text).toContain("Choose an amount within the allowed range.");
    const api = await shop.call("POST", "/v2/web/payment/paypal/order", { token: user.token, json: { amount: TOPUP_MAX + 100 } });
    expect(api.body.errors).toEqual({ amount: "Choose an amount within the allowed range." });
    const fine = await post(user, "/en/dota2/profile/balance", { intent: "topup", amount: "25,50" });
    expect(fine.status).toBe(302);
    expect(fine.location).toMatch(/\/payment\/demo\?order=DEMO-[0-9A-F]{17}$/);
    expect(TOPUP_MIN).toBeLessThanOrEqual(2550);
  });
});

describe("the payment return page", () => {
  it("offers to try again while the payment is not approved (payment_not_approved), and shows the result once paid", async () => {
    const user = await registerUser(shop);
    const created = await shop.call("POST", "/v2/web/payment/paypal/order", { token: user.token, json: { amount: 1500 } });
    expect(created.status, created.text).toBe(200);
    const orderId = created.body.order_id as string;
    const early = await page(user, `/en/payment/paypal?token=${orderId}`);
    expect(early.text).toContain("The payment has not been approved yet.");
    expect(early.text).toContain("Try again");
    expect(await shop.services.demoProvider!.approve(orderId)).toBe(true);
    const done = await page(user, `/en/payment/paypal?token=${orderId}`);
    expect(done.text).toContain(formatMoney(1500, "USD", "en"));
    expect(done.text).not.toContain("Try again");
    // Someone else's order is no order of theirs, and not worth retrying.
    const other = await registerUser(shop, { tag: "other" });
    const stranger = await page(other, `/en/payment/paypal?token=${orderId}`);
    expect(stranger.text).toContain("We could not find this payment.");
    expect(stranger.text).not.toContain("Try again");
  });
});

describe("pages read the domain types", () => {
  it("the balance page lists a transaction with its date and amount as i18n/format.ts writes them", async () => {
    const user = await registerUser(shop);
    await topUp(shop, user.id, 1200);
    const [row] = await shop.services.ledger.list(user.id, { limit: 1 });
    const balance = await page(user, "/en/dota2/profile/balance");
    expect(balance.text).toContain(formatDate(row!.createdAt));
    expect(balance.text).toContain(`+ ${formatMoney(1200, "USD", "en")}`);
  });

  it("the subscription page shows the pass's end and the days it was bought for", async () => {
    const user = await registerUser(shop, { balance: 5000 });
    const bought = await shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: PRODUCTS.dota2.days30.id } });
    expect(bought.status, bought.text).toBe(200);
    const sub = await shop.services.subscriptions.forCheat(user.id, GAMES.dota2.id);
    const view = await page(user, "/en/dota2/profile/subscription");
    expect(view.text).toContain(formatDate(sub!.expiresAt));
    const overview = await page(user, "/en/dota2/profile");
    expect(overview.text).toContain(formatDate(sub!.expiresAt));
  });
});
