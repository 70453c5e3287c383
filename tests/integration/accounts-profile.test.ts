// The signed-in calls of the accounts API (docs/product/api.md#account-calls): logout, user/me,
// frontend/data, changePassword, changeEmail (confirmed by a mailed link), email-preferences,
// user/notification and sso/ticket.
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { TEST_ORIGIN, PASSWORD, linksIn, login, mailsTo, meStatus, message, registerUser, setCookie, uniqueEmail, uniqueUsername, useShop, type Reply } from "../kit/shop.ts";

const shop = useShop({ smtp: true });

const post = (path: string, token: string, json?: unknown, lang?: string) => shop.call("POST", path, { token, json: json ?? {}, lang });
const get = (path: string, token: string, lang?: string) => shop.call("GET", path, { token, lang });

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]);
  return [];
}

function expectNoSecrets(reply: Reply) {
  const keys = keysOf(reply.body);
  expect(keys.length).toBeGreaterThan(0);
  expect(keys.filter((k) => /hash|secret|password|recovery/i.test(k))).toEqual([]);
  expect(reply.text).not.toContain("$argon2");
}

describe("user/me and frontend/data", () => {
  it("user/me shows the user's own fields and nothing secret", async () => {
    const username = uniqueUsername("me");
    const user = await registerUser(shop, { username });
    const reply = await get("/v2/web/user/me", user.token);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(reply.body.user).sort()).toEqual(
      ["balance", "created_at", "currency", "email", "email_verified", "id", "owed", "pending_email", "referral_code", "two_fa_enabled", "username"].sort(),
    );
    expect(reply.body.user).toMatchObject({ id: user.id, email: user.email, username, balance: 0, owed: 0, currency: "USD", two_fa_enabled: false, pending_email: null });
    expect(new Date(reply.body.user.created_at).toISOString()).toBe(reply.body.user.created_at);
    expectNoSecrets(reply);
  });

  it("frontend/data signed in carries the user with transactions, email_preferences and access_token", async () => {
    const user = await registerUser(shop);
    // Turn 2FA setup on so that a secret exists in the row: it must not show.
    await post("/v2/web/user/2fa/enable", user.token);
    const reply = await get("/v2/web/frontend/data", user.token);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("cache-control")).toBe("no-store");
    expect(reply.body).toMatchObject({
      status: true,
      access_token: user.token,
      user: { id: user.id, email: user.email, transactions: [] },
      email_preferences: { allow_marketing: true, allow_security: true, locale: "en" },
      shopping_area: "global",
      subscriptions: [],
    });
    expect(reply.body.cheats.length).toBeGreaterThan(0);
    expect(reply.body.products.length).toBeGreaterThan(0);
    expectNoSecrets(reply);
    const [row] = await shop.services.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.twoFaSecret).toBeTruthy();
    expect(reply.text).not.toContain(row!.twoFaSecret!);
    expect(reply.text).not.toContain(row!.passwordHash);

    // By the cookie alone, too; a dead token is a guest.
    const byCookie = await shop.call("GET", "/v2/web/frontend/data", { cookie: `access_token=${user.token}` });
    expect(byCookie.body.user.id).toBe(user.id);
    const guest = await shop.call("GET", "/v2/web/frontend/data", { token: "x".repeat(43) });
    expect(guest.body).toMatchObject({ access_token: null, user: null, email_preferences: null });
  });
});

describe("logout", () => {
  it("ends the session server-side and clears the cookie; other sessions live on", async () => {
    const user = await registerUser(shop);
    const other = (await login(shop, user.email, user.password)).body.token as string;
    const reply = await post("/v2/web/logout", user.token);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: true });
    expect(setCookie(reply, "access_token")).toMatch(/^access_token=; Max-Age=0; Path=\/; SameSite=Lax; HttpOnly/);
    expect(await meStatus(shop, user.token)).toBe(401);
    const again = await post("/v2/web/logout", user.token);
    expect(again.status).toBe(401);
    expect(again.body.code).toBe("unauthenticated");
    expect(await meStatus(shop, other)).toBe(200);
  });

  it("works with the cookie from our own origin", async () => {
    const user = await registerUser(shop);
    const reply = await shop.call("POST", "/v2/web/logout", { cookie: `access_token=${user.token}`, headers: { origin: TEST_ORIGIN } });
    expect(reply.status).toBe(200);
    expect(setCookie(reply, "access_token")).toContain("Max-Age=0");
    expect(await meStatus(shop, user.token)).toBe(401);
  });
});

describe("changePassword", () => {
  it("refuses a wrong old password with errors.old_password and changes nothing", async () => {
    const user = await registerUser(shop);
    const reply = await post("/v2/web/user/changePassword", user.token, { old_password: "Not-My-Password-1", new_password: "Fresh-Orchid-55" });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ status: false, code: "validation_failed" });
    expect(reply.body.errors).toEqual({ old_password: message(shop, "en", "validation.password_wrong") });
    expect(await meStatus(shop, user.token)).toBe(200);
    expect((await login(shop, user.email, user.password)).status).toBe(200);
  });

  it("refuses a common, short or missing new password", async () => {
    const user = await registerUser(shop);
    const common = await post("/v2/web/user/changePassword", user.token, { old_password: user.password, new_password: "qwertyuiop" });
    expect(common.status).toBe(400);
    expect(common.body.errors).toEqual({ new_password: message(shop, "en", "validation.password_common") });
    const short = await post("/v2/web/user/changePassword", user.token, { old_password: user.password, new_password: "abc" });
    expect(short.body.errors).toEqual({ new_password: message(shop, "en", "validation.password_short") });
    const missing = await post("/v2/web/user/changePassword", user.token, {});
    expect(Object.keys(missing.body.errors).sort()).toEqual(["new_password", "old_password"]);
    const typed = await post("/v2/web/user/changePassword", user.token, { old_password: 1, new_password: ["Fresh-Orchid-55"] });
    expect(typed.status).toBe(400);
    expect(Object.keys(typed.body.errors).sort()).toEqual(["new_password", "old_password"]);
    expect((await login(shop, user.email, user.password)).status).toBe(200);
  });

  it("returns a new token; the old token and every other session die; the new password signs in", async () => {
    const user = await registerUser(shop);
    const other = (await login(shop, user.email, user.password)).body.token as string;
    const reply = await post("/v2/web/user/changePassword", user.token, { old_password: user.password, new_password: "Fresh-Orchid-55" });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ status: true, token: expect.any(String) });
    expect(setCookie(reply, "access_token")).toContain(`access_token=${reply.body.token};`);
    expect(await meStatus(shop, reply.body.token)).toBe(200);
    expect(await meStatus(shop, user.token)).toBe(401);
    expect(await meStatus(shop, other)).toBe(401);
    expect((await login(shop, user.email, user.password)).status).toBe(401);
    expect((await login(shop, user.email, "Fresh-Orchid-55")).status).toBe(200);
    // A security notice by mail and as a notification.
    expect(mailsTo(shop.smtp, user.email).map((m) => m.subject)).toContain(message(shop, "en", "mail.password_changed.subject"));
    const notes = await get("/v2/web/user/notification", reply.body.token);
    expect(notes.body.notifications[0].type).toBe("password_changed");
  });
});

describe("changeEmail", () => {
  it("keeps the address until the mailed link is confirmed; the old address is told at once, with an undo link, even without allow_security", async () => {
    const user = await registerUser(shop, { lang: "en" });
    // Security mail off: the notice to the old address is sent all the same.
    expect((await post("/v2/web/user/email-preferences", user.token, { allow_marketing: false, allow_security: false })).status).toBe(200);
    // An earlier notification, to show the order (newest first).
    const changed = await post("/v2/web/user/changePassword", user.token, { old_password: user.password, new_password: "Fresh-Orchid-55" });
    const token = changed.body.token as string;
    const newEmail = uniqueEmail("moved");

    const reply = await post("/v2/web/user/changeEmail", token, { email: `  ${newEmail.toUpperCase()} ` });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({
      status: true,
      user: { id: user.id, email: user.email, pending_email: newEmail },
      message: message(shop, "en", "account.email.pending", { email: newEmail }),
    });
    expectNoSecrets(reply);
    // The mails go out after the answer.
    await shop.services.background.drain();

    // Nothing changes yet: the old address still signs in, the new one does not.
    expect((await get("/v2/web/user/me", token)).body.user).toMatchObject({ email: user.email, pending_email: newEmail });
    expect((await login(shop, newEmail, "Fresh-Orchid-55")).status).toBe(401);

    const mails = mailsTo(shop.smtp, newEmail);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(message(shop, "en", "mail.email_change_confirm.subject"));
    const link = linksIn(mails[0]!).find((l) => l.includes("/auth/confirm-email?token="));
    expect(link?.startsWith(`${TEST_ORIGIN}/en/auth/confirm-email?token=`)).toBe(true);
    expect(link).toMatch(/\?token=[A-Za-z0-9_-]{40,}$/);
    const confirmToken = new URL(link!).searchParams.get("token")!;

    // The old address is told at once, with a link that undoes the change.
    const notices = mailsTo(shop.smtp, user.email).filter((m) => m.subject === message(shop, "en", "mail.email_changed_notice.subject"));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toContain(newEmail);
    expect(linksIn(notices[0]!).find((l) => l.includes("/auth/undo-email?token="))).toMatch(/^http:\/\/localhost\/en\/auth\/undo-email\?token=[A-Za-z0-9_-]{40,}$/);

    const oldMailsBefore = mailsTo(shop.smtp, user.email).length;
    const confirmed = await shop.services.accounts.confirmEmailChange(confirmToken);
    expect(confirmed.user.email).toBe(newEmail);
    expect(confirmed.user.pendingEmail).toBeNull();

    const me = await get("/v2/web/user/me", token);
    expect(me.body.user).toMatchObject({ email: newEmail, pending_email: null });
    expect((await login(shop, newEmail, "Fresh-Orchid-55")).status).toBe(200);
    expect((await login(shop, user.email, "Fresh-Orchid-55")).status).toBe(401);

    // It was told when the change was asked for: the confirmation sends it nothing more.
    await shop.services.background.drain();
    expect(mailsTo(shop.smtp, user.email).slice(oldMailsBefore)).toHaveLength(0);

    // A notification, newest first, in the caller's language.
    for (const lang of ["en", "es", "ru"] as const) {
      const notes = await get("/v2/web/user/notification", token, lang);
      expect(notes.status).toBe(200);
      expect(notes.headers.get("cache-control")).toBe("no-store");
      const list = notes.body.notifications;
      expect(list.map((n: { type: string }) => n.type)).toEqual(["email_changed", "password_changed"]);
      expect(list[0]).toMatchObject({
        type: "email_changed",
        title: message(shop, lang, "notification.email_changed.title"),
        content: message(shop, lang, "notification.email_changed.content", { email: newEmail }),
        read: false,
      });
      expect(list[0].id).toBeGreaterThan(list[1].id);
      expect(typeof list[0].created_at).toBe("string");
    }

    // The link works once.
    await expect(shop.services.accounts.confirmEmailChange(confirmToken)).rejects.toMatchObject({ code: "invalid_link" });
  });

  it("keeps the link usable when the new address was taken between the request and the confirmation", async () => {
    const user = await registerUser(shop);
    const wanted = uniqueEmail("contested");
    const reply = await post("/v2/web/user/changeEmail", user.token, { email: wanted });
    expect(reply.status, reply.text).toBe(200);
    await shop.services.background.drain();
    const link = linksIn(mailsTo(shop.smtp, wanted)[0]!).find((l) => l.includes("/auth/confirm-email?token="))!;
    const confirmToken = new URL(link).searchParams.get("token")!;
    // Someone registers the address first.
    const squatter = await registerUser(shop, { email: wanted });
    await expect(shop.services.accounts.confirmEmailChange(confirmToken)).rejects.toMatchObject({ code: "email_taken" });
    expect((await get("/v2/web/user/me", user.token)).body.user).toMatchObject({ email: user.email, pending_email: wanted });
    // Once the address is free again, the same link still works.
    const moved = await post("/v2/web/user/changeEmail", squatter.token, { email: uniqueEmail("elsewhere") });
    await shop.services.background.drain();
    const squatterLink = linksIn(mailsTo(shop.smtp, moved.body.user.pending_email).at(-1)!).find((l) => l.includes("token="))!;
    await shop.services.accounts.confirmEmailChange(new URL(squatterLink).searchParams.get("token")!);
    const confirmed = await shop.services.accounts.confirmEmailChange(confirmToken);
    expect(confirmed.user.email).toBe(wanted);
  });

  it("refuses the own address and a malformed one", async () => {
    const user = await registerUser(shop);
    const other = await registerUser(shop);
    const same = await post("/v2/web/user/changeEmail", user.token, { email: user.email });
    expect(same.status).toBe(400);
    expect(same.body.errors).toEqual({ email: message(shop, "en", "validation.email_same") });
    for (const email of ["nope", "a\u200b@example.com", 7, null]) {
      const bad = await post("/v2/web/user/changeEmail", user.token, { email });
      expect(bad.status, String(email)).toBe(400);
      expect(bad.body.code).toBe("validation_failed");
    }
    expect((await get("/v2/web/user/me", user.token)).body.user.pending_email).toBeNull();
    await shop.services.background.drain();
    expect(mailsTo(shop.smtp, other.email)).toHaveLength(0);
    expect(mailsTo(shop.smtp, user.email)).toHaveLength(0);
  });

  it("lets only the latest link work, and a link dies after 24 hours", async () => {
    const user = await registerUser(shop);
    const first = uniqueEmail("first");
    const second = uniqueEmail("second");
    expect((await post("/v2/web/user/changeEmail", user.token, { email: first })).status).toBe(200);
    expect((await post("/v2/web/user/changeEmail", user.token, { email: second })).status).toBe(200);
    await shop.services.background.drain();
    const tokenOf = (address: string) => new URL(linksIn(mailsTo(shop.smtp, address)[0]!).find((l) => l.includes("confirm-email"))!).searchParams.get("token")!;
    await expect(shop.services.accounts.confirmEmailChange(tokenOf(first))).rejects.toMatchObject({ code: "invalid_link" });
    shop.clock.advance(24 * 3600 * 1000 + 1000);
    await expect(shop.services.accounts.confirmEmailChange(tokenOf(second))).rejects.toMatchObject({ code: "invalid_link" });
    expect((await get("/v2/web/user/me", user.token)).body.user.email).toBe(user.email);
  });
});

describe("email-preferences", () => {
  it("sets both flags and shows them in frontend/data; allow_security never silences a password change notice", async () => {
    const user = await registerUser(shop);
    const reply = await post("/v2/web/user/email-preferences", user.token, { allow_marketing: false, allow_security: false });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: true, email_preferences: { allow_marketing: false, allow_security: false, locale: "en" } });
    const data = await get("/v2/web/frontend/data", user.token);
    expect(data.body.email_preferences).toEqual({ allow_marketing: false, allow_security: false, locale: "en" });

    // Without allow_security, a password change is still told by mail (and as a notification):
    // only optional notices follow the flag.
    const changed = await post("/v2/web/user/changePassword", user.token, { old_password: user.password, new_password: "Fresh-Orchid-55" });
    expect(changed.status).toBe(200);
    expect(mailsTo(shop.smtp, user.email).map((m) => m.subject)).toEqual([message(shop, "en", "mail.password_changed.subject")]);
    expect((await get("/v2/web/user/notification", changed.body.token)).body.notifications[0].type).toBe("password_changed");

    const back = await post("/v2/web/user/email-preferences", changed.body.token, { allow_marketing: true, allow_security: false });
    expect(back.body.email_preferences).toEqual({ allow_marketing: true, allow_security: false, locale: "en" });
  });

  it("takes an optional mail language, which later sign-ins in another language leave alone", async () => {
    const user = await registerUser(shop);
    const chosen = await post("/v2/web/user/email-preferences", user.token, { allow_marketing: true, allow_security: true, locale: "hi" });
    expect(chosen.status, chosen.text).toBe(200);
    expect(chosen.body.email_preferences).toEqual({ allow_marketing: true, allow_security: true, locale: "hi" });
    // A sign-in from an English page used to make English the mail language; the choice stays.
    const again = await login(shop, user.email, user.password, { lang: "en" });
    expect(again.status, again.text).toBe(200);
    expect((await get("/v2/web/frontend/data", again.body.token)).body.email_preferences.locale).toBe("hi");
    const changed = await post("/v2/web/user/changePassword", again.body.token, { old_password: user.password, new_password: "Fresh-Orchid-56" });
    expect(changed.status).toBe(200);
    const mail = await shop.smtp.waitFor((m) => m.to.includes(user.email) && m.subject === message(shop, "hi", "mail.password_changed.subject"));
    expect(mail.subject).toBe(message(shop, "hi", "mail.password_changed.subject"));
    // Without `locale`, the choice is kept as it is.
    const flags = await post("/v2/web/user/email-preferences", changed.body.token, { allow_marketing: false, allow_security: true });
    expect(flags.body.email_preferences).toEqual({ allow_marketing: false, allow_security: true, locale: "hi" });
  });

  it("refuses a mail language that is not one of ours", async () => {
    const user = await registerUser(shop);
    for (const locale of ["xx", "EN", "zh", 7, null]) {
      const reply = await post("/v2/web/user/email-preferences", user.token, { allow_marketing: true, allow_security: true, locale });
      expect(reply.status, JSON.stringify(locale)).toBe(400);
      expect(Object.keys(reply.body.errors)).toEqual(["locale"]);
      expect(reply.body.errors.locale).toBe(message(shop, "en", "validation.mail_locale"));
    }
  });

  it("needs both booleans: missing ones, strings and numbers give 400 validation_failed", async () => {
    const user = await registerUser(shop);
    for (const [json, fields] of [
      [{}, ["allow_marketing", "allow_security"]],
      [{ allow_marketing: true }, ["allow_security"]],
      [{ allow_marketing: "true", allow_security: true }, ["allow_marketing"]],
      [{ allow_marketing: false, allow_security: "false" }, ["allow_security"]],
      [{ allow_marketing: 1, allow_security: 0 }, ["allow_marketing", "allow_security"]],
      [{ allow_marketing: null, allow_security: [true] }, ["allow_marketing", "allow_security"]],
    ] as const) {
      const reply = await post("/v2/web/user/email-preferences", user.token, json);
      expect(reply.status, JSON.stringify(json)).toBe(400);
      expect(reply.body.code).toBe("validation_failed");
      expect(Object.keys(reply.body.errors).sort()).toEqual([...fields]);
    }
    const typed = await post("/v2/web/user/email-preferences", user.token, { allow_marketing: "true", allow_security: true });
    expect(typed.body.errors.allow_marketing).toBe(message(shop, "en", "validation.boolean"));
    expect((await get("/v2/web/frontend/data", user.token)).body.email_preferences).toEqual({ allow_marketing: true, allow_security: true, locale: "en" });
  });
});

describe("sso/ticket", () => {
  it("gives a one-time link valid 60 s that turns into a session once", async () => {
    const user = await registerUser(shop);
    const reply = await post("/v2/web/sso/ticket", user.token);
    expect(reply.status).toBe(200);
    const { ticket, url } = reply.body;
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(url).toBe(`${TEST_ORIGIN}/en/auth/sso?ticket=${ticket}`);
    const ru = await post("/v2/web/sso/ticket", user.token, {}, "ru");
    expect(ru.body.url).toBe(`${TEST_ORIGIN}/auth/sso?ticket=${ru.body.ticket}`);

    const meta = { ip: "local", locale: "en" as const };
    const session = await shop.services.accounts.consumeSsoTicket(ticket, meta);
    expect(session.user.id).toBe(user.id);
    expect(await meStatus(shop, session.token)).toBe(200);
    await expect(shop.services.accounts.consumeSsoTicket(ticket, meta)).rejects.toMatchObject({ code: "invalid_link" });

    const late = await post("/v2/web/sso/ticket", user.token);
    shop.clock.advance(60_000);
    await expect(shop.services.accounts.consumeSsoTicket(late.body.ticket, meta)).rejects.toMatchObject({ code: "invalid_link" });
    await expect(shop.services.accounts.consumeSsoTicket("not-a-ticket-at-all", meta)).rejects.toMatchObject({ code: "invalid_link" });
  });

  it("is just inside its 60 s at 59 s", async () => {
    const user = await registerUser(shop);
    const { ticket } = (await post("/v2/web/sso/ticket", user.token)).body;
    shop.clock.advance(59_000);
    const session = await shop.services.accounts.consumeSsoTicket(ticket, { ip: "local", locale: "en" });
    expect(await meStatus(shop, session.token)).toBe(200);
  });
});

describe("cookie-authenticated calls from another site", () => {
  it("refuses a cross-site POST riding on the cookie with 403 and changes nothing", async () => {
    const user = await registerUser(shop);
    const cookie = `access_token=${user.token}`;
    const attempts: Record<string, string>[] = [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }, { origin: "null" }, {}];
    for (const headers of attempts) {
      const prefs = await shop.call("POST", "/v2/web/user/email-preferences", { cookie, headers, json: { allow_marketing: false, allow_security: false } });
      expect(prefs.status, JSON.stringify(headers)).toBe(403);
      expect(prefs.body).toMatchObject({ status: false, code: "forbidden", message: message(shop, "en", "errors.cross_site") });
      const change = await shop.call("POST", "/v2/web/user/changePassword", { cookie, headers, json: { old_password: user.password, new_password: "Evil-Chosen-Pass-1" } });
      expect(change.status).toBe(403);
      const logout = await shop.call("POST", "/v2/web/logout", { cookie, headers });
      expect(logout.status).toBe(403);
    }
    expect(await meStatus(shop, user.token)).toBe(200);
    expect((await get("/v2/web/frontend/data", user.token)).body.email_preferences).toEqual({ allow_marketing: true, allow_security: true, locale: "en" });
    expect((await login(shop, user.email, PASSWORD)).status).toBe(200);

    // The same call from our own origin goes through.
    const own = await shop.call("POST", "/v2/web/user/email-preferences", {
      cookie,
      headers: { origin: TEST_ORIGIN, "sec-fetch-site": "same-origin" },
      json: { allow_marketing: false, allow_security: true },
    });
    expect(own.status).toBe(200);
  });
});
