// Spending the balance through the HTTP API: purchases with an Idempotency-Key, gifts (to a user or
// as a code), the transaction list and its paging, statistics, the referral summary, and what one
// user can never see or change of another's.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../core/shared/clock.ts";
import { gifts } from "../../db/schema/index.ts";
import { GIFT_CODE } from "../../core/gifts/gift-code.ts";
import { TEST_ORIGIN } from "../kit/app.ts";
import { GAMES, PRODUCTS, balanceOf, expectConsistentLedger, registerUser, rowsOf, subscriptionOf, subscriptionsOf, useShop, type Reply, type User } from "../kit/shop.ts";

// The country header is trusted here as behind a CDN that sets it (issue 7, point 11).
const shop = useShop({ smtp: true, clock: systemClock, env: { COUNTRY_HEADER_TRUSTED: "1" } });

const DAY_MS = 86_400_000;

function purchase(user: User, productId: number, key?: string, extra: Record<string, unknown> = {}): Promise<Reply> {
  return shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: productId, ...extra }, headers: key ? { "idempotency-key": key } : {} });
}

function gift(user: User, body: { product_id: number; recipient?: string }, key?: string): Promise<Reply> {
  return shop.call("POST", "/v2/web/user/gift", { token: user.token, json: body, headers: key ? { "idempotency-key": key } : {} });
}

async function notifications(user: User) {
  const reply = await shop.call("GET", "/v2/web/user/notification", { token: user.token });
  expect(reply.status).toBe(200);
  return reply.body.notifications as { type: string; title: string; content: string }[];
}

async function giftRows(giverId: number) {
  return shop.services.db.select().from(gifts).where(eq(gifts.giverId, giverId));
}

describe("purchases from the balance with an Idempotency-Key", () => {
  it("the same key 20 times at once → one debit and twenty identical answers", async () => {
    const buyer = await registerUser(shop, { balance: 1000 });
    const key = "buy-once-1";
    const replies = await Promise.all(Array.from({ length: 20 }, () => purchase(buyer, PRODUCTS.dota2.days1.id, key)));
    for (const reply of replies) {
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual(replies[0]!.body);
    }
    expect(replies[0]!.body).toMatchObject({ status: true, balance: 801, transaction: { type: "purchase", amount: -199, paid: 199, product_id: PRODUCTS.dota2.days1.id } });
    expect(replies.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
    const rows = await rowsOf(shop, buyer.id);
    expect(rows.map((r) => [r.type, r.amount])).toEqual([
      ["topup", 1000],
      ["purchase", -199],
    ]);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(801);
    // One day granted, not twenty.
    const dota = subscriptionOf(await subscriptionsOf(shop, buyer.token), GAMES.dota2.id)!;
    expect(new Date(dota.expires_at).getTime()).toBeLessThanOrEqual(Date.now() + DAY_MS);
    expect(new Date(dota.expires_at).getTime()).toBeGreaterThan(Date.now() + DAY_MS - 60_000);

    // The same key with another body: 409, nothing moves.
    const other = await purchase(buyer, PRODUCTS.dota2.days7.id, key);
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ status: false, code: "idempotency_mismatch", message: "This Idempotency-Key was already used for a different request." });
    // The same key on another money call is another request too.
    expect((await gift(buyer, { product_id: PRODUCTS.dota2.days1.id }, key)).status).toBe(409);
    expect(await balanceOf(shop, buyer.id)).toBe(801);

    // Another user's identical key is theirs alone.
    const second = await registerUser(shop, { balance: 199 });
    const theirs = await purchase(second, PRODUCTS.dota2.days1.id, key);
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.body.balance).toBe(0);
    expect(await balanceOf(shop, buyer.id)).toBe(801);

    // Without a key, two calls are two purchases.
    expect((await purchase(buyer, PRODUCTS.dota2.days1.id)).status).toBe(200);
    expect((await purchase(buyer, PRODUCTS.dota2.days1.id)).status).toBe(200);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(403);
    expect((await rowsOf(shop, buyer.id)).filter((r) => r.type === "purchase")).toHaveLength(3);
  });

  it("keeps a refusal as the key's answer, and refuses a malformed key", async () => {
    const buyer = await registerUser(shop, { balance: 100 });
    const first = await purchase(buyer, PRODUCTS.dota2.days1.id, "poor-1");
    expect(first.status).toBe(409);
    expect(first.body).toMatchObject({ status: false, code: "insufficient_balance", message: "Your balance is too low for this purchase." });
    await shop.services.db.transaction((tx) => shop.services.ledger.post(tx, { userId: buyer.id, type: "topup", amount: 500, paid: 500, source: "system" }, new Date()));
    const replay = await purchase(buyer, PRODUCTS.dota2.days1.id, "poor-1");
    expect(replay.status).toBe(409);
    expect(replay.body).toEqual(first.body);
    expect(await balanceOf(shop, buyer.id)).toBe(600);
    const bad = await purchase(buyer, PRODUCTS.dota2.days1.id, "not a key!");
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("validation_failed");
    expect(await balanceOf(shop, buyer.id)).toBe(600);
  });

  it("validates the product and ignores fields that try to set an owner or a price", async () => {
    const buyer = await registerUser(shop, { balance: 5000 });
    const victim = await registerUser(shop, { tag: "victim", balance: 5000 });
    expect((await purchase(buyer, 9999)).status).toBe(404);
    expect((await purchase(buyer, PRODUCTS.dota2Cis.days1.id)).status).toBe(404); // CIS price, asked from global
    expect((await shop.call("POST", "/v2/web/user/purchase", { token: buyer.token, json: { product_id: "1" } })).status).toBe(400);
    expect((await shop.call("POST", "/v2/web/user/purchase", { token: buyer.token, json: {} })).status).toBe(400);
    expect((await shop.call("POST", "/v2/web/user/purchase", { json: { product_id: PRODUCTS.dota2.days1.id } })).status).toBe(401);
    const reply = await purchase(buyer, PRODUCTS.dota2.days90.id, undefined, { user_id: victim.id, price: 1, amount: 1, balance: 999_999 });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.balance).toBe(1);
    expect(await balanceOf(shop, victim.id)).toBe(5000);
    expect(await rowsOf(shop, victim.id)).toHaveLength(1);
    const cis = await shop.call("POST", "/v2/web/user/purchase", { token: victim.token, json: { product_id: PRODUCTS.dota2Cis.days1.id }, headers: { "CF-IPCountry": "RU" } });
    expect(cis.status, cis.text).toBe(200);
    expect(cis.body.transaction).toMatchObject({ amount: -149, product_id: PRODUCTS.dota2Cis.days1.id });
  });
});

describe("gifts", () => {
  it("to a recipient by e-mail or username: their days grow, both are told, the recipient gets a mail", async () => {
    const giver = await registerUser(shop, { tag: "giver", balance: 5000 });
    const recipient = await registerUser(shop, { tag: "friend" });
    const byEmail = await gift(giver, { product_id: PRODUCTS.dota2.days7.id, recipient: recipient.email.toUpperCase() });
    expect(byEmail.status, byEmail.text).toBe(200);
    // By e-mail the answer names the address and no more (docs/product/money.md#gifts): registered or not.
    expect(byEmail.body.gift).toEqual({ code: null, cheat_id: GAMES.dota2.id, days: 7, recipient: recipient.email, redeemed: null, delivered: true });
    expect(byEmail.body.balance).toBe(4201);
    expect(byEmail.body.transaction).toMatchObject({ type: "gift", amount: -799, product_id: PRODUCTS.dota2.days7.id });
    const first = subscriptionOf(await subscriptionsOf(shop, recipient.token), GAMES.dota2.id)!;
    expect(first.state).toBe("active");
    const firstEnd = new Date(first.expires_at).getTime();

    const byName = await gift(giver, { product_id: PRODUCTS.dota2.days7.id, recipient: ` ${recipient.username.toUpperCase()} ` });
    expect(byName.status, byName.text).toBe(200);
    expect(byName.body.gift).toEqual({ code: expect.stringMatching(GIFT_CODE), cheat_id: GAMES.dota2.id, days: 7, recipient: recipient.username, redeemed: true, delivered: true });
    const second = subscriptionOf(await subscriptionsOf(shop, recipient.token), GAMES.dota2.id)!;
    expect(new Date(second.expires_at).getTime()).toBe(firstEnd + 7 * DAY_MS);

    expect((await notifications(recipient)).map((n) => n.type)).toEqual(["gift_received", "gift_received"]);
    const received = (await notifications(recipient))[0]!;
    expect(received.content).toBe(`${giver.username} gave you 7 days of Dota 2.`);
    expect((await notifications(giver)).map((n) => [n.type, n.content])).toEqual([
      ["gift_sent", `You gave 7 days of Dota 2 to ${recipient.username}.`],
      ["gift_sent", `You gave 7 days of Dota 2 to ${recipient.email}.`],
    ]);

    await shop.services.background.drain();
    const mail = await shop.smtp.waitFor((m) => m.envelope.to.includes(recipient.email));
    expect(mail.subject).toBe(`${giver.username} sent you a gift`);
    expect(mail.text).toContain("Added: 7 days");
    expect(shop.smtp.messages.filter((m) => m.envelope.to.includes(recipient.email))).toHaveLength(2);
    expect(await expectConsistentLedger(shop, giver.id)).toBe(5000 - 2 * 799);
    expect(await rowsOf(shop, recipient.id)).toHaveLength(0); // the recipient paid nothing
  });

  it("without a recipient: a code, redeemed once", async () => {
    const giver = await registerUser(shop, { tag: "giver", balance: 2000 });
    const friend = await registerUser(shop, { tag: "friend" });
    const stranger = await registerUser(shop, { tag: "stranger" });
    const made = await gift(giver, { product_id: PRODUCTS.minecraft.days7.id });
    expect(made.status, made.text).toBe(200);
    expect(made.body.gift).toMatchObject({ cheat_id: GAMES.minecraft.id, days: 7, recipient: null, redeemed: false, delivered: false });
    const code = made.body.gift.code as string;
    await shop.services.background.drain();
    // The giver gets the receipt too, in either order: wait for the mail with the code.
    const mail = await shop.smtp.waitFor((m) => m.envelope.to.includes(giver.email) && m.subject === "Your gift code for Minecraft");
    expect(mail.text).toContain(code);
    expect(mail.text).toContain("Length: 7 days");

    // Written in lower case with a dash, as a person might type it.
    const redeemed = await shop.call("POST", "/v2/web/user/gift/redeem", { token: friend.token, json: { code: `${code.slice(0, 6).toLowerCase()}-${code.slice(6)}` } });
    expect(redeemed.status, redeemed.text).toBe(200);
    const minecraft = subscriptionOf(redeemed, GAMES.minecraft.id)!;
    expect(minecraft.state).toBe("active");
    expect(new Date(minecraft.expires_at).getTime()).toBeGreaterThan(Date.now() + 7 * DAY_MS - 60_000);
    expect((await notifications(friend)).map((n) => n.type)).toEqual(["gift_received"]);

    const again = await shop.call("POST", "/v2/web/user/gift/redeem", { token: stranger.token, json: { code } });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe("This gift code does not exist or has already been redeemed.");
    expect((await shop.call("POST", "/v2/web/user/gift/redeem", { token: friend.token, json: { code } })).status).toBe(404);
    expect((await subscriptionsOf(shop, stranger.token)).body.subscriptions).toEqual([]);
    expect((await shop.call("POST", "/v2/web/user/gift/redeem", { token: stranger.token, json: { code: "AAAAAAAAAAAA" } })).status).toBe(404);
    expect((await shop.call("POST", "/v2/web/user/gift/redeem", { json: { code } })).status).toBe(401);
    expect(await expectConsistentLedger(shop, giver.id)).toBe(2000 - 799);
  });

  it("refuses a gift to oneself (400), to an unknown username (404) and beyond the balance (409, no gift made)", async () => {
    const giver = await registerUser(shop, { tag: "giver", balance: 500 });
    const friend = await registerUser(shop, { tag: "friend" });
    const self = await gift(giver, { product_id: PRODUCTS.dota2.days1.id, recipient: giver.email });
    expect(self.status).toBe(400);
    expect(self.body.code).toBe("validation_failed");
    expect(self.body.errors.recipient).toBeTruthy();
    expect((await gift(giver, { product_id: PRODUCTS.dota2.days1.id, recipient: giver.username })).status).toBe(400);
    // Usernames are public handles: an unknown one is 404 (an unknown e-mail is not: see gifts-by-email).
    const unknown = await gift(giver, { product_id: PRODUCTS.dota2.days1.id, recipient: "no_such_user_name" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("No user with this username.");
    expect(unknown.body.errors).toEqual({ recipient: "No user with this username." });
    const poor = await gift(giver, { product_id: PRODUCTS.dota2.days30.id, recipient: friend.email });
    expect(poor.status).toBe(409);
    expect(poor.body.code).toBe("insufficient_balance");
    const poorCode = await gift(giver, { product_id: PRODUCTS.dota2.days30.id });
    expect(poorCode.status).toBe(409);
    expect(await giftRows(giver.id)).toHaveLength(0);
    expect(await expectConsistentLedger(shop, giver.id)).toBe(500);
    expect((await subscriptionsOf(shop, friend.token)).body.subscriptions).toEqual([]);
    expect(await notifications(friend)).toEqual([]);
  });
});

describe("the built-in demo provider (no PayPal configured)", () => {
  it("tops up through order → approve on our demo page → capture, once", async () => {
    const buyer = await registerUser(shop);
    const created = await shop.call("POST", "/v2/web/payment/paypal/order", { token: buyer.token, json: { amount: 1234 }, headers: { "idempotency-key": "demo-1" } });
    expect(created.status, created.text).toBe(200);
    const orderId = created.body.order_id as string;
    expect([`${TEST_ORIGIN}/payment/demo?order=${orderId}`, `${TEST_ORIGIN}/en/payment/demo?order=${orderId}`]).toContain(created.body.approve_url);
    const again = await shop.call("POST", "/v2/web/payment/paypal/order", { token: buyer.token, json: { amount: 1234 }, headers: { "idempotency-key": "demo-1" } });
    expect(again.body).toEqual(created.body);
    const capture = () => shop.call("POST", "/v2/web/payment/paypal/capture", { token: buyer.token, json: { order_id: orderId } });
    const early = await capture();
    expect(early.status).toBe(409);
    expect(early.body.code).toBe("payment_not_approved");
    expect(await shop.services.demoProvider!.approve(orderId)).toBe(true);
    const paid = await capture();
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.transaction).toMatchObject({ type: "topup", amount: 1234, source: "demo" });
    expect((await capture()).body.transaction.id).toBe(paid.body.transaction.id);
    // The demo provider sends no webhooks: anything posted there is refused.
    expect((await shop.call("POST", "/v2/web/payment/paypal/webhook", { json: { event_type: "PAYMENT.CAPTURE.COMPLETED", resource: {} } })).status).toBe(403);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(1234);
  });
});

describe("transactions, statistics and referrals", () => {
  it("lists transactions newest first; skip and before page through the same sequence; bad limits are 400", async () => {
    const user = await registerUser(shop, { balance: 4000 });
    for (let i = 0; i < 12; i++) expect((await purchase(user, PRODUCTS.dota2.days1.id)).status).toBe(200);
    const all = await shop.call("GET", "/v2/web/user/transactions?limit=50", { token: user.token });
    expect(all.status).toBe(200);
    const ids = (all.body.data as { id: number }[]).map((t) => t.id);
    expect(ids).toHaveLength(13);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(all.body.data[12]).toMatchObject({ type: "topup", amount: 4000, currency: "USD", status: "completed", products: [], product_id: null, product: null });
    expect(all.body.data[0]).toMatchObject({
      type: "purchase",
      amount: -199,
      product_id: PRODUCTS.dota2.days1.id,
      product: { id: PRODUCTS.dota2.days1.id, cheat_id: GAMES.dota2.id, params: { days: 1 }, price: 199 },
    });
    expect(typeof all.body.data[0].created_at).toBe("string");

    const byDefault = await shop.call("GET", "/v2/web/user/transactions", { token: user.token });
    expect(byDefault.body.data.map((t: { id: number }) => t.id)).toEqual(ids.slice(0, 10));
    expect(byDefault.headers.get("cache-control")).toBe("no-store");

    const bySkip: number[] = [];
    for (let skip = 0; skip < 15; skip += 5) {
      const page = await shop.call("GET", `/v2/web/user/transactions?limit=5&skip=${skip}`, { token: user.token });
      bySkip.push(...page.body.data.map((t: { id: number }) => t.id));
    }
    const byKey: number[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await shop.call("GET", `/v2/web/user/transactions?limit=5${before ? `&before=${before}` : ""}`, { token: user.token });
      const pageIds = page.body.data.map((t: { id: number }) => t.id) as number[];
      if (pageIds.length === 0) break;
      byKey.push(...pageIds);
      before = pageIds.at(-1);
    }
    expect(bySkip).toEqual(ids);
    expect(byKey).toEqual(ids);

    for (const bad of ["limit=0", "limit=51", "limit=abc", "skip=-1", "skip=x", "before=0"]) {
      const reply = await shop.call("GET", `/v2/web/user/transactions?${bad}`, { token: user.token });
      expect(reply.status, bad).toBe(400);
      expect(reply.body.code).toBe("validation_failed");
    }
    expect((await shop.call("GET", "/v2/web/user/transactions?limit=50&skip=1000", { token: user.token })).body.data).toEqual([]);
    expect((await shop.call("GET", "/v2/web/user/transactions")).status).toBe(401);
  });

  it("statistics per cheat and of all transactions", async () => {
    const user = await registerUser(shop, { balance: 6000 });
    const friend = await registerUser(shop, { tag: "friend" });
    expect((await purchase(user, PRODUCTS.dota2.days7.id)).status).toBe(200); // dota2 7 days 799
    expect((await purchase(user, PRODUCTS.dota2.days30.id)).status).toBe(200); // dota2 30 days 1999
    expect((await purchase(user, PRODUCTS.minecraft.days1.id)).status).toBe(200); // minecraft 1 day 199
    expect((await gift(user, { product_id: PRODUCTS.dota2.days1.id, recipient: friend.email })).status).toBe(200); // 199
    expect((await shop.call("POST", "/v2/web/user/subscriptions/freeze", { token: user.token, json: { cheat_id: GAMES.dota2.id } })).status).toBe(200);

    const subs = await subscriptionsOf(shop, user.token);
    const dota = await shop.call("GET", `/v2/web/user/statistics?cheat_id=${GAMES.dota2.id}`, { token: user.token });
    expect(dota.status).toBe(200);
    expect(dota.body.statistics).toMatchObject({
      cheat_id: GAMES.dota2.id,
      total_days: 37,
      total_spent: 2798,
      purchases: 2,
      freezes: 1,
      expires_at: subscriptionOf(subs, GAMES.dota2.id)!.expires_at,
    });
    expect(typeof dota.body.statistics.active_since).toBe("string");
    const minecraft = await shop.call("GET", `/v2/web/user/statistics?cheat_id=${GAMES.minecraft.id}`, { token: user.token });
    expect(minecraft.body.statistics).toMatchObject({ cheat_id: GAMES.minecraft.id, total_days: 1, total_spent: 199, purchases: 1, freezes: 0 });
    const none = await shop.call("GET", `/v2/web/user/statistics?cheat_id=${GAMES.cs2.id}`, { token: user.token });
    expect(none.body.statistics).toEqual({ cheat_id: GAMES.cs2.id, total_days: 0, total_spent: 0, purchases: 0, freezes: 0, active_since: null, expires_at: null });
    expect((await shop.call("GET", "/v2/web/user/statistics?cheat_id=abc", { token: user.token })).status).toBe(400);

    const all = await shop.call("GET", "/v2/web/user/statistics/transactions", { token: user.token });
    expect(all.status).toBe(200);
    const rows = await rowsOf(shop, user.id);
    const months = [...new Set(rows.map((r) => r.createdAt.toISOString().slice(0, 7)))];
    expect(all.body.statistics).toMatchObject({ count: 5, total_spent: 799 + 1999 + 199 + 199, total_topped_up: 6000 });
    expect(all.body.statistics.by_month.map((m: { month: string }) => m.month)).toEqual(months.sort().reverse());
    expect(all.body.statistics.by_month.reduce((n: number, m: { spent: number }) => n + m.spent, 0)).toBe(3196);
    // The friend received a gift: nothing spent, no transactions.
    expect((await shop.call("GET", "/v2/web/user/statistics/transactions", { token: friend.token })).body.statistics).toEqual({ count: 0, total_spent: 0, total_topped_up: 0, by_month: [] });
  });

  it("the referral summary counts invited users", async () => {
    const referrer = await registerUser(shop, { tag: "ref" });
    const summary = await shop.call("GET", "/v2/web/user/referral", { token: referrer.token });
    expect(summary.status).toBe(200);
    const code = summary.body.referral.code as string;
    expect(summary.body.referral).toEqual({ code, link: `${TEST_ORIGIN}/?r=${code}`, invited: 0, earned: 0, percent: 10 });
    await registerUser(shop, { referrer: code });
    await registerUser(shop, { referrer: code.toLowerCase() });
    const after = await shop.call("GET", "/v2/web/user/referral", { token: referrer.token });
    expect(after.body.referral).toMatchObject({ invited: 2, earned: 0 });
  });
});

describe("two users", () => {
  it("one user's transactions, subscriptions and freezes are out of the other's reach", async () => {
    const alice = await registerUser(shop, { tag: "alice", balance: 3000 });
    const bob = await registerUser(shop, { tag: "bob", balance: 300 });
    expect((await purchase(alice, PRODUCTS.dota2.days30.id)).status).toBe(200);
    expect((await purchase(bob, PRODUCTS.minecraft.days1.id)).status).toBe(200);
    const aliceIds = (await rowsOf(shop, alice.id)).map((r) => r.id);

    const bobList = await shop.call("GET", `/v2/web/user/transactions?limit=50&user_id=${alice.id}`, { token: bob.token });
    const bobIds = bobList.body.data.map((t: { id: number }) => t.id) as number[];
    expect(bobIds).toHaveLength(2);
    expect(bobIds.some((id) => aliceIds.includes(id))).toBe(false);
    // Keyset paging from one of Alice's ids still shows only Bob's rows.
    const keyed = await shop.call("GET", `/v2/web/user/transactions?before=${Math.max(...aliceIds) + 1}`, { token: bob.token });
    expect(keyed.body.data.every((t: { id: number }) => bobIds.includes(t.id))).toBe(true);

    const bobSubs = await subscriptionsOf(shop, bob.token);
    expect(bobSubs.body.subscriptions.map((s: { cheat_id: number }) => s.cheat_id)).toEqual([GAMES.minecraft.id]);
    const aliceBefore = subscriptionOf(await subscriptionsOf(shop, alice.token), GAMES.dota2.id)!;
    // Bob freezing dota2 (only Alice has it) acts on his own, missing, subscription.
    const freeze = await shop.call("POST", "/v2/web/user/subscriptions/freeze", { token: bob.token, json: { cheat_id: GAMES.dota2.id, user_id: alice.id } });
    expect(freeze.status).toBe(409);
    expect(freeze.body.message).toBe("You have no subscription for this game yet.");
    expect((await shop.call("POST", "/v2/web/user/subscriptions/unfreeze", { token: bob.token, json: { cheat_id: GAMES.dota2.id } })).status).toBe(409);
    expect(subscriptionOf(await subscriptionsOf(shop, alice.token), GAMES.dota2.id)).toEqual(aliceBefore);
    const stats = await shop.call("GET", `/v2/web/user/statistics?cheat_id=${GAMES.dota2.id}`, { token: bob.token });
    expect(stats.body.statistics).toMatchObject({ purchases: 0, total_spent: 0, expires_at: null });
    expect((await shop.call("GET", "/v2/web/user/statistics/transactions", { token: bob.token })).body.statistics.count).toBe(2);
    expect(await expectConsistentLedger(shop, alice.id)).toBe(1001);
    expect(await expectConsistentLedger(shop, bob.id)).toBe(101);
  });
});
