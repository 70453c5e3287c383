// A buyer's own account, end to end (issue 9 point 7, docs/product/accounts.md): the address proven
// by the welcome mail's link before any gift; deleting the account with its password — anonymised,
// every session ended, the ledger kept — unless money rules forbid it; and the data export.
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { gifts, mailOutbox, notifications, oneTimeCodes, sessions, subscriptions, transactions, users } from "../../db/schema/index.ts";
import { PENDING_ORDER_HOURS, deletedEmail } from "../../core/accounts/index.ts";
import { isDomainError } from "../../core/shared/errors.ts";
import { GAMES, PASSWORD, PRODUCTS, expectConsistentLedger, registerUser, rowsOf, topUp, uniqueEmail, useShop, type User } from "../kit/shop.ts";
import { verificationToken } from "../kit/verification.ts";
import { pageText } from "../kit/html.ts";
import type { Locale } from "../../i18n/locales.ts";

const shop = useShop({ pages: true, env: { SUPPORT_EMAIL: "help@shop.test" } });
const t = (key: Parameters<ReturnType<typeof shop.services.catalogs.t>>[0], params?: Record<string, string | number>, locale: Locale = "en") => shop.services.catalogs.t(locale)(key, params);
const origin = () => shop.services.settings.PUBLIC_URL;

const me = async (user: User) => shop.call("GET", "/v2/web/user/me", { token: user.token });
const gift = (user: User, lang = "en") => shop.call("POST", "/v2/web/user/gift", { token: user.token, json: { product_id: PRODUCTS.dota2.days1.id }, lang });

async function outboxTo(email: string) {
  await shop.services.background.drain();
  return shop.services.db
    .select()
    .from(mailOutbox)
    .where(eq(sql`lower(${mailOutbox.to})`, email.toLowerCase()));
}

async function postForm(path: string, token: string, fields: Record<string, string>) {
  const res = await shop.request(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: origin(), "sec-fetch-site": "same-origin", cookie: `access_token=${token}` },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  return { status: res.status, location: res.headers.get("location"), cookies: res.headers.getSetCookie(), text: pageText(await res.text()) };
}

describe("a verified address", () => {
  it("comes with the welcome mail's link in the buyer's language; until it is opened, no gifts", async () => {
    const user = await registerUser(shop, { balance: 2000, verified: false, lang: "es" });
    expect((await me(user)).body.user.email_verified).toBe(false);
    const [welcome] = await outboxTo(user.email);
    expect(welcome!.locale).toBe("es");
    expect(welcome!.subject).toBe(t("mail.welcome.subject", {}, "es"));
    expect(welcome!.text).toMatch(/http:\/\/localhost\/es\/auth\/verify-email\?token=[A-Za-z0-9_-]{20,}/);

    const refused = await gift(user, "es");
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("email_unverified");
    expect(refused.body.message).toBe(t("errors.email_unverified", {}, "es"));
    expect((await rowsOf(shop, user.id)).filter((r) => r.type === "gift")).toEqual([]);

    // The link, opened from the mail: the page says so, once.
    const token = await verificationToken(shop, user.email);
    const page = await shop.request(`/es/auth/verify-email?token=${token}`);
    expect(page.status).toBe(200);
    expect(pageText(await page.text())).toContain(t("auth.verifyEmail.done", { email: user.email }, "es"));
    expect((await me(user)).body.user.email_verified).toBe(true);
    expect(pageText(await (await shop.request(`/es/auth/verify-email?token=${token}`)).text())).toContain(t("auth.verifyEmail.invalid", {}, "es"));
    expect((await gift(user)).status).toBe(200);
    // Once verified, there is nothing to send again.
    const again = await shop.call("POST", "/v2/web/user/verify-email/resend", { token: user.token });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(t("errors.email_already_verified"));
  });

  it("can be asked for again: the new link works, the older one no longer", async () => {
    const user = await registerUser(shop, { verified: false });
    const first = await verificationToken(shop, user.email);
    expect((await shop.call("POST", "/v2/web/user/verify-email/resend", { token: user.token })).status).toBe(200);
    const second = await verificationToken(shop, user.email);
    expect(second).not.toBe(first);
    const old = await shop.call("POST", "/v2/web/verify-email", { json: { token: first } });
    expect(old.status).toBe(400);
    expect(old.body.code).toBe("invalid_link");
    const ok = await shop.call("POST", "/v2/web/verify-email", { json: { token: second } });
    expect(ok.status).toBe(200);
    expect(ok.body.user.email_verified).toBe(true);
    expect((await shop.call("POST", "/v2/web/verify-email", { json: { token: "not a token" } })).status).toBe(400);
  });

  it("is proven by an e-mail change's link too, and a link to an address the account left is dead", async () => {
    const user = await registerUser(shop, { verified: false });
    const oldToken = await verificationToken(shop, user.email);
    const fresh = uniqueEmail("moved");
    expect((await shop.call("POST", "/v2/web/user/changeEmail", { token: user.token, json: { email: fresh } })).status).toBe(200);
    await shop.services.background.drain();
    const [confirm] = (await outboxTo(fresh)).filter((m) => m.text.includes("/auth/confirm-email?token="));
    const confirmToken = /confirm-email\?token=([A-Za-z0-9_-]+)/.exec(confirm!.text)![1]!;
    expect((await shop.request(`/en/auth/confirm-email?token=${confirmToken}`)).status).toBe(200);
    const after = await me(user);
    expect(after.body.user.email).toBe(fresh);
    expect(after.body.user.email_verified).toBe(true);
    // The welcome link was for the old address: it proves nothing about the new one.
    await shop.services.db.update(users).set({ emailVerified: false }).where(eq(users.id, user.id));
    expect((await shop.call("POST", "/v2/web/verify-email", { json: { token: oldToken } })).status).toBe(400);
    expect((await me(user)).body.user.email_verified).toBe(false);
  });
});

describe("deleting an account", () => {
  it("needs the password: a wrong one changes nothing", async () => {
    const user = await registerUser(shop);
    const wrong = await shop.call("POST", "/v2/web/user/delete", { token: user.token, json: { password: "Not-The-Password-1" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ password: t("validation.password_wrong") });
    expect((await me(user)).status).toBe(200);
    expect((await shop.call("POST", "/v2/web/user/delete", { token: user.token, json: {} })).status).toBe(400);
    expect((await shop.call("POST", "/v2/web/user/delete", { json: { password: PASSWORD } })).status).toBe(401);
  });

  it("anonymises the account, ends every session and keeps the ledger, the passes and the gifts", async () => {
    const user = await registerUser(shop, { balance: 5000 });
    const other = await shop.call("POST", "/v2/web/login", { json: { login: user.email, password: PASSWORD } });
    expect(other.status).toBe(200);
    expect((await shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: PRODUCTS.minecraft.days30.id } })).status).toBe(200);
    const coded = await gift(user);
    expect(coded.status).toBe(200);
    const ledgerBefore = await rowsOf(shop, user.id);
    const [before] = await shop.services.db.select().from(users).where(eq(users.id, user.id));

    const deleted = await shop.call("POST", "/v2/web/user/delete", { token: user.token, json: { password: PASSWORD } });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.headers.getSetCookie().some((c) => /^access_token=;/.test(c))).toBe(true);

    // Every session is over, this one and the other device's.
    expect((await me(user)).status).toBe(401);
    expect((await shop.call("GET", "/v2/web/user/me", { token: other.body.token })).status).toBe(401);
    const { db } = shop.services;
    const live = await db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(live.length).toBeGreaterThan(0);
    for (const s of live) expect(s).toMatchObject({ revokedAt: expect.any(Date), ip: null, userAgent: null });

    // Who they were is gone.
    const [after] = await db.select().from(users).where(eq(users.id, user.id));
    expect(after).toMatchObject({
      email: deletedEmail(user.id),
      username: null,
      pendingEmail: null,
      twoFaSecret: null,
      twoFaEnabled: false,
      visitorId: null,
      signupIp: null,
      allowMarketing: false,
      emailVerified: false,
      deletedAt: expect.any(Date),
    });
    expect(after!.passwordHash).not.toBe(before!.passwordHash);
    expect(after!.referralCode).not.toBe(before!.referralCode);
    expect(await db.select().from(notifications).where(eq(notifications.userId, user.id))).toEqual([]);
    expect(await db.select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, user.id))).toEqual([]);
    // Mail kept for the books has no recipient or text left; the old address has only the notice of the deletion.
    expect((await outboxTo(user.email)).map((m) => m.subject)).toEqual([t("mail.account_deleted.subject")]);
    const anonymousMail = await outboxTo(deletedEmail(user.id));
    expect(anonymousMail.length).toBeGreaterThan(0);
    for (const m of anonymousMail) expect(m).toMatchObject({ subject: "", text: "", html: "" });

    // What the money rules need stays as it was: the ledger, the balance it sums to, the pass, the gift.
    expect(await rowsOf(shop, user.id)).toEqual(ledgerBefore);
    expect(after!.balance).toBe(before!.balance);
    await expectConsistentLedger(shop, user.id);
    expect(
      await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, user.id), eq(subscriptions.cheatId, GAMES.minecraft.id))),
    ).toHaveLength(1);
    expect(await db.select().from(gifts).where(eq(gifts.code, coded.body.gift.code))).toHaveLength(1);
    expect((await db.select().from(transactions).where(eq(transactions.userId, user.id))).length).toBe(ledgerBefore.length);

    // Nobody can sign in as them, nor give them anything; the address is free for a new account.
    const signIn = await shop.call("POST", "/v2/web/login", { json: { login: user.email, password: PASSWORD } });
    expect(signIn.status).toBe(401);
    expect(signIn.body.code).toBe("invalid_credentials");
    const giver = await registerUser(shop, { balance: 1000 });
    expect((await shop.call("POST", "/v2/web/user/gift", { token: giver.token, json: { product_id: PRODUCTS.dota2.days1.id, recipient: user.username } })).status).toBe(404);
    const again = await shop.call("POST", "/v2/web/register", { json: { email: user.email, password: PASSWORD } });
    expect(again.status, again.text).toBe(200);
    // The old address was told, once.
    const told = (await outboxTo(user.email)).filter((m) => m.subject === t("mail.account_deleted.subject"));
    expect(told).toHaveLength(1);
  });

  it("is refused while something is owed, a payment is under way, or the account is suspended", async () => {
    const { db, ledger, accounts, suspensions, clock } = shop.services;
    const meta = { ip: "127.0.0.1", locale: "en" as const };

    const owing = await registerUser(shop);
    await db.transaction((tx) => ledger.post(tx, { userId: owing.id, type: "refund", amount: 0, owedChange: 300, source: "system" }, clock.now()));
    const owed = await shop.call("POST", "/v2/web/user/delete", { token: owing.token, json: { password: PASSWORD } });
    expect(owed.status).toBe(409);
    expect(owed.body).toMatchObject({ code: "deletion_refused", message: t("errors.deletion_owed", { support: "help@shop.test" }) });
    expect((await me(owing)).status).toBe(200);

    const paying = await registerUser(shop);
    const order = await shop.call("POST", "/v2/web/payment/paypal/order", { token: paying.token, json: { product_id: PRODUCTS.cs2.days7.id } });
    expect(order.status, order.text).toBe(200);
    const pending = await shop.call("POST", "/v2/web/user/delete", { token: paying.token, json: { password: PASSWORD } });
    expect(pending.status).toBe(409);
    expect(pending.body.message).toBe(t("errors.deletion_payment_pending"));
    // An order left unpaid past PayPal's window no longer holds the account.
    // On the shop's clock, which the deletion reads (not the database server's now()).
    const longAgo = new Date(clock.now().getTime() - (PENDING_ORDER_HOURS + 1) * 3600 * 1000);
    await db.execute(sql`update payment_orders set created_at = ${longAgo.toISOString()}::timestamptz where user_id = ${paying.id}`);
    const afterWindow = await shop.call("POST", "/v2/web/user/delete", { token: paying.token, json: { password: PASSWORD } });
    expect(afterWindow.status, afterWindow.text).toBe(200);

    const suspended = await registerUser(shop);
    await db.transaction((tx) => suspensions.suspend(tx, suspended.id, "operator"));
    const refusal = await accounts.deleteAccount(suspended.id, { password: PASSWORD }, meta).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isDomainError(refusal, "deletion_refused")).toBe(true);
    expect((refusal as { details: { reason?: string } }).details.reason).toBe("suspended");
    const [row] = await db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, suspended.id));
    expect(row!.deletedAt).toBeNull();
  });

  it("from the settings page: the password, then signed out on the sign-in page that says so", async () => {
    const user = await registerUser(shop);
    const wrong = await postForm("/en/dota2/profile/settings", user.token, { intent: "delete", password: "Not-The-Password-1" });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain(t("validation.password_wrong"));
    const done = await postForm("/en/dota2/profile/settings", user.token, { intent: "delete", password: PASSWORD });
    expect(done.status).toBe(302);
    expect(done.location).toBe("/en/auth?notice=account_deleted");
    expect(done.cookies.some((c) => /^access_token=;/.test(c))).toBe(true);
    expect((await me(user)).status).toBe(401);
    expect(pageText(await (await shop.request("/en/auth?notice=account_deleted")).text())).toContain(t("auth.notice.accountDeleted"));
  });
});

describe("the data export", () => {
  it("is everything held about the user, as a file, and nothing secret or of anyone else", async () => {
    const friend = await registerUser(shop, { tag: "friend" });
    const user = await registerUser(shop, { balance: 20_000 });
    // More ledger rows than a page of the API's list holds.
    for (let i = 0; i < 55; i++) await topUp(shop, user.id, 100);
    expect((await shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: PRODUCTS.dota2.days7.id } })).status).toBe(200);
    expect((await shop.call("POST", "/v2/web/user/gift", { token: user.token, json: { product_id: PRODUCTS.cs2.days1.id, recipient: friend.username } })).status).toBe(200);
    expect((await shop.call("POST", "/v2/web/payment/paypal/order", { token: user.token, json: { amount: 500 } })).status).toBe(200);

    const reply = await shop.call("GET", "/v2/web/user/export", { token: user.token });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-disposition")).toBe(`attachment; filename="nova-data-${user.id}.json"`);
    expect(reply.headers.get("cache-control")).toBe("no-store");
    const data = reply.body.export;
    expect(data.user).toMatchObject({ id: user.id, email: user.email, username: user.username, email_verified: true, locale: "en" });
    expect(data.email_preferences).toEqual({ allow_marketing: true, allow_security: true, locale: "en" });
    expect(data.transactions).toHaveLength((await rowsOf(shop, user.id)).length);
    expect(data.transactions.length).toBeGreaterThan(55);
    expect(data.subscriptions.map((s: { cheat_id: number }) => s.cheat_id)).toEqual([GAMES.dota2.id]);
    expect(data.payment_orders).toEqual([expect.objectContaining({ kind: "topup", amount: 500, status: "created" })]);
    expect(data.gifts_given).toEqual([expect.objectContaining({ cheat_id: GAMES.cs2.id, days: 1, recipient: friend.username, redeemed: true })]);
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(data.notifications.length).toBeGreaterThan(0);
    const text = JSON.stringify(data);
    expect(text).not.toContain("$argon2");
    expect(text).not.toContain(friend.email);
    expect(text).not.toMatch(/password|two_fa_secret|token_hash/i);

    // The friend's export names the giver by username, never by address.
    const theirs = (await shop.call("GET", "/v2/web/user/export", { token: friend.token })).body.export;
    expect(theirs.gifts_received).toEqual([expect.objectContaining({ cheat_id: GAMES.cs2.id, days: 1, from: user.username })]);
    expect(JSON.stringify(theirs)).not.toContain(user.email);

    // The settings page's link uses the page's cookie; a guest gets nothing.
    const byCookie = await shop.request("/v2/web/user/export", { headers: { cookie: `access_token=${user.token}` } });
    expect(byCookie.status).toBe(200);
    expect((await shop.call("GET", "/v2/web/user/export")).status).toBe(401);
  });
});
