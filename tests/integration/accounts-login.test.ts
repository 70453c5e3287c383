// POST /v2/web/login (docs/product/accounts.md#sign-in): by e-mail or username, one answer for every kind
// of wrong credentials, the limits on failed sign-ins (per account and address, per account, per
// address; IPv6 by /64) and their windows.
import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { PASSWORD, login, meStatus, message, registerUser, setCookie, uniqueEmail, uniqueIp, uniqueUsername, useShop } from "../kit/shop.ts";

// A smaller per-address limit keeps the address tests fast (it stays above the per-account-and-address
// limit, the default 10/15m, so that the account tests meet that one first); the account-wide limit
// is the default 100/15m.
const shop = useShop({ env: { RATE_LOGIN_IP: "20/15m" } });

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

describe("login: failed sign-ins per account and client address", () => {
  it("refuses the 11th failure from one address with 429 and Retry-After, while the owner signs in from another address", async () => {
    const username = uniqueUsername("target");
    const user = await registerUser(shop, { username });
    const attacker = uniqueIp();
    for (let i = 1; i <= 10; i++) {
      const reply = await login(shop, user.email, `Wrong-Password-${i}`, { ip: attacker });
      expect(reply.status, `attempt ${i}`).toBe(401);
    }
    const eleventh = await login(shop, user.email, "Wrong-Password-11", { ip: attacker });
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual({ status: false, code: "rate_limited", message: message(shop, "en", "errors.rate_limited") });
    expect(eleventh.headers.get("retry-after")).toBe("900");
    // Locked means locked from that address: the right password, or the username, does not get in.
    expect((await login(shop, user.email, user.password, { ip: attacker })).status).toBe(429);
    expect((await login(shop, username, user.password, { ip: attacker })).status).toBe(429);
    // The owner, from an address with no recent failures, signs in, again and again.
    const owner = uniqueIp();
    expect((await login(shop, user.email, user.password, { ip: owner })).status).toBe(200);
    expect((await login(shop, username, user.password, { ip: owner })).status).toBe(200);
    // The attacker's refused attempts did not use up the account: ten more from elsewhere are plain failures.
    const elsewhere = uniqueIp();
    for (let i = 0; i < 10; i++) expect((await login(shop, user.email, "Wrong-Password-x", { ip: elsewhere })).status).toBe(401);

    shop.clock.advance(FIFTEEN_MINUTES - 60_000);
    const later = await login(shop, user.email, user.password, { ip: attacker });
    expect(later.status).toBe(429);
    expect(later.headers.get("retry-after")).toBe("60");
    shop.clock.advance(60_000);
    expect((await login(shop, user.email, user.password, { ip: attacker })).status).toBe(200);
  });

  it("resets the (account, address) counter on a successful sign-in", async () => {
    const user = await registerUser(shop);
    const ip = uniqueIp();
    for (let i = 0; i < 9; i++) expect((await login(shop, user.email, "Wrong-Password-x", { ip })).status).toBe(401);
    expect((await login(shop, user.email, user.password, { ip })).status).toBe(200);
    // Without the reset the second of these would be the 11th failure.
    for (let i = 0; i < 10; i++) {
      const reply = await login(shop, user.email, "Wrong-Password-y", { ip });
      expect(reply.status, `failure ${i + 1} after the reset`).toBe(401);
    }
    expect((await login(shop, user.email, "Wrong-Password-z", { ip })).status).toBe(429);
    shop.clock.advance(FIFTEEN_MINUTES);
  });

  it("lets no more than 10 of a burst of parallel attempts from one address be tried", async () => {
    const user = await registerUser(shop);
    const ip = uniqueIp();
    const replies = await Promise.all(Array.from({ length: 25 }, () => login(shop, user.email, "Wrong-Password-x", { ip })));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    expect((await login(shop, user.email, user.password, { ip })).status).toBe(429);
    expect((await login(shop, user.email, user.password)).status).toBe(200);
    shop.clock.advance(FIFTEEN_MINUTES);
    expect((await login(shop, user.email, user.password, { ip })).status).toBe(200);
  });

  it("counts failures for an unknown e-mail too (no hint that it is unknown)", async () => {
    const ghost = uniqueEmail("ghost");
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) expect((await login(shop, ghost, "Wrong-Password-x", { ip })).status).toBe(401);
    expect((await login(shop, ghost, "Wrong-Password-x", { ip })).status).toBe(429);
    expect((await login(shop, ghost, "Wrong-Password-x")).status).toBe(401);
    shop.clock.advance(FIFTEEN_MINUTES);
  });

  it("counts two IPv6 addresses of one /64 as one address", async () => {
    const user = await registerUser(shop);
    const [g3, g4] = [randomInt(0x10000), randomInt(0x10000)];
    const prefix = `2001:db8:${g3.toString(16)}:${g4.toString(16)}`;
    for (let i = 0; i < 5; i++) expect((await login(shop, user.email, "Wrong-Password-x", { ip: `${prefix}::a` })).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await login(shop, user.email, "Wrong-Password-x", { ip: `${prefix}:0:ffff:0:b` })).status).toBe(401);
    // The eleventh failure of the /64, from a third address in it, whatever its spelling.
    expect((await login(shop, user.email, user.password, { ip: `${prefix.toUpperCase()}:1:2:3:4` })).status).toBe(429);
    // Its neighbour /64 is another client.
    expect((await login(shop, user.email, user.password, { ip: `2001:db8:${g3.toString(16)}:${(g4 ^ 1).toString(16)}::a` })).status).toBe(200);
    shop.clock.advance(FIFTEEN_MINUTES);
  });
});

describe("login: failed sign-ins per account across all addresses", () => {
  it("refuses the account from every address once 100 failures came from many addresses, until the window ends", async () => {
    const user = await registerUser(shop);
    // 100 failures, ten addresses with ten each, so that no (account, address) pair is locked.
    const addresses = Array.from({ length: 10 }, () => uniqueIp());
    for (const ip of addresses) {
      const replies = await Promise.all(Array.from({ length: 10 }, () => login(shop, user.email, "Wrong-Password-x", { ip })));
      expect(replies.map((r) => r.status)).toEqual(Array(10).fill(401));
    }
    const fresh = await login(shop, user.email, "Wrong-Password-x");
    expect(fresh.status).toBe(429);
    expect(fresh.headers.get("retry-after")).toBe("900");
    // The account-wide limit holds for the right password too, from any address.
    expect((await login(shop, user.email, user.password)).status).toBe(429);
    // Other accounts are not affected.
    const other = await registerUser(shop);
    expect((await login(shop, other.email, other.password)).status).toBe(200);
    shop.clock.advance(FIFTEEN_MINUTES);
    expect((await login(shop, user.email, user.password)).status).toBe(200);
  });
});

describe("login: failed sign-ins per client address", () => {
  it("answers the failure past RATE_LOGIN_IP from one address with 429, whichever accounts were tried", async () => {
    const [a, b, c] = [await registerUser(shop), await registerUser(shop), await registerUser(shop)];
    const ip = uniqueIp();
    // Twenty failures spread over three accounts (one unknown) share the address counter.
    const tried = [a.email, b.email, uniqueEmail("ghost")];
    for (let i = 0; i < 20; i++) expect((await login(shop, tried[i % 3]!, `Wrong-Password-${i}`, { ip })).status, `failure ${i + 1}`).toBe(401);

    const next = await login(shop, c.email, c.password, { ip });
    expect(next.status).toBe(429);
    expect(next.body.code).toBe("rate_limited");
    expect(Number(next.headers.get("retry-after"))).toBe(900);
    expect(setCookie(next, "access_token")).toBeUndefined();

    // A forged X-Forwarded-For prefix does not change the address (only the last hop counts).
    expect((await login(shop, c.email, c.password, { ip: `203.0.113.7, ${ip}` })).status).toBe(429);
    // The accounts themselves are not locked: from another address they sign in.
    expect((await login(shop, a.email, a.password)).status).toBe(200);
    expect((await login(shop, c.email, c.password)).status).toBe(200);

    shop.clock.advance(FIFTEEN_MINUTES);
    expect((await login(shop, c.email, c.password, { ip })).status).toBe(200);
  });

  it("lets no more than RATE_LOGIN_IP of a burst from one address be tried, and successes do not count", async () => {
    const users = [await registerUser(shop), await registerUser(shop), await registerUser(shop)];
    const ip = uniqueIp();
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => login(shop, users[i % 3]!.email, "Wrong-Password-x", { ip })));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    shop.clock.advance(FIFTEEN_MINUTES);
    // Right passwords from one address, however many, do not count.
    for (let i = 0; i < 25; i++) expect((await login(shop, users[i % 3]!.email, PASSWORD, { ip })).status).toBe(200);
    for (let i = 0; i < 20; i++) expect((await login(shop, users[i % 3]!.email, "Wrong-Password-x", { ip })).status).toBe(401);
    expect((await login(shop, users[0]!.email, PASSWORD, { ip })).status).toBe(429);
    shop.clock.advance(FIFTEEN_MINUTES);
  });

  it("does not reset the address counter on a success", async () => {
    const users = [await registerUser(shop), await registerUser(shop), await registerUser(shop)];
    const ip = uniqueIp();
    for (let i = 0; i < 19; i++) expect((await login(shop, users[i % 3]!.email, "Wrong-Password-x", { ip })).status).toBe(401);
    expect((await login(shop, users[0]!.email, PASSWORD, { ip })).status).toBe(200);
    expect((await login(shop, users[0]!.email, "Wrong-Password-x", { ip })).status).toBe(401);
    expect((await login(shop, users[1]!.email, PASSWORD, { ip })).status).toBe(429);
    shop.clock.advance(FIFTEEN_MINUTES);
  });

  it("treats clients without X-Forwarded-For as one address", async () => {
    const users = [await registerUser(shop), await registerUser(shop), await registerUser(shop)];
    for (let i = 0; i < 20; i++) {
      const reply = await shop.call("POST", "/v2/web/login", { json: { login: users[i % 3]!.email, password: "Wrong-Password-x" } });
      expect(reply.status).toBe(401);
    }
    const blocked = await shop.call("POST", "/v2/web/login", { json: { login: users[0]!.email, password: PASSWORD } });
    expect(blocked.status).toBe(429);
    shop.clock.advance(FIFTEEN_MINUTES);
  });
});
