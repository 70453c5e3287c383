// Money after the fact (docs/product/money.md#refunds-and-reversals, issue 7 point 4), through PayPal's events against the loopback
// PayPal on a manual clock: a refunded top-up takes the balance, then what the balance paid for
// since (days in proportion, never time already used; unredeemed codes voided; direct gifts and
// redeemed codes counted toward `owed`), and what is left becomes `owed`, paid off by the next
// top-up or released reward; a direct purchase loses its share of days; referral rewards are held
// 14 days, released by the job, cancelled or reversed by a refund, and refused between accounts that
// look like one person; a reversal also suspends the buyer; a dispute flags the payment; every event
// applies once, in any order and however often it arrives, even all at once.
import { and, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { gifts, paymentOrders, referralRewards, sessions, users } from "../../db/schema/index.ts";
import { manualClock } from "../../core/shared/clock.ts";
import { isEntitled } from "../../core/subscriptions/index.ts";
import { runJobsOnce } from "../../server/jobs.ts";
import type { KitOrder } from "../kit/paypal.ts";
import {
  GAMES,
  PASSWORD,
  PRODUCTS,
  balanceOf,
  expectConsistentLedger,
  owedOf,
  registerUser,
  rowsOf,
  signIn,
  subscriptionOf,
  subscriptionsOf,
  topUp,
  useShop,
  type Reply,
  type User,
} from "../kit/shop.ts";

const DAY = 86_400_000;
const clock = manualClock(new Date("2026-03-01T00:00:00.000Z"));
// TRUST_PROXY: a registration's X-Forwarded-For is its client address (a self-referral signal).
const shop = useShop({ paypal: true, clock, pages: true, env: { SUPPORT_EMAIL: "help@shop.test" } });

const now = () => clock.now().getTime();

async function webhook(event: unknown): Promise<Reply> {
  return shop.call("POST", "/v2/web/payment/paypal/webhook", { json: event, headers: shop.paypal.webhookHeaders(event) });
}

/** Pays an order through the loopback PayPal (create → approve → capture) and returns it. */
async function pay(user: User, body: { amount?: number; product_id?: number }, payerId?: string): Promise<KitOrder> {
  const created = await shop.call("POST", "/v2/web/payment/paypal/order", { token: user.token, json: body });
  expect(created.status, created.text).toBe(200);
  shop.paypal.approve(created.body.order_id, { payerId });
  const captured = await shop.call("POST", "/v2/web/payment/paypal/capture", { token: user.token, json: { order_id: created.body.order_id } });
  expect(captured.status, captured.text).toBe(200);
  return shop.paypal.orders.get(created.body.order_id)!;
}

/** The merchant refunds (part of) the payment at PayPal; PayPal's event is delivered. */
async function refund(order: KitOrder, value?: string): Promise<Reply> {
  const id = shop.paypal.refund(order.id, value);
  return webhook(shop.paypal.webhookEvent("PAYMENT.CAPTURE.REFUNDED", order, { refundId: id }));
}

function purchase(user: User, productId: number): Promise<Reply> {
  return shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: productId } });
}

function gift(user: User, productId: number, recipient?: string): Promise<Reply> {
  return shop.call("POST", "/v2/web/user/gift", { token: user.token, json: { product_id: productId, ...(recipient ? { recipient } : {}) } });
}

async function referralCode(user: User): Promise<string> {
  return (await shop.call("GET", "/v2/web/user/referral", { token: user.token })).body.referral.code as string;
}

async function orderRow(order: KitOrder) {
  const [row] = await shop.services.db.select().from(paymentOrders).where(eq(paymentOrders.providerOrderId, order.id));
  return row!;
}

async function rewardsOf(referrerId: number) {
  return shop.services.db.select().from(referralRewards).where(eq(referralRewards.referrerId, referrerId)).orderBy(referralRewards.id);
}

async function dotaEnd(user: User): Promise<number> {
  return new Date(subscriptionOf(await subscriptionsOf(shop, user.token), GAMES.dota2.id)!.expires_at).getTime();
}

/** Moves the clock on; sessions live 336 h, so these users sign in again. */
async function later(ms: number, ...users: User[]) {
  clock.advance(ms);
  for (const user of users) await signIn(shop, user);
}

describe("a refunded top-up, end to end (docs/product/money.md#a-top-up)", () => {
  it("takes back the balance, the gift code and the days it paid for, reverses the referrer's reward, leaves the rest owed and lets the next top-up pay it", async () => {
    const referrer = await registerUser(shop, { tag: "ref" });
    const buyer = await registerUser(shop, { referrer: await referralCode(referrer) });
    const friend = await registerUser(shop, { tag: "friend" });
    const start = now();

    // Top up 50.00, then spend 39.98: 30 days of dota2 and a gift code of 30 days.
    const order = await pay(buyer, { amount: 5000 });
    const bought = await purchase(buyer, PRODUCTS.dota2.days30.id);
    expect(bought.status, bought.text).toBe(200);
    const given = await gift(buyer, PRODUCTS.dota2.days30.id);
    expect(given.status, given.text).toBe(200);
    expect(given.body.balance).toBe(1002);
    const code = given.body.gift.code as string;
    expect(await dotaEnd(buyer)).toBe(start + 30 * DAY);

    // After the 14-day hold the job credits the referrer's 10 %; the referrer spends some of it.
    await later(14 * DAY, buyer, referrer, friend);
    expect((await runJobsOnce(shop.services)).released).toBe(1);
    expect(await balanceOf(shop, referrer.id)).toBe(500);
    expect((await purchase(referrer, PRODUCTS.dota2.days1.id)).status).toBe(200);

    // Day 15: PayPal refunds the whole 50.00; the event arrives twice.
    await later(DAY, buyer, referrer, friend);
    expect((await refund(order)).status).toBe(200);
    expect((await webhook(shop.paypal.webhookEvent("PAYMENT.CAPTURE.REFUNDED", order))).status).toBe(200);

    // The buyer: 10.02 from the balance; the code (latest) voided, its full 19.99 counted; 15 of the
    // 30 days were used, so 15 come back, worth 9.99; what is left, 10.00, is owed.
    const rows = await rowsOf(shop, buyer.id);
    const purchaseRow = rows.find((r) => r.type === "purchase")!;
    const giftRow = rows.find((r) => r.type === "gift")!;
    const taken = rows.filter((r) => r.type === "refund").map((r) => ({ amount: r.amount, paid: r.paid, owedChange: r.owedChange, relatedId: r.relatedId, orderId: r.orderId }));
    const orderId = (await orderRow(order)).id;
    expect(taken).toEqual([
      { amount: -1002, paid: -5000, owedChange: 0, relatedId: null, orderId },
      { amount: 0, paid: -1999, owedChange: 0, relatedId: giftRow.id, orderId },
      { amount: 0, paid: -999, owedChange: 0, relatedId: purchaseRow.id, orderId },
      { amount: 0, paid: 0, owedChange: 1000, relatedId: null, orderId },
    ]);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(0);
    expect(await owedOf(shop, buyer.id)).toBe(1000);
    expect(await dotaEnd(buyer)).toBe(now());
    const [codeRow] = await shop.services.db.select().from(gifts).where(eq(gifts.code, code));
    expect(codeRow!.voidedAt).not.toBeNull();
    const redeem = await shop.call("POST", "/v2/web/user/gift/redeem", { token: friend.token, json: { code } });
    expect(redeem.status).toBe(404);
    expect(await orderRow(order)).toMatchObject({ status: "refunded", refunded: 5000 });

    // The buyer sees what is owed: in the API's user and on the balance page.
    const me = await shop.call("GET", "/v2/web/user/me", { token: buyer.token });
    expect(me.body.user).toMatchObject({ balance: 0, owed: 1000 });
    const page = await shop.request("/en/dota2/profile/balance", { headers: { cookie: `access_token=${buyer.token}` } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Owed after a refund");
    expect(html).toMatch(/data-testid="owed"[^>]*>\$10\.00</);

    // The referrer gives the released 5.00 back: 3.01 from the balance, 1.99 owed.
    expect((await rowsOf(shop, referrer.id)).map((r) => [r.type, r.amount, r.owedChange])).toEqual([
      ["referral_reward", 500, 0],
      ["purchase", -199, 0],
      ["reversal", -301, 199],
    ]);
    expect(await expectConsistentLedger(shop, referrer.id)).toBe(0);
    expect(await owedOf(shop, referrer.id)).toBe(199);
    const notes = (await shop.call("GET", "/v2/web/user/notification", { token: referrer.token })).body.notifications as { type: string }[];
    expect(notes.map((n) => n.type)).toEqual(["referral_reversed", "referral_reward"]);
    expect((await shop.call("GET", "/v2/web/user/referral", { token: referrer.token })).body.referral.earned).toBe(0);

    // The buyer's next top-up pays the 10.00 off first, as an adjustment.
    const next = await pay(buyer, { amount: 2000 });
    expect((await rowsOf(shop, buyer.id)).slice(-2).map((r) => [r.type, r.amount, r.owedChange])).toEqual([
      ["topup", 2000, 0],
      ["adjustment", -1000, -1000],
    ]);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(1000);
    expect(await owedOf(shop, buyer.id)).toBe(0);
    expect(next.capture).toBeDefined();

    // The referrer's next released reward (2.00) pays their 1.99 off first.
    await later(14 * DAY, buyer, referrer);
    expect((await runJobsOnce(shop.services)).released).toBe(1);
    expect((await rowsOf(shop, referrer.id)).slice(-2).map((r) => [r.type, r.amount, r.owedChange])).toEqual([
      ["referral_reward", 200, 0],
      ["adjustment", -199, -199],
    ]);
    expect(await expectConsistentLedger(shop, referrer.id)).toBe(1);
    expect(await owedOf(shop, referrer.id)).toBe(0);
  });

  it("takes a purchase's days in proportion to the part of its price still needed", async () => {
    const buyer = await registerUser(shop);
    const order = await pay(buyer, { amount: 1000 });
    expect((await purchase(buyer, PRODUCTS.dota2.days7.id)).status).toBe(200); // 7 days for 7.99: 2.01 left
    const end = await dotaEnd(buyer);
    expect((await refund(order, "5.00")).status).toBe(200);
    // 2.01 from the balance; 2.99 of the 7.99 purchase: that share of its 7 days.
    const share = Math.floor((7 * 86_400 * 299) / 799);
    expect(await dotaEnd(buyer)).toBe(end - share * 1000);
    expect(await owedOf(shop, buyer.id)).toBe(0);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(0);
    expect(await orderRow(order)).toMatchObject({ status: "partially_refunded", refunded: 500 });

    // The rest of the refund continues where the first stopped: the other 5.00 of the purchase.
    expect((await refund(order, "5.00")).status).toBe(200);
    expect(await dotaEnd(buyer)).toBe(now());
    expect(await owedOf(shop, buyer.id)).toBe(0);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(0);
    // Refunded in full: nothing more is taken, whatever PayPal says.
    expect((await refund(order, "1.00")).status).toBe(200);
    expect(await orderRow(order)).toMatchObject({ status: "refunded", refunded: 1000 });
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(0);
  });

  it("never takes back days given to someone or a redeemed code: their price counts toward owed", async () => {
    const buyer = await registerUser(shop);
    const friend = await registerUser(shop, { tag: "friend" });
    const order = await pay(buyer, { amount: 2000 });
    expect((await gift(buyer, PRODUCTS.dota2.days7.id, friend.username)).status).toBe(200); // 7.99 straight to the friend
    const code = (await gift(buyer, PRODUCTS.dota2.days7.id)).body.gift.code as string; // 7.99 as a code the friend redeems
    expect((await shop.call("POST", "/v2/web/user/gift/redeem", { token: friend.token, json: { code } })).status).toBe(200);
    const friendEnd = await dotaEnd(friend);
    expect((await refund(order)).status).toBe(200);
    expect(await dotaEnd(friend)).toBe(friendEnd);
    expect(await balanceOf(shop, buyer.id)).toBe(0);
    expect(await owedOf(shop, buyer.id)).toBe(2 * 799);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(0);
  });

  it("voids an unredeemed code for its full price and gives back to the balance what that covers beyond the refund", async () => {
    const buyer = await registerUser(shop);
    await topUp(shop, buyer.id, 1000); // money of its own, before the refunded top-up
    const order = await pay(buyer, { amount: 1000 });
    const code = (await gift(buyer, PRODUCTS.dota2.days30.id)).body.gift.code as string; // 19.99: 0.01 left
    expect((await refund(order)).status).toBe(200);
    // 0.01 from the balance; the code is voided (19.99 counts), 9.99 of it was not the refund's.
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(1000);
    expect(await owedOf(shop, buyer.id)).toBe(0);
    expect((await shop.call("POST", "/v2/web/user/gift/redeem", { token: buyer.token, json: { code } })).status).toBe(404);
  });
});

describe("a refunded direct purchase", () => {
  it("loses its share of days, over partial refunds exactly its days, never time already used", async () => {
    const buyer = await registerUser(shop);
    await topUp(shop, buyer.id, 4999);
    expect((await purchase(buyer, PRODUCTS.dota2.days90.id)).status).toBe(200); // 90 days from the balance
    const start = now();
    const order = await pay(buyer, { product_id: PRODUCTS.dota2.days30.id }); // 30 days for 19.99 by PayPal
    expect(await dotaEnd(buyer)).toBe(start + 120 * DAY);
    await later(2 * DAY, buyer);
    expect((await refund(order, "9.99")).status).toBe(200);
    const part = Math.round((30 * 86_400 * 999) / 1999);
    expect(await dotaEnd(buyer)).toBe(start + 120 * DAY - part * 1000);
    expect((await refund(order, "10.00")).status).toBe(200);
    expect(await dotaEnd(buyer)).toBe(start + 90 * DAY);
    // The balance is not touched; the rows say what was paid back.
    expect((await rowsOf(shop, buyer.id)).filter((r) => r.type === "refund").map((r) => [r.amount, r.paid])).toEqual([
      [0, -999],
      [0, -1000],
    ]);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(0);

    // Five of seven days used: only the two left can go.
    const other = await registerUser(shop);
    const week = await pay(other, { product_id: PRODUCTS.dota2.days7.id });
    await later(5 * DAY, other);
    expect((await refund(week)).status).toBe(200);
    expect(await dotaEnd(other)).toBe(now());
    expect(await owedOf(shop, other.id)).toBe(0);
  });
});

describe("referral rewards", () => {
  it("are held REFERRAL_HOLD_DAYS and released by the job once, not a second earlier", async () => {
    const referrer = await registerUser(shop, { tag: "ref" });
    const buyer = await registerUser(shop, { referrer: await referralCode(referrer) });
    await pay(buyer, { amount: 1000 });
    const [reward] = await rewardsOf(referrer.id);
    expect(reward).toMatchObject({ status: "pending", amount: 100, buyerId: buyer.id, releaseAt: new Date(now() + 14 * DAY) });
    clock.advance(14 * DAY - 1000);
    await runJobsOnce(shop.services);
    expect(await rowsOf(shop, referrer.id)).toHaveLength(0);
    clock.advance(1000);
    await runJobsOnce(shop.services);
    await runJobsOnce(shop.services);
    expect((await rowsOf(shop, referrer.id)).map((r) => [r.type, r.amount, r.reference])).toEqual([["referral_reward", 100, `referral:${reward!.paymentReference}`]]);
    expect((await rewardsOf(referrer.id))[0]).toMatchObject({ status: "released", releasedAt: clock.now() });
  });

  it("shrink with a partial refund inside the hold and are cancelled by the rest, never credited", async () => {
    const referrer = await registerUser(shop, { tag: "ref" });
    const buyer = await registerUser(shop, { referrer: await referralCode(referrer) });
    const order = await pay(buyer, { amount: 1000 });
    await later(3 * DAY, buyer);
    expect((await refund(order, "4.00")).status).toBe(200);
    expect((await rewardsOf(referrer.id))[0]).toMatchObject({ status: "pending", amount: 100, reversed: 40 });
    await later(DAY, buyer);
    expect((await refund(order, "6.00")).status).toBe(200);
    expect((await rewardsOf(referrer.id))[0]).toMatchObject({ status: "cancelled", reversed: 100 });
    clock.advance(20 * DAY);
    await runJobsOnce(shop.services);
    expect(await rowsOf(shop, referrer.id)).toHaveLength(0);
  });

  it("are refused when buyer and referrer share a visitor id, a payer account, or a sign-up address within 30 days", async () => {
    const referrerOf = async (options: Parameters<typeof registerUser>[1]) => {
      const referrer = await registerUser(shop, { tag: "ref", ...options });
      return { referrer, code: await referralCode(referrer) };
    };

    // The same browser (visitor id t).
    const sameT = await referrerOf({ t: "VisitorAAAA00001" });
    const buyerT = await registerUser(shop, { referrer: sameT.code, t: "VisitorAAAA00001" });
    await pay(buyerT, { amount: 1000 });
    // The same PayPal account paid for both.
    const samePayer = await referrerOf({});
    await pay(samePayer.referrer, { amount: 500 }, "PAYERSHARED01");
    const buyerPayer = await registerUser(shop, { referrer: samePayer.code });
    await pay(buyerPayer, { amount: 1000 }, "PAYERSHARED01");
    // The same address, a day apart; and another buyer from there 31 days after the referrer.
    const sameIp = await referrerOf({ ip: "203.0.113.7" });
    clock.advance(DAY);
    const buyerIp = await registerUser(shop, { referrer: sameIp.code, ip: "203.0.113.7" });
    await pay(buyerIp, { amount: 1000 });
    clock.advance(30 * DAY);
    const lateBuyer = await registerUser(shop, { referrer: sameIp.code, ip: "203.0.113.7" });
    await pay(lateBuyer, { amount: 1000 });
    // Nothing shared.
    const honest = await referrerOf({ t: "VisitorBBBB00001", ip: "198.51.100.1" });
    const honestBuyer = await registerUser(shop, { referrer: honest.code, t: "VisitorCCCC00001", ip: "198.51.100.2" });
    await pay(honestBuyer, { amount: 1000 }, "PAYERHONEST01");

    expect((await rewardsOf(sameT.referrer.id)).map((r) => [r.status, r.reason])).toEqual([["refused", "same_visitor"]]);
    expect((await rewardsOf(samePayer.referrer.id)).map((r) => [r.status, r.reason])).toEqual([["refused", "same_payer"]]);
    expect((await rewardsOf(sameIp.referrer.id)).map((r) => [r.buyerId, r.status, r.reason])).toEqual([
      [buyerIp.id, "refused", "same_signup_address"],
      [lateBuyer.id, "pending", null],
    ]);
    expect((await rewardsOf(honest.referrer.id)).map((r) => [r.status, r.reason])).toEqual([["pending", null]]);
    // The payer id was recorded from PayPal's order.
    const [paid] = await shop.services.db.select().from(paymentOrders).where(eq(paymentOrders.userId, honestBuyer.id));
    expect(paid!.payerId).toBe("PAYERHONEST01");

    clock.advance(15 * DAY);
    await runJobsOnce(shop.services);
    expect(await rowsOf(shop, sameT.referrer.id)).toHaveLength(0);
    expect((await rowsOf(shop, samePayer.referrer.id)).map((r) => r.type)).toEqual(["topup"]);
    expect((await rowsOf(shop, sameIp.referrer.id)).map((r) => [r.type, r.amount])).toEqual([["referral_reward", 100]]);
    expect((await rowsOf(shop, honest.referrer.id)).map((r) => [r.type, r.amount])).toEqual([["referral_reward", 100]]);
  });
});

describe("a reversal (chargeback)", () => {
  it("takes back like a refund, suspends the buyer (sign-in refused, sessions ended, not entitled, no gifts), and twice is once", async () => {
    const buyer = await registerUser(shop, { lang: "ru" });
    const giver = await registerUser(shop, { tag: "giver", balance: 5000 });
    await topUp(shop, buyer.id, 199);
    expect((await purchase(buyer, PRODUCTS.cs2.days1.id)).status).toBe(200); // cs2, 1 day, paid before the payment
    const order = await pay(buyer, { amount: 3000 });
    expect((await purchase(buyer, PRODUCTS.dota2.days1.id)).status).toBe(200); // dota2, 1 day, paid by it
    const second = await signIn(shop, { ...buyer });
    expect((await shop.call("GET", "/v2/web/user/me", { token: second.token })).status).toBe(200);
    const ticket = await shop.call("POST", "/v2/web/sso/ticket", { token: second.token });
    expect(ticket.status, ticket.text).toBe(200);

    const id = shop.paypal.reverse(order.id);
    const event = shop.paypal.webhookEvent("PAYMENT.CAPTURE.REVERSED", order, { reversalId: id });
    expect((await webhook(event)).status).toBe(200);
    expect((await webhook(event)).status).toBe(200);

    const rows = await rowsOf(shop, buyer.id);
    expect(rows.filter((r) => r.type === "reversal").map((r) => [r.amount, r.paid, r.owedChange])).toEqual([
      [-2801, -3000, 0],
      [0, -199, 0],
    ]);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(0);
    expect(await orderRow(order)).toMatchObject({ status: "reversed", refunded: 3000 });
    const [account] = await shop.services.db.select().from(users).where(eq(users.id, buyer.id));
    expect(account).toMatchObject({ suspendedReason: "chargeback" });
    expect(account!.suspendedAt).not.toBeNull();

    // Every session ended; a new sign-in is refused, in the user's language, only with the right password.
    expect((await shop.call("GET", "/v2/web/user/me", { token: buyer.token })).status).toBe(401);
    expect((await shop.call("GET", "/v2/web/user/me", { token: second.token })).status).toBe(401);
    expect(
      await shop.services.db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, buyer.id), isNull(sessions.revokedAt))),
    ).toHaveLength(0);
    const wrong = await shop.call("POST", "/v2/web/login", { json: { login: buyer.email, password: "Not-The-Password-1" }, lang: "ru" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("invalid_credentials");
    const ru = await shop.call("POST", "/v2/web/login", { json: { login: buyer.email, password: PASSWORD }, lang: "ru" });
    expect(ru.status).toBe(403);
    expect(ru.body).toMatchObject({ status: false, code: "account_suspended", message: "Этот аккаунт заблокирован. Обратитесь в поддержку: help@shop.test." });
    expect(ru.body.token).toBeUndefined();
    const en = await shop.call("POST", "/v2/web/login", { json: { login: buyer.username, password: PASSWORD }, lang: "en" });
    expect(en.body.message).toBe("This account is suspended. Please contact support: help@shop.test.");
    expect(
      await shop.services.db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, buyer.id), isNull(sessions.revokedAt))),
    ).toHaveLength(0);
    // A sign-in link made before opens no session either; and a session is refused while the
    // account is suspended, even one that was somehow not ended.
    const meta = { ip: "local", locale: "en" as const };
    await expect(shop.services.accounts.consumeSsoTicket(ticket.body.ticket as string, meta)).rejects.toMatchObject({ code: "account_suspended" });
    await shop.services.db.update(sessions).set({ revokedAt: null }).where(eq(sessions.userId, buyer.id));
    expect((await shop.call("GET", "/v2/web/user/me", { token: second.token })).status).toBe(401);
    await shop.services.db.update(sessions).set({ revokedAt: clock.now() }).where(eq(sessions.userId, buyer.id));

    // The cs2 pass bought before is still active, but entitles no more; nobody can send gifts.
    const cs2 = await shop.services.subscriptions.forCheat(buyer.id, GAMES.cs2.id);
    expect(cs2!.state).toBe("active");
    expect(isEntitled(cs2!, account!)).toBe(false);
    const refused = await gift(giver, PRODUCTS.dota2.days1.id, buyer.username);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("conflict");
    expect(await balanceOf(shop, giver.id)).toBe(5000);
    // By e-mail the answer tells nothing (docs/product/money.md#gifts): the gift goes out as a code by mail, as to
    // an unknown address, and the suspended account gets no days.
    const before = await shop.services.subscriptions.list(buyer.id);
    const byEmail = await gift(giver, PRODUCTS.dota2.days1.id, buyer.email);
    expect(byEmail.status, byEmail.text).toBe(200);
    expect(byEmail.body.gift).toMatchObject({ code: null, redeemed: null, delivered: true });
    expect(await shop.services.subscriptions.list(buyer.id)).toEqual(before);
  });

  it("with twenty deliveries of a refund and two of a reversal at once, applies each once", async () => {
    const buyer = await registerUser(shop);
    const friend = await registerUser(shop, { tag: "friend" });
    const order = await pay(buyer, { amount: 5000 });
    expect((await gift(buyer, PRODUCTS.dota2.days7.id, friend.username)).status).toBe(200); // 7.99 given straight
    const codes = [(await gift(buyer, PRODUCTS.dota2.days30.id)).body.gift.code as string, (await gift(buyer, PRODUCTS.dota2.days30.id)).body.gift.code as string]; // 2 × 19.99: 2.03 left
    const friendEnd = await dotaEnd(friend);
    const refundEvent = shop.paypal.webhookEvent("PAYMENT.CAPTURE.REFUNDED", order, { refundId: shop.paypal.refund(order.id, "20.00") });
    const reversalEvent = shop.paypal.webhookEvent("PAYMENT.CAPTURE.REVERSED", order, { reversalId: shop.paypal.reverse(order.id, "30.00") });
    const replies = await Promise.all([...Array.from({ length: 20 }, () => webhook(refundEvent)), webhook(reversalEvent), webhook(reversalEvent)]);
    for (const reply of replies) expect(reply.status, reply.text).toBe(200);

    // Whichever came first: both codes voided, the 7.99 given stays with the friend and is owed.
    const rows = await rowsOf(shop, buyer.id);
    expect(rows.filter((r) => r.reference === `paypal:refund:${refundEvent.resource.id as string}`)).toHaveLength(1);
    expect(rows.filter((r) => r.reference === `paypal:reversal:${reversalEvent.resource.id as string}`)).toHaveLength(1);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(0);
    expect(await owedOf(shop, buyer.id)).toBe(799);
    const codeRows = await shop.services.db.select().from(gifts).where(eq(gifts.giverId, buyer.id));
    expect(codeRows.filter((g) => codes.includes(g.code)).every((g) => g.voidedAt !== null)).toBe(true);
    expect(await dotaEnd(friend)).toBe(friendEnd);
    expect(await orderRow(order)).toMatchObject({ status: "reversed", refunded: 5000 });
    const [account] = await shop.services.db.select().from(users).where(eq(users.id, buyer.id));
    expect(account!.suspendedReason).toBe("chargeback");
  });
});

describe("events in an unusual order", () => {
  it("a dispute flags the payment for operators and moves no money", async () => {
    const buyer = await registerUser(shop);
    const order = await pay(buyer, { amount: 1500 });
    const event = shop.paypal.webhookEvent("CUSTOMER.DISPUTE.CREATED", order);
    expect((await webhook(event)).status).toBe(200);
    expect((await webhook(event)).status).toBe(200);
    expect(await orderRow(order)).toMatchObject({ status: "completed", disputeId: event.resource.dispute_id });
    expect((await orderRow(order)).disputedAt).not.toBeNull();
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(1500);
  });

  it("a refund announced before its capture is booked waits (409, PayPal resends it) and then applies once", async () => {
    const buyer = await registerUser(shop);
    const created = await shop.call("POST", "/v2/web/payment/paypal/order", { token: buyer.token, json: { amount: 1200 } });
    shop.paypal.captureAtProvider(created.body.order_id);
    const order = shop.paypal.orders.get(created.body.order_id)!;
    const refundEvent = shop.paypal.webhookEvent("PAYMENT.CAPTURE.REFUNDED", order, { refundId: shop.paypal.refund(order.id) });
    const early = await webhook(refundEvent);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ status: false, code: "payment_pending" });
    expect(await rowsOf(shop, buyer.id)).toHaveLength(0);
    expect((await webhook(shop.paypal.webhookEvent("PAYMENT.CAPTURE.COMPLETED", order))).status).toBe(200);
    expect((await webhook(refundEvent)).status).toBe(200);
    expect((await webhook(refundEvent)).status).toBe(200);
    expect((await rowsOf(shop, buyer.id)).map((r) => [r.type, r.amount])).toEqual([
      ["topup", 1200],
      ["refund", -1200],
    ]);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(0);
    // An event about a capture that is nobody's here is acknowledged.
    const stranger = structuredClone(refundEvent);
    stranger.resource.id = "REF-NOT-OURS";
    (stranger.resource.links as { rel: string; href: string }[])[1]!.href = `${shop.paypal.url}/v2/payments/captures/NOT-OURS`;
    stranger.resource.custom_id = "999999";
    expect((await webhook(stranger)).status).toBe(200);
  });
});
