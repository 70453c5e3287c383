// Customers in the back office (docs/product/back-office.md#customers, issue 10 point 3): search by
// every key docs/product/back-office.md#customers names, the detail an operator works from, and each action — grant or remove
// days, adjust the balance, suspend and lift, reset two-factor codes, end sessions, resend a mail —
// with what it does to the buyer's account as the buyer sees it.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { paymentOrders, users } from "../../db/schema/index.ts";
import { manualClock } from "../../core/shared/clock.ts";
import { GAMES, PASSWORD, PRODUCTS, balanceOf, expectConsistentLedger, registerUser, signIn, subscriptionOf, subscriptionsOf, topUp, useShop, type Reply } from "../kit/shop.ts";
import { auditEntries, enableTwoFa, payByPayPal, signInWithCode, useStaff } from "./admin-kit.ts";

const DAY = 86_400_000;
const clock = manualClock(new Date("2026-07-01T00:00:00.000Z"));
const shop = useShop({ paypal: true, clock, env: { SUPPORT_EMAIL: "help@shop.test" } });

const { owner, support } = useStaff(shop, clock, { buyer: null });

/** Moves the clock; the operators sign in again (an operator session lasts 12 hours). */
async function advance(ms: number) {
  clock.advance(ms);
  for (const operator of [owner, support]) operator.token = await signInWithCode(shop, clock, operator, operator.secret);
}

const post = (token: string, path: string, json: Record<string, unknown>, lang = "en"): Promise<Reply> => shop.call("POST", path, { token, json, lang });
const search = async (q: string) => {
  const reply = await shop.call("GET", `/v2/admin/users?q=${encodeURIComponent(q)}`, { token: support.token });
  expect(reply.status, reply.text).toBe(200);
  return (reply.body.users as { id: number }[]).map((u) => u.id);
};

describe("search", () => {
  it("finds a buyer by id, e-mail (any case, or its start), username, referral code, visitor id and payment reference", async () => {
    const buyer = await registerUser(shop, { tag: "findme", t: "VISITORabc123XYZ" });
    const other = await registerUser(shop, { tag: "other" });
    const { order, paymentId } = await payByPayPal(shop, buyer, { amount: 1500 });
    const [row] = await shop.services.db.select().from(users).where(eq(users.id, buyer.id));
    for (const q of [
      String(buyer.id),
      buyer.email,
      buyer.email.toUpperCase(),
      buyer.email.slice(0, buyer.email.indexOf("@")),
      buyer.username,
      row!.referralCode,
      row!.referralCode.toLowerCase(),
      "VISITORabc123XYZ",
      order.id,
      order.capture!.id,
      order.payerId,
    ]) {
      expect(await search(q), q).toContain(buyer.id);
      expect(await search(q), q).not.toContain(other.id);
    }
    expect(await search(String(paymentId))).toContain(buyer.id);
    // A LIKE wildcard is a character like any other.
    expect(await search("%")).toEqual([]);
    expect(await search("nobody-at-all@nowhere.example")).toEqual([]);
    const none = await shop.call("GET", "/v2/admin/users?q=", { token: support.token });
    expect(none.status).toBe(400);
    const many = await shop.call("GET", "/v2/admin/users?q=buyer", { token: support.token });
    expect(many.body.users.length).toBeLessThanOrEqual(50);
  });
});

describe("the customer detail", () => {
  it("shows the profile, passes per game, the ledger with its running balance, payments, sessions, referrals, notifications, mails and audit", async () => {
    const referrer = await registerUser(shop, { tag: "referrer" });
    const [{ referralCode }] = (await shop.services.db.select({ referralCode: users.referralCode }).from(users).where(eq(users.id, referrer.id))) as [{ referralCode: string }];
    const buyer = await registerUser(shop, { tag: "detailed", referrer: referralCode });
    const { paymentId } = await payByPayPal(shop, buyer, { amount: 3000 });
    const bought = await post(buyer.token, "/v2/web/user/purchase", { product_id: PRODUCTS.dota2.days7.id });
    expect(bought.status).toBe(200);
    // The game's client binds one device to the pass's licence.
    const key = (bought.body.subscriptions as { cheat_id: number; licence_key: string }[]).find((p) => p.cheat_id === GAMES.dota2.id)!.licence_key;
    const activated = await shop.call("POST", "/v2/client/activate", { json: { key, hwid: "detail-device-hwid", client_version: "1.2.3" } });
    expect(activated.status, activated.text).toBe(200);
    expect((await post(buyer.token, "/v2/web/user/subscriptions/freeze", { cheat_id: GAMES.dota2.id })).status).toBe(200);
    await shop.services.mailer.send({ to: buyer.email, locale: "en", template: "password_changed" });

    const reply = await shop.call("GET", `/v2/admin/users/${buyer.id}`, { token: support.token });
    expect(reply.status, reply.text).toBe(200);
    const d = reply.body;
    expect(d.user).toMatchObject({ id: buyer.id, email: buyer.email, role: null, suspended: false, balance: 2201, owed: 0, referrer_id: referrer.id, two_fa_enabled: false });
    expect(d.user).not.toHaveProperty("password_hash");
    expect(JSON.stringify(d)).not.toMatch(/password_hash|two_fa_secret|token_hash|code_hash/);
    expect(d.subscriptions).toHaveLength(1);
    expect(d.subscriptions[0]).toMatchObject({ cheat_id: GAMES.dota2.id, state: "frozen", frozen_length: 7 * 86_400, game: { slug: "dota2", name: "Dota 2" } });
    // A licence key exists from the purchase on; support sees only its last four characters.
    expect(d.subscriptions[0].licence_key).toMatch(/^\*+[0-9A-Z]{4}$/);
    expect(d.devices).toEqual([{ id: expect.any(Number), cheat_id: GAMES.dota2.id, client_version: "1.2.3", first_seen_at: expect.any(String), last_seen_at: expect.any(String) }]);
    expect(JSON.stringify(d)).not.toContain("detail-device-hwid");
    expect(d.transactions.map((t: { type: string; amount: number; balance_after: number }) => [t.type, t.amount, t.balance_after])).toEqual([
      ["purchase", -799, 2201],
      ["topup", 3000, 3000],
    ]);
    expect(d.transactions[1]).toMatchObject({ payment_id: paymentId, reference: expect.stringMatching(/^paypal:capture:/) });
    expect(d.payments).toHaveLength(1);
    expect(d.payments[0]).toMatchObject({ id: paymentId, status: "completed", amount: 3000, user_email: buyer.email });
    expect(d.sessions[0]).toMatchObject({ kind: "full", live: true });
    expect(d.notifications[0]).toMatchObject({ type: "payment_completed" });
    expect(d.mails[0]).toMatchObject({ template: "password_changed", to: buyer.email, resendable: true });
    const ofReferrer = (await shop.call("GET", `/v2/admin/users/${referrer.id}`, { token: support.token })).body;
    expect(ofReferrer.referrals.invited).toBe(1);
    expect(ofReferrer.referrals.invitees[0]).toMatchObject({ id: buyer.id, email: buyer.email });
    expect(ofReferrer.referrals.rewards[0]).toMatchObject({ buyer_id: buyer.id, amount: 300, status: "pending" });

    await post(owner.token, `/v2/admin/users/${buyer.id}/grant`, { cheat_id: GAMES.cs2.id, days: 2, reason: "detail check" });
    const audited = (await shop.call("GET", `/v2/admin/users/${buyer.id}`, { token: support.token })).body.audit;
    expect(audited[0]).toMatchObject({ action: "user.grant", actor_id: owner.id, reason: "detail check" });
    expect((await shop.call("GET", "/v2/admin/users/99999999", { token: support.token })).status).toBe(404);
    expect((await shop.call("GET", "/v2/admin/users/12abc", { token: support.token })).status).toBe(404);
  });
});

describe("actions", () => {
  it("grants days as a purchase would (live extended, frozen kept in the freeze, none started now), tells the buyer, and removes them without touching used time", async () => {
    const buyer = await registerUser(shop, { balance: 5000 });
    expect((await post(buyer.token, "/v2/web/user/purchase", { product_id: PRODUCTS.dota2.days7.id })).status).toBe(200);
    expect((await post(buyer.token, "/v2/web/user/purchase", { product_id: PRODUCTS.minecraft.days7.id })).status).toBe(200);
    expect((await post(buyer.token, "/v2/web/user/subscriptions/freeze", { cheat_id: GAMES.minecraft.id })).status).toBe(200);
    const before = await subscriptionsOf(shop, buyer.token);

    const live = await post(support.token, `/v2/admin/users/${buyer.id}/grant`, { cheat_id: GAMES.dota2.id, days: 3, reason: "outage" });
    expect(live.status, live.text).toBe(200);
    const dota = subscriptionOf(live, GAMES.dota2.id)!;
    expect(new Date(dota.expires_at).getTime() - new Date(subscriptionOf(before, GAMES.dota2.id)!.expires_at).getTime()).toBe(3 * DAY);
    const frozen = await post(support.token, `/v2/admin/users/${buyer.id}/grant`, { cheat_id: GAMES.minecraft.id, days: 3, reason: "outage" });
    expect(subscriptionOf(frozen, GAMES.minecraft.id)).toMatchObject({ state: "frozen", frozen_length: 10 * 86_400 });
    const started = await post(support.token, `/v2/admin/users/${buyer.id}/grant`, { cheat_id: GAMES.cs2.id, days: 3, reason: "welcome back" });
    expect(subscriptionOf(started, GAMES.cs2.id)).toMatchObject({ state: "active", expires_at: new Date(clock.now().getTime() + 3 * DAY).toISOString() });
    const notes = await shop.call("GET", "/v2/web/user/notification", { token: buyer.token });
    expect(notes.body.notifications[0]).toMatchObject({ type: "days_granted", content: "3 days were added to your Counter-Strike 2 subscription." });

    await advance(DAY);
    const removed = await post(owner.token, `/v2/admin/users/${buyer.id}/grant`, { cheat_id: GAMES.cs2.id, days: -5, reason: "granted by mistake" });
    expect(removed.status).toBe(200);
    expect(subscriptionOf(removed, GAMES.cs2.id)).toMatchObject({ remaining_seconds: 0, expires_at: clock.now().toISOString() });
    const [entry] = await auditEntries(shop, "user.grant", 1);
    expect(entry).toMatchObject({ actorId: owner.id, reason: "granted by mistake", after: { cheat_id: GAMES.cs2.id, days: -5, subscription: { remaining_seconds: 0 } } });
    expect((await post(owner.token, `/v2/admin/users/${buyer.id}/grant`, { cheat_id: 999, days: 1, reason: "x" })).status).toBe(404);
    expect((await post(owner.token, `/v2/admin/users/${buyer.id}/grant`, { cheat_id: 1, days: 0, reason: "x" })).status).toBe(400);
    expect((await post(owner.token, `/v2/admin/users/${buyer.id}/grant`, { cheat_id: 1, days: 1.5, reason: "x" })).status).toBe(400);
  });

  it("adjusts the balance either way as an adjustment row, never below zero", async () => {
    const buyer = await registerUser(shop);
    await topUp(shop, buyer.id, 1000);
    const code = owner.code();
    const up = await post(owner.token, `/v2/admin/users/${buyer.id}/balance`, { amount: 250, reason: "goodwill", code });
    expect(up.status, up.text).toBe(200);
    expect(up.body).toMatchObject({ balance: 1250, transaction: { type: "adjustment", amount: 250, source: "system" } });
    const down = await post(owner.token, `/v2/admin/users/${buyer.id}/balance`, { amount: -1250, reason: "chargeback outside PayPal" });
    expect(down.body.balance).toBe(0);
    const below = await post(owner.token, `/v2/admin/users/${buyer.id}/balance`, { amount: -1, reason: "too much" });
    expect(below.status).toBe(409);
    expect(below.body.code).toBe("insufficient_balance");
    expect(await balanceOf(shop, buyer.id)).toBe(0);
    await expectConsistentLedger(shop, buyer.id);
    const [entry] = await auditEntries(shop, "user.balance", 1);
    expect(entry).toMatchObject({ before: { balance: 1250 }, after: { balance: 0, amount: -1250 } });
  });

  it("suspends (sign-in refused in the buyer's language with the support contact, sessions ended, no gifts) and lifts", async () => {
    const buyer = await registerUser(shop, { lang: "ru" });
    const suspended = await post(support.token, `/v2/admin/users/${buyer.id}/suspend`, { reason: "card testing" });
    expect(suspended.status, suspended.text).toBe(200);
    expect(suspended.body.user).toMatchObject({ suspended: true, suspended_reason: "operator" });
    expect((await shop.call("GET", "/v2/web/user/me", { token: buyer.token })).status).toBe(401);
    const login = await shop.call("POST", "/v2/web/login", { json: { login: buyer.email, password: PASSWORD }, lang: "ru" });
    expect(login.status).toBe(403);
    expect(login.body).toMatchObject({ code: "account_suspended", message: "Этот аккаунт заблокирован. Обратитесь в поддержку: help@shop.test." });
    expect((await post(support.token, `/v2/admin/users/${buyer.id}/suspend`, { reason: "again" })).status).toBe(409);

    const lifted = await post(support.token, `/v2/admin/users/${buyer.id}/unsuspend`, { reason: "cleared by the bank" });
    expect(lifted.body.user).toMatchObject({ suspended: false, suspended_at: null });
    await signIn(shop, buyer);
    expect((await post(support.token, `/v2/admin/users/${buyer.id}/unsuspend`, { reason: "again" })).status).toBe(409);
    const entries = await auditEntries(shop, undefined, 5);
    expect(entries.filter((e) => e.targetId === String(buyer.id)).map((e) => e.action)).toEqual(["user.unsuspend", "user.suspend"]);
  });

  it("resets two-factor codes: the buyer signs in with the password alone and is told by a notification and a mail", async () => {
    const buyer = await registerUser(shop);
    await enableTwoFa(shop, clock, buyer);
    const reply = await post(support.token, `/v2/admin/users/${buyer.id}/reset-2fa`, { reason: "lost phone, identity checked" });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.user.two_fa_enabled).toBe(false);
    const login = await shop.call("POST", "/v2/web/login", { json: { login: buyer.email, password: PASSWORD } });
    expect(login.body.twoFa).toBeUndefined();
    expect(login.body.token).toBeTruthy();
    const notes = await shop.call("GET", "/v2/web/user/notification", { token: login.body.token });
    expect(notes.body.notifications[0].type).toBe("two_fa_disabled");
    const detail = await shop.call("GET", `/v2/admin/users/${buyer.id}`, { token: support.token });
    expect(detail.body.mails[0]).toMatchObject({ template: "two_fa_disabled", to: buyer.email });
    expect((await post(support.token, `/v2/admin/users/${buyer.id}/reset-2fa`, { reason: "again" })).status).toBe(409);
  });

  it("ends one session or every session of the buyer", async () => {
    const buyer = await registerUser(shop);
    const second = await signIn(shop, { ...buyer });
    const detail = await shop.call("GET", `/v2/admin/users/${buyer.id}`, { token: support.token });
    const live = detail.body.sessions.filter((s: { live: boolean }) => s.live);
    expect(live).toHaveLength(2);
    const one = await post(support.token, `/v2/admin/users/${buyer.id}/sessions/end`, { session_id: live[0].id, reason: "unknown device" });
    expect(one.body.ended).toBe(1);
    expect((await shop.call("GET", "/v2/web/user/me", { token: second.token })).status).toBe(401);
    expect((await shop.call("GET", "/v2/web/user/me", { token: buyer.token })).status).toBe(200);
    expect((await post(support.token, `/v2/admin/users/${buyer.id}/sessions/end`, { session_id: live[0].id, reason: "again" })).status).toBe(404);
    const all = await post(support.token, `/v2/admin/users/${buyer.id}/sessions/end`, { reason: "account shared" });
    expect(all.body.ended).toBe(1);
    expect((await shop.call("GET", "/v2/web/user/me", { token: buyer.token })).status).toBe(401);
  });

  it("resends a mail without secrets to the buyer's current address in their language; never a reset code", async () => {
    const buyer = await registerUser(shop, { lang: "es" });
    const [row] = await shop.services.db.select().from(users).where(eq(users.id, buyer.id));
    const giftMail = await shop.services.mailer.send({ to: buyer.email, locale: "en", template: "gift_code", params: { game: "Minecraft", days: 7, code: "ABCDEFGH2345" } });
    const resetMail = await shop.services.mailer.send({
      to: buyer.email,
      locale: row!.locale,
      template: "password_reset",
      params: { code: "123456", link: "http://localhost/auth/reset?code=123456" },
    });

    const resent = await post(support.token, `/v2/admin/users/${buyer.id}/mails/resend`, { mail_id: giftMail, reason: "did not arrive" });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body.mail).toMatchObject({ template: "gift_code", to: buyer.email, resendable: true });
    expect(resent.body.mail.id).toBeGreaterThan(resetMail);
    const [copy] = await shop.services.mailer.listOutbox(1);
    expect(copy).toMatchObject({ id: resent.body.mail.id, locale: "es" });
    expect(copy!.text).toContain("ABCDEFGH2345");

    const secret = await post(support.token, `/v2/admin/users/${buyer.id}/mails/resend`, { mail_id: resetMail, reason: "did not arrive" });
    expect(secret.status).toBe(409);
    expect(secret.body.message).toMatch(/one-time code or link/);
    const other = await registerUser(shop);
    expect((await post(support.token, `/v2/admin/users/${other.id}/mails/resend`, { mail_id: giftMail, reason: "wrong user" })).status).toBe(404);
    const [entry] = await auditEntries(shop, "user.resend_mail", 1);
    expect(entry).toMatchObject({ actorId: support.id, before: { mail_id: giftMail, template: "gift_code" }, after: { to: buyer.email } });
  });

  it("refuses a refund of an operator's own payment like any action on an operator's account", async () => {
    const { paymentId } = await payByPayPal(shop, support, { amount: 1000 });
    const [order] = await shop.services.db.select().from(paymentOrders).where(eq(paymentOrders.id, paymentId));
    expect(order!.status).toBe("completed");
    const reply = await post(owner.token, `/v2/admin/payments/${paymentId}/refund`, { reason: "self", code: owner.code() });
    expect(reply.status).toBe(403);
    expect(reply.body.message).toBe("Operators' accounts cannot be changed in the back office.");
  });
});
