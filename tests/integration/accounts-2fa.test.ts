// Two-factor sign-in (docs/product/accounts.md#two-factor-authentication): 2fa/enable, 2fa/confirmEnable, login → confirmTwoFa with TOTP
// (RFC 6238, SHA-1, 6 digits, 30 s, one step of drift, each code once) or a recovery code (once),
// wrong codes as failed sign-ins, and 2fa/disable with password and code.
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { totpAt } from "../../core/accounts/totp.ts";
import { login, meStatus, message, registerUser, setCookie, totpNow, uniqueIp, useShop, wrongTotp, type User } from "../kit/shop.ts";

const shop = useShop();
const STEP = 30_000;

const post = (path: string, token: string | undefined, json?: unknown, ip?: string) => shop.call("POST", path, { token, json: json ?? {}, ip: ip ?? uniqueIp() });

/** Turns 2FA on for a user; afterwards the clock is one step later, so the next code is fresh. */
async function enableTwoFa(user: User): Promise<{ secret: string; recovery: string[] }> {
  const enabled = await post("/v2/web/user/2fa/enable", user.token);
  expect(enabled.status, enabled.text).toBe(200);
  const confirmed = await post("/v2/web/user/2fa/confirmEnable", user.token, { code: totpNow(enabled.body.secret, shop.clock) });
  expect(confirmed.status, confirmed.text).toBe(200);
  shop.clock.advance(STEP);
  return { secret: enabled.body.secret, recovery: confirmed.body.recovery_codes };
}

/** The password step of a 2FA user: the pre-2FA token. */
async function passwordStep(user: User, ip?: string): Promise<string> {
  const reply = await login(shop, user.email, user.password, { ip });
  expect(reply.status, reply.text).toBe(200);
  expect(reply.body.twoFa).toBe(true);
  return reply.body.token as string;
}

const confirmTwoFa = (preToken: string | undefined, code: string, ip?: string) => post("/v2/web/confirmTwoFa", preToken, { code }, ip);

describe("2fa/enable and 2fa/confirmEnable", () => {
  it("gives a base32 secret, an otpauth URL (NOVA, SHA1, 6 digits, 30 s) and an SVG QR code", async () => {
    const user = await registerUser(shop);
    const reply = await post("/v2/web/user/2fa/enable", user.token);
    expect(reply.status).toBe(200);
    const { secret, otpauth_url: url, qr } = reply.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const parsed = new URL(url);
    expect(parsed.protocol).toBe("otpauth:");
    expect(url.startsWith("otpauth://totp/")).toBe(true);
    expect(decodeURIComponent(parsed.pathname)).toContain(user.email);
    expect(decodeURIComponent(parsed.pathname)).toContain("NOVA");
    expect(Object.fromEntries(parsed.searchParams)).toEqual({ issuer: "NOVA", secret, algorithm: "SHA1", digits: "6", period: "30" });
    expect(qr).toMatch(/^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+=*$/);
    const svg = Buffer.from(qr.split(",")[1], "base64").toString("utf8");
    expect(svg).toContain("<svg");
    expect(svg).toContain("</svg>");
    expect(reply.headers.get("cache-control")).toBe("no-store");

    // Not on before the confirmation: the password alone still signs in.
    const me = await shop.call("GET", "/v2/web/user/me", { token: user.token });
    expect(me.body.user.two_fa_enabled).toBe(false);
    const plain = await login(shop, user.email, user.password);
    expect(plain.body.twoFa).toBeUndefined();
    expect(setCookie(plain, "access_token")).toBeDefined();
  });

  it("refuses a wrong or malformed code on confirmEnable", async () => {
    const user = await registerUser(shop);
    const { secret } = (await post("/v2/web/user/2fa/enable", user.token)).body;
    const wrong = await post("/v2/web/user/2fa/confirmEnable", user.token, { code: wrongTotp(secret, shop.clock) });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ status: false, code: "invalid_code", message: message(shop, "en", "errors.invalid_two_fa_code") });
    for (const code of ["12345", "1234567", "abcdef", 123456]) {
      const reply = await post("/v2/web/user/2fa/confirmEnable", user.token, { code });
      expect(reply.status, String(code)).toBe(400);
      expect(reply.body.code).toBe("validation_failed");
      expect(reply.body.errors.code).toBeDefined();
    }
    const missing = await post("/v2/web/user/2fa/confirmEnable", user.token, {});
    expect(missing.body.errors.code).toBe(message(shop, "en", "validation.required"));
    expect((await shop.call("GET", "/v2/web/user/me", { token: user.token })).body.user.two_fa_enabled).toBe(false);
  });

  it("refuses confirmEnable before enable with 409", async () => {
    const user = await registerUser(shop);
    const reply = await post("/v2/web/user/2fa/confirmEnable", user.token, { code: "123456" });
    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({ status: false, code: "conflict", message: message(shop, "en", "errors.two_fa_not_started") });
  });

  it("turns 2FA on with the right code and returns 10 recovery codes (xxxx-xxxx)", async () => {
    const user = await registerUser(shop);
    const { secret } = (await post("/v2/web/user/2fa/enable", user.token)).body;
    const reply = await post("/v2/web/user/2fa/confirmEnable", user.token, { code: totpAt(secret, shop.clock.now()) });
    expect(reply.status, reply.text).toBe(200);
    const codes: string[] = reply.body.recovery_codes;
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]{4}-[a-z0-9]{4}$/);
    expect(new Set(codes).size).toBe(10);

    const me = await shop.call("GET", "/v2/web/user/me", { token: user.token });
    expect(me.body.user.two_fa_enabled).toBe(true);
    // The secret is stored, never shown again.
    expect(JSON.stringify(me.body)).not.toContain(secret);
    const [row] = await shop.services.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.twoFaSecret).toBe(secret);

    const again = await post("/v2/web/user/2fa/enable", user.token);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(message(shop, "en", "errors.two_fa_already_on"));

    const notes = await shop.call("GET", "/v2/web/user/notification", { token: user.token });
    expect(notes.body.notifications[0]).toMatchObject({ type: "two_fa_enabled", title: message(shop, "en", "notification.two_fa_enabled.title") });
    // The session that turned 2FA on lives on.
    expect(await meStatus(shop, user.token)).toBe(200);
  });
});

describe("login with 2FA and confirmTwoFa", () => {
  it("answers the password step with twoFa and a token good for confirmTwoFa alone", async () => {
    const user = await registerUser(shop);
    const { secret } = await enableTwoFa(user);
    const reply = await login(shop, user.email, user.password);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: true, twoFa: true, token: expect.any(String) });
    expect(setCookie(reply, "access_token")).toBeUndefined();
    const pre = reply.body.token as string;

    // The pre-2FA token is no session: every other call refuses it.
    for (const [method, path] of [
      ["GET", "/v2/web/user/me"],
      ["GET", "/v2/web/user/notification"],
      ["POST", "/v2/web/logout"],
      ["POST", "/v2/web/user/changePassword"],
      ["POST", "/v2/web/user/changeEmail"],
      ["POST", "/v2/web/user/2fa/enable"],
      ["POST", "/v2/web/user/2fa/disable"],
      ["POST", "/v2/web/user/email-preferences"],
      ["POST", "/v2/web/sso/ticket"],
    ] as const) {
      const denied = await shop.call(method, path, { token: pre, json: method === "POST" ? {} : undefined });
      expect(denied.status, path).toBe(401);
      expect(denied.body.code, path).toBe("unauthenticated");
    }
    const asCookie = await shop.call("GET", "/v2/web/user/me", { cookie: `access_token=${pre}` });
    expect(asCookie.status).toBe(401);
    const data = await shop.call("GET", "/v2/web/frontend/data", { token: pre });
    expect(data.body).toMatchObject({ user: null, access_token: null });

    const confirmed = await confirmTwoFa(pre, totpNow(secret, shop.clock));
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toEqual({ status: true, token: expect.any(String) });
    expect(confirmed.body.token).not.toBe(pre);
    expect(setCookie(confirmed, "access_token")).toContain(`access_token=${confirmed.body.token};`);
    expect(await meStatus(shop, confirmed.body.token)).toBe(200);
    // The pre-2FA token is spent.
    const reused = await confirmTwoFa(pre, totpNow(secret, shop.clock));
    expect(reused.status).toBe(401);
  });

  it("refuses confirmTwoFa without a pre-2FA token, or with a full session token", async () => {
    const user = await registerUser(shop);
    const { secret } = await enableTwoFa(user);
    const none = await confirmTwoFa(undefined, totpNow(secret, shop.clock));
    expect(none.status).toBe(401);
    expect(none.body.code).toBe("unauthenticated");
    const full = await confirmTwoFa(user.token, totpNow(secret, shop.clock));
    expect(full.status).toBe(401);
    const bogus = await confirmTwoFa("A".repeat(43), totpNow(secret, shop.clock));
    expect(bogus.status).toBe(401);
  });

  it("refuses a wrong code with 400 invalid_code and a malformed one with validation_failed", async () => {
    const user = await registerUser(shop);
    const { secret } = await enableTwoFa(user);
    const pre = await passwordStep(user);
    const wrong = await confirmTwoFa(pre, wrongTotp(secret, shop.clock));
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ status: false, code: "invalid_code", message: message(shop, "en", "errors.invalid_two_fa_code") });
    expect(setCookie(wrong, "access_token")).toBeUndefined();
    for (const code of ["12345", "abc", "", 123456, null]) {
      const reply = await confirmTwoFa(pre, code as string);
      expect(reply.status).toBe(400);
      expect(reply.body.code).toBe("validation_failed");
    }
    // The pre-2FA token survives wrong codes.
    expect((await confirmTwoFa(pre, totpNow(secret, shop.clock))).status).toBe(200);
  });

  it("does not accept the same TOTP code twice", async () => {
    const user = await registerUser(shop);
    const { secret } = await enableTwoFa(user);
    const code = totpNow(secret, shop.clock);
    expect((await confirmTwoFa(await passwordStep(user), code)).status).toBe(200);
    // A new sign-in within the same 30 s step, with the same code: refused.
    const second = await confirmTwoFa(await passwordStep(user), code);
    expect(second.status).toBe(400);
    expect(second.body.code).toBe("invalid_code");
    // Nor may it turn 2FA off.
    const disable = await post("/v2/web/user/2fa/disable", user.token, { password: user.password, code });
    expect(disable.status).toBe(400);
    expect(disable.body.errors.code).toBeDefined();
    // The next step's code works.
    shop.clock.advance(STEP);
    expect((await confirmTwoFa(await passwordStep(user), totpNow(secret, shop.clock))).status).toBe(200);
  });

  it("accepts one step of drift either way, never two, and never an older step than one already used", async () => {
    const user = await registerUser(shop);
    const { secret } = await enableTwoFa(user);
    shop.clock.advance(3 * STEP);
    const at = (offset: number) => totpAt(secret, new Date(shop.clock.now().getTime() + offset));
    const pre = await passwordStep(user);
    const twoBehind = await confirmTwoFa(pre, at(-2 * STEP));
    const twoAhead = await confirmTwoFa(pre, at(2 * STEP));
    // (A code two steps away could equal the current one by chance: 3 in a million.)
    if (at(-2 * STEP) !== at(0) && at(-2 * STEP) !== at(-STEP) && at(-2 * STEP) !== at(STEP)) expect(twoBehind.status).toBe(400);
    if (at(2 * STEP) !== at(0) && at(2 * STEP) !== at(-STEP) && at(2 * STEP) !== at(STEP)) expect(twoAhead.status).toBe(400);
    expect((await confirmTwoFa(pre, at(-STEP))).status).toBe(200);
    expect((await confirmTwoFa(await passwordStep(user), at(STEP))).status).toBe(200);
    // The step after the current one was used: the current one is now older and refused.
    const older = await confirmTwoFa(await passwordStep(user), at(0));
    if (at(0) !== at(STEP)) expect(older.status).toBe(400);
  });

  it("accepts each recovery code once, with or without the dash, in any letter case", async () => {
    const user = await registerUser(shop);
    const { recovery } = await enableTwoFa(user);
    const first = await confirmTwoFa(await passwordStep(user), recovery[0]!);
    expect(first.status, first.text).toBe(200);
    expect(await meStatus(shop, first.body.token)).toBe(200);
    const again = await confirmTwoFa(await passwordStep(user), recovery[0]!);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("invalid_code");
    const compact = await confirmTwoFa(await passwordStep(user), recovery[1]!.replace("-", "").toUpperCase());
    expect(compact.status).toBe(200);
    // Someone else's recovery code is no good.
    const other = await registerUser(shop);
    const { recovery: otherCodes } = await enableTwoFa(other);
    expect((await confirmTwoFa(await passwordStep(user), otherCodes[0]!)).status).toBe(400);
  });

  it("lets the pre-2FA token expire after 10 minutes", async () => {
    const user = await registerUser(shop);
    const { secret } = await enableTwoFa(user);
    const pre = await passwordStep(user);
    shop.clock.advance(10 * 60 * 1000 + 1000);
    const late = await confirmTwoFa(pre, totpNow(secret, shop.clock));
    expect(late.status).toBe(401);
  });
});

describe("wrong 2FA codes are failed sign-ins", () => {
  it("answers the 11th wrong code from one address within 15 minutes with 429, which also locks the password step there", async () => {
    const user = await registerUser(shop);
    const { secret } = await enableTwoFa(user);
    const ip = uniqueIp();
    const pre = await passwordStep(user, ip);
    for (let i = 1; i <= 10; i++) {
      const reply = await confirmTwoFa(pre, wrongTotp(secret, shop.clock), ip);
      expect(reply.status, `wrong code ${i}`).toBe(400);
    }
    const eleventh = await confirmTwoFa(pre, totpNow(secret, shop.clock), ip);
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.code).toBe("rate_limited");
    expect(Number(eleventh.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await login(shop, user.email, user.password, { ip })).status).toBe(429);
    // The owner, from another address, completes both steps.
    const owner = uniqueIp();
    expect((await confirmTwoFa(await passwordStep(user, owner), totpNow(secret, shop.clock), owner)).status).toBe(200);

    shop.clock.advance(15 * 60 * 1000);
    const fresh = await passwordStep(user, ip);
    expect((await confirmTwoFa(fresh, totpNow(secret, shop.clock), ip)).status).toBe(200);
  });

  it("does not let a right password reset the count of wrong codes (only a full sign-in does)", async () => {
    const user = await registerUser(shop);
    const { secret } = await enableTwoFa(user);
    const ip = uniqueIp();
    for (let i = 0; i < 5; i++) expect((await confirmTwoFa(await passwordStep(user, ip), wrongTotp(secret, shop.clock), ip)).status).toBe(400);
    // The password step succeeded five times; the five wrong codes still count.
    const pre = await passwordStep(user, ip);
    for (let i = 0; i < 5; i++) expect((await confirmTwoFa(pre, wrongTotp(secret, shop.clock), ip)).status).toBe(400);
    expect((await confirmTwoFa(pre, totpNow(secret, shop.clock), ip)).status).toBe(429);
    shop.clock.advance(15 * 60 * 1000);
  });

  it("lets no more than 10 of a burst of parallel wrong codes from one address be tried", async () => {
    const user = await registerUser(shop);
    const { secret } = await enableTwoFa(user);
    const ip = uniqueIp();
    const pre = await passwordStep(user, ip);
    const replies = await Promise.all(Array.from({ length: 20 }, () => confirmTwoFa(pre, wrongTotp(secret, shop.clock), ip)));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect((await confirmTwoFa(pre, totpNow(secret, shop.clock), ip)).status).toBe(429);
    shop.clock.advance(15 * 60 * 1000);
  });

  it("accepts a code once even when it is sent twice at the same moment", async () => {
    const user = await registerUser(shop);
    const { secret, recovery } = await enableTwoFa(user);
    const code = totpNow(secret, shop.clock);
    const [a, b] = [await passwordStep(user), await passwordStep(user)];
    const both = await Promise.all([confirmTwoFa(a, code), confirmTwoFa(b, code)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    const [c, d] = [await passwordStep(user), await passwordStep(user)];
    const recoveries = await Promise.all([confirmTwoFa(c, recovery[0]!), confirmTwoFa(d, recovery[0]!)]);
    expect(recoveries.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it("resets the count on a complete sign-in", async () => {
    const user = await registerUser(shop);
    const { secret } = await enableTwoFa(user);
    const ip = uniqueIp();
    const pre = await passwordStep(user, ip);
    for (let i = 0; i < 9; i++) expect((await confirmTwoFa(pre, wrongTotp(secret, shop.clock), ip)).status).toBe(400);
    expect((await confirmTwoFa(pre, totpNow(secret, shop.clock), ip)).status).toBe(200);
    shop.clock.advance(STEP);
    const next = await passwordStep(user, ip);
    for (let i = 0; i < 10; i++) expect((await confirmTwoFa(next, wrongTotp(secret, shop.clock), ip)).status).toBe(400);
    expect((await confirmTwoFa(next, totpNow(secret, shop.clock), ip)).status).toBe(429);
    shop.clock.advance(15 * 60 * 1000);
  });
});

describe("2fa/disable", () => {
  it("needs the password and a code: a wrong one of either gives 400 naming the field", async () => {
    const user = await registerUser(shop);
    const { secret } = await enableTwoFa(user);

    const wrongPassword = await post("/v2/web/user/2fa/disable", user.token, { password: "Not-The-Password-1", code: totpNow(secret, shop.clock) });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body).toMatchObject({ status: false, code: "validation_failed" });
    expect(wrongPassword.body.errors).toEqual({ password: message(shop, "en", "validation.password_wrong") });

    const wrongCode = await post("/v2/web/user/2fa/disable", user.token, { password: user.password, code: wrongTotp(secret, shop.clock) });
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.body.errors).toEqual({ code: message(shop, "en", "validation.code_wrong") });

    const missing = await post("/v2/web/user/2fa/disable", user.token, {});
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors).sort()).toEqual(["code", "password"]);
    const onlyPassword = await post("/v2/web/user/2fa/disable", user.token, { password: user.password });
    expect(Object.keys(onlyPassword.body.errors)).toEqual(["code"]);

    expect((await shop.call("GET", "/v2/web/user/me", { token: user.token })).body.user.two_fa_enabled).toBe(true);

    // The code of the wrong-password attempt was not spent: it still works with the password.
    const ok = await post("/v2/web/user/2fa/disable", user.token, { password: user.password, code: totpNow(secret, shop.clock) });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toEqual({ status: true });
    expect((await shop.call("GET", "/v2/web/user/me", { token: user.token })).body.user.two_fa_enabled).toBe(false);

    const plain = await login(shop, user.email, user.password);
    expect(plain.body).toEqual({ status: true, token: expect.any(String) });
    expect(setCookie(plain, "access_token")).toBeDefined();

    const again = await post("/v2/web/user/2fa/disable", user.token, { password: user.password, code: totpNow(secret, shop.clock) });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(message(shop, "en", "errors.two_fa_already_off"));
    const notes = (await shop.call("GET", "/v2/web/user/notification", { token: user.token })).body.notifications;
    expect(notes.map((n: { type: string }) => n.type).slice(0, 2)).toEqual(["two_fa_disabled", "two_fa_enabled"]);
  });

  it("counts wrong passwords here and at changePassword as failed sign-ins of the account from that address", async () => {
    const user = await registerUser(shop);
    const { secret } = await enableTwoFa(user);
    const ip = uniqueIp();
    for (let i = 0; i < 5; i++) {
      const reply = await post("/v2/web/user/2fa/disable", user.token, { password: `Not-The-Password-${i}`, code: totpNow(secret, shop.clock) }, ip);
      expect(reply.status).toBe(400);
      const change = await post("/v2/web/user/changePassword", user.token, { old_password: `Not-The-Password-${i}`, new_password: "Fresh-Orchid-55" }, ip);
      expect(change.status).toBe(400);
    }
    const eleventh = await post("/v2/web/user/2fa/disable", user.token, { password: user.password, code: totpNow(secret, shop.clock) }, ip);
    expect(eleventh.status).toBe(429);
    expect((await post("/v2/web/user/changePassword", user.token, { old_password: user.password, new_password: "Fresh-Orchid-55" }, ip)).status).toBe(429);
    expect((await login(shop, user.email, user.password, { ip })).status).toBe(429);
    // From another address the owner still signs in.
    expect((await login(shop, user.email, user.password)).body).toMatchObject({ status: true, twoFa: true });
    shop.clock.advance(15 * 60 * 1000);
  });

  it("accepts a recovery code, and a new enablement kills the old secret and recovery codes", async () => {
    const user = await registerUser(shop);
    const first = await enableTwoFa(user);
    const off = await post("/v2/web/user/2fa/disable", user.token, { password: user.password, code: first.recovery[3] });
    expect(off.status, off.text).toBe(200);
    const second = await enableTwoFa(user);
    expect(second.secret).not.toBe(first.secret);
    const pre = await passwordStep(user);
    expect((await confirmTwoFa(pre, first.recovery[4]!)).status).toBe(400);
    expect((await confirmTwoFa(pre, totpNow(first.secret, shop.clock))).status).toBe(totpNow(first.secret, shop.clock) === totpNow(second.secret, shop.clock) ? 200 : 400);
    expect((await confirmTwoFa(pre, second.recovery[0]!)).status).toBe(200);
  });
});
