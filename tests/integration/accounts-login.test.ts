// POST /v2/web/login (docs/product/accounts.md#sign-in): by e-mail or username, one answer for every kind
// of wrong credentials, the per-account and per-address limits on failed sign-ins and their windows.
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { PASSWORD, login, meStatus, message, registerUser, setCookie, uniqueEmail, uniqueIp, uniqueUsername, useAccountsShop } from "./accounts-kit.ts";

// A small per-address limit keeps the address tests fast; the per-account limit is the default 10/15m.
const shop = useAccountsShop({ env: { RATE_LOGIN_IP: "5/15m" } });

const FIFTEEN_MINUTES = 15 * 60 * 1000;

describe("login", () => {
  it("signs in by e-mail: 200, a token and the HttpOnly access_token cookie", async () => {
    const user = await registerUser(shop);
    const reply = await login(shop, user.email, user.password);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ status: true, token: expect.any(String) });
    expect(reply.body.token).not.toBe(user.token);
    expect(setCookie(reply, "access_token")).toBe(`access_token=${reply.body.token}; Max-Age=1209600; Path=/; SameSite=Lax; HttpOnly`);
    expect(await meStatus(shop, reply.body.token)).toBe(200);
    // The registration's session lives on beside the new one.
    expect(await meStatus(shop, user.token)).toBe(200);
  });

  it("signs in by e-mail in another letter case and with surrounding spaces", async () => {
    const user = await registerUser(shop);
    expect((await login(shop, `  ${user.email.toUpperCase()} `, user.password)).status).toBe(200);
  });

  it("signs in by username, in any letter case", async () => {
    const username = uniqueUsername("Player");
    const user = await registerUser(shop, { username });
    const reply = await login(shop, username, user.password);
    expect(reply.status, reply.text).toBe(200);
    const me = await shop.call("GET", "/v2/web/user/me", { token: reply.body.token });
    expect(me.body.user).toMatchObject({ id: user.id, username });
    expect((await login(shop, username.toUpperCase(), user.password)).status).toBe(200);
  });

  it("stores t as the visitor id and the request's language as the user's", async () => {
    const user = await registerUser(shop, { lang: "en" });
    const reply = await shop.call("POST", "/v2/web/login", {
      json: { login: user.email, password: user.password, t: "Zz09Zz09Zz09Zz09", recaptchaToken: "ignored-when-off" },
      lang: "pt-BR,pt;q=0.9",
      ip: uniqueIp(),
    });
    expect(reply.status).toBe(200);
    const [row] = await shop.services.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.visitorId).toBe("Zz09Zz09Zz09Zz09");
    expect(row!.locale).toBe("pt");
  });

  it("refuses a wrong password with 401 invalid_credentials and sets no cookie", async () => {
    const user = await registerUser(shop);
    const reply = await login(shop, user.email, "Wrong-Password-1");
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ status: false, code: "invalid_credentials", message: message(shop, "en", "errors.invalid_credentials") });
    expect(setCookie(reply, "access_token")).toBeUndefined();
  });

  it("answers an unknown e-mail or username exactly like a wrong password", async () => {
    const user = await registerUser(shop);
    const wrong = await login(shop, user.email, "Wrong-Password-1", { lang: "ru" });
    const unknown = await login(shop, uniqueEmail("ghost"), "Wrong-Password-1", { lang: "ru" });
    const unknownName = await login(shop, uniqueUsername("ghost"), "Wrong-Password-1", { lang: "ru" });
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknownName.status).toBe(wrong.status);
    expect(unknownName.body).toEqual(wrong.body);
    expect(wrong.body.message).toBe(message(shop, "ru", "errors.invalid_credentials"));
  });

  it("refuses missing and ill-typed fields with 400 validation_failed", async () => {
    const missing = await shop.call("POST", "/v2/web/login", { json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ status: false, code: "validation_failed" });
    expect(Object.keys(missing.body.errors).sort()).toEqual(["login", "password"]);
    expect(missing.body.errors.login).toBe(message(shop, "en", "validation.required"));
    for (const json of [
      { login: 42, password: PASSWORD },
      { login: ["a@example.com"], password: PASSWORD },
      { login: "a@example.com", password: null },
      { login: "a@example.com", password: { toString: "x" } },
      { login: "a@example.com", password: "x".repeat(129) },
      { login: "a@example.com", password: PASSWORD, t: 7 },
    ]) {
      const reply = await shop.call("POST", "/v2/web/login", { json });
      expect(reply.status, JSON.stringify(json)).toBe(400);
      expect(reply.body.code).toBe("validation_failed");
    }
  });
});

describe("login: failed sign-ins per account", () => {
  it("answers the 11th failed sign-in within 15 minutes with 429 rate_limited and Retry-After, then lets the window pass", async () => {
    const username = uniqueUsername("target");
    const user = await registerUser(shop, { username });
    // Ten failures, each from an address of its own: the account counter is independent of them.
    for (let i = 1; i <= 10; i++) {
      const reply = await login(shop, user.email, `Wrong-Password-${i}`);
      expect(reply.status, `attempt ${i}`).toBe(401);
    }
    const eleventh = await login(shop, user.email, "Wrong-Password-11");
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual({ status: false, code: "rate_limited", message: message(shop, "en", "errors.rate_limited") });
    expect(eleventh.headers.get("retry-after")).toBe("900");
    // Locked means locked: the right password, or the username, does not get in either.
    expect((await login(shop, user.email, user.password)).status).toBe(429);
    expect((await login(shop, username, user.password)).status).toBe(429);
    // Others are not affected.
    const other = await registerUser(shop);
    expect((await login(shop, other.email, other.password)).status).toBe(200);

    shop.clock.advance(FIFTEEN_MINUTES - 60_000);
    const later = await login(shop, user.email, user.password);
    expect(later.status).toBe(429);
    expect(later.headers.get("retry-after")).toBe("60");
    shop.clock.advance(60_000);
    expect((await login(shop, user.email, user.password)).status).toBe(200);
  });

  it("resets the account counter on a successful sign-in", async () => {
    const user = await registerUser(shop);
    for (let i = 0; i < 9; i++) expect((await login(shop, user.email, "Wrong-Password-x")).status).toBe(401);
    expect((await login(shop, user.email, user.password)).status).toBe(200);
    // Without the reset the second of these would be the 11th failure.
    for (let i = 0; i < 10; i++) {
      const reply = await login(shop, user.email, "Wrong-Password-y");
      expect(reply.status, `failure ${i + 1} after the reset`).toBe(401);
    }
    expect((await login(shop, user.email, "Wrong-Password-z")).status).toBe(429);
  });

  it("lets no more than 10 of a burst of parallel attempts be tried", async () => {
    const user = await registerUser(shop);
    const replies = await Promise.all(Array.from({ length: 25 }, () => login(shop, user.email, "Wrong-Password-x")));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    expect((await login(shop, user.email, user.password)).status).toBe(429);
    shop.clock.advance(FIFTEEN_MINUTES);
    expect((await login(shop, user.email, user.password)).status).toBe(200);
  });

  it("counts failures for an unknown e-mail too (no hint that it is unknown)", async () => {
    const ghost = uniqueEmail("ghost");
    for (let i = 0; i < 10; i++) expect((await login(shop, ghost, "Wrong-Password-x")).status).toBe(401);
    expect((await login(shop, ghost, "Wrong-Password-x")).status).toBe(429);
  });
});

describe("login: failed sign-ins per client address", () => {
  it("answers the failure past RATE_LOGIN_IP from one address with 429, whichever accounts were tried", async () => {
    const [a, b, c] = [await registerUser(shop), await registerUser(shop), await registerUser(shop)];
    const ip = uniqueIp();
    // Five failures spread over three accounts (one unknown) share the address counter.
    expect((await login(shop, a.email, "Wrong-Password-1", { ip })).status).toBe(401);
    expect((await login(shop, a.email, "Wrong-Password-2", { ip })).status).toBe(401);
    expect((await login(shop, b.email, "Wrong-Password-3", { ip })).status).toBe(401);
    expect((await login(shop, uniqueEmail("ghost"), "Wrong-Password-4", { ip })).status).toBe(401);
    expect((await login(shop, b.email, "Wrong-Password-5", { ip })).status).toBe(401);

    const sixth = await login(shop, c.email, c.password, { ip });
    expect(sixth.status).toBe(429);
    expect(sixth.body.code).toBe("rate_limited");
    expect(Number(sixth.headers.get("retry-after"))).toBe(900);
    expect(setCookie(sixth, "access_token")).toBeUndefined();

    // A forged X-Forwarded-For prefix does not change the address (only the last hop counts).
    expect((await login(shop, c.email, c.password, { ip: `203.0.113.7, ${ip}` })).status).toBe(429);
    // The accounts themselves are not locked: from another address they sign in.
    expect((await login(shop, a.email, a.password)).status).toBe(200);
    expect((await login(shop, c.email, c.password)).status).toBe(200);

    shop.clock.advance(FIFTEEN_MINUTES);
    expect((await login(shop, c.email, c.password, { ip })).status).toBe(200);
  });

  it("lets no more than RATE_LOGIN_IP of a burst from one address be tried, and successes do not count", async () => {
    const users = [await registerUser(shop), await registerUser(shop)];
    const ip = uniqueIp();
    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => login(shop, users[i % 2]!.email, "Wrong-Password-x", { ip })));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    shop.clock.advance(FIFTEEN_MINUTES);
    // Right passwords from one address, however many, do not count.
    for (let i = 0; i < 8; i++) expect((await login(shop, users[i % 2]!.email, PASSWORD, { ip })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login(shop, users[0]!.email, "Wrong-Password-x", { ip })).status).toBe(401);
    expect((await login(shop, users[0]!.email, PASSWORD, { ip })).status).toBe(429);
    shop.clock.advance(FIFTEEN_MINUTES);
  });

  it("does not reset the address counter on a success", async () => {
    const user = await registerUser(shop);
    const ip = uniqueIp();
    for (let i = 0; i < 4; i++) expect((await login(shop, user.email, "Wrong-Password-x", { ip })).status).toBe(401);
    expect((await login(shop, user.email, user.password, { ip })).status).toBe(200);
    expect((await login(shop, user.email, "Wrong-Password-x", { ip })).status).toBe(401);
    expect((await login(shop, user.email, user.password, { ip })).status).toBe(429);
  });

  it("treats clients without X-Forwarded-For as one address", async () => {
    const user = await registerUser(shop);
    for (let i = 0; i < 5; i++) {
      const reply = await shop.call("POST", "/v2/web/login", { json: { login: user.email, password: "Wrong-Password-x" } });
      expect(reply.status).toBe(401);
    }
    const blocked = await shop.call("POST", "/v2/web/login", { json: { login: user.email, password: user.password } });
    expect(blocked.status).toBe(429);
    shop.clock.advance(FIFTEEN_MINUTES);
  });
});
