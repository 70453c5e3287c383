// POST /v2/web/register (docs/product/accounts.md#registration): validation of every field, unicode tricks in e-mails,
// normalisation and uniqueness, the referrer cookie, the visitor id and the per-address limit.
import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import type { MessageKey } from "../../i18n/translate.ts";
import { TEST_ORIGIN, PASSWORD, message, registerUser, setCookie, uniqueEmail, uniqueIp, uniqueUsername, useShop } from "../kit/shop.ts";

const shop = useShop({ env: { RATE_REGISTER_IP: "3/1h" } });

const register = (json: unknown, options: { ip?: string; cookie?: string; lang?: string } = {}) =>
  shop.call("POST", "/v2/web/register", {
    json,
    ip: options.ip ?? uniqueIp(),
    lang: options.lang,
    ...(options.cookie ? { cookie: options.cookie, headers: { origin: TEST_ORIGIN } } : {}),
  });

async function userRow(email: string) {
  const rows = await shop.services.db.select().from(users).where(eq(users.email, email));
  return rows[0];
}

async function userCount(): Promise<number> {
  const rows = await shop.services.db.select({ n: sql<number>`count(*)::int` }).from(users);
  return rows[0]!.n;
}

function expectValidation(reply: Awaited<ReturnType<typeof register>>, fields: Record<string, MessageKey | RegExp>) {
  expect(reply.status, reply.text).toBe(400);
  expect(reply.body).toMatchObject({ status: false, code: "validation_failed", message: message(shop, "en", "errors.validation_failed") });
  for (const [field, expected] of Object.entries(fields)) {
    if (typeof expected === "string") expect(reply.body.errors[field], field).toBe(message(shop, "en", expected));
    else expect(reply.body.errors[field], field).toMatch(expected);
  }
  expect(setCookie(reply, "access_token")).toBeUndefined();
}

describe("register: success", () => {
  it("answers 200 with a token and an HttpOnly access_token cookie of 336 hours that signs the user in", async () => {
    const email = uniqueEmail("reg");
    const reply = await register({ email, password: PASSWORD });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ status: true, token: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/) });
    const cookie = setCookie(reply, "access_token")!;
    expect(cookie).toBe(`access_token=${reply.body.token}; Max-Age=1209600; Path=/; SameSite=Lax; HttpOnly`);
    expect(reply.headers.get("cache-control")).toBe("no-store");

    const byBearer = await shop.call("GET", "/v2/web/user/me", { token: reply.body.token });
    expect(byBearer.status).toBe(200);
    expect(byBearer.body.user).toMatchObject({ email, username: null, balance: 0, currency: "USD", two_fa_enabled: false, pending_email: null });
    expect(byBearer.body.user.referral_code).toMatch(/^[A-Z2-9]{8}$/);
    const byCookie = await shop.call("GET", "/v2/web/user/me", { cookie: `access_token=${reply.body.token}` });
    expect(byCookie.status).toBe(200);
    expect(byCookie.body.user.id).toBe(byBearer.body.user.id);

    const row = await userRow(email);
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row!.passwordHash).not.toContain(PASSWORD);
    expect(row!.locale).toBe("en");
  });

  it("stores the user's language from Accept-Language", async () => {
    const email = uniqueEmail("lang");
    expect((await register({ email, password: PASSWORD }, { lang: "es-ES,es;q=0.9" })).status).toBe(200);
    expect((await userRow(email))!.locale).toBe("es");
  });

  it("accepts a password of exactly 8 and of exactly 128 characters", async () => {
    expect((await register({ email: uniqueEmail(), password: "Vx7#kq2!" })).status).toBe(200);
    expect((await register({ email: uniqueEmail(), password: "Zq9!".repeat(32) })).status).toBe(200);
  });

  it("stores the t field as the visitor id", async () => {
    const email = uniqueEmail("visitor");
    expect((await register({ email, password: PASSWORD, t: "AbCdEfGh12345678" })).status).toBe(200);
    expect((await userRow(email))!.visitorId).toBe("AbCdEfGh12345678");
  });

  it("ignores unknown fields: no way to set a balance or a role", async () => {
    const email = uniqueEmail("extra");
    const reply = await register({ email, password: PASSWORD, balance: 1_000_000, role: "admin", two_fa_enabled: true, id: 1 });
    expect(reply.status).toBe(200);
    const row = (await userRow(email))!;
    expect(row.balance).toBe(0);
    expect(row.twoFaEnabled).toBe(false);
    expect(row.id).not.toBe(1);
  });
});

describe("register: validation", () => {
  it("refuses missing fields with errors per field", async () => {
    expectValidation(await register({}), { email: "validation.required", password: "validation.required" });
    expectValidation(await register({ email: uniqueEmail() }), { password: "validation.required" });
    expectValidation(await register({ password: PASSWORD }), { email: "validation.required" });
  });

  it("refuses ill-typed fields: numbers, arrays, objects, null", async () => {
    const before = await userCount();
    // A value of the wrong type is reported as such, not as missing.
    expectValidation(await register({ email: 12345, password: PASSWORD }), { email: "validation.invalid_type" });
    expectValidation(await register({ email: [uniqueEmail()], password: PASSWORD }), { email: /./ });
    expectValidation(await register({ email: uniqueEmail(), password: 12345678 }), { password: /./ });
    expectValidation(await register({ email: uniqueEmail(), password: null }), { password: "validation.invalid_type" });
    expectValidation(await register({ email: { $ne: "" }, password: PASSWORD }), { email: /./ });
    expectValidation(await register({ email: uniqueEmail(), password: PASSWORD, username: 42 }), { username: /./ });
    expectValidation(await register({ email: uniqueEmail(), password: PASSWORD, t: ["x"] }), { t: /./ });
    expect(await userCount()).toBe(before);
  });

  it("refuses a password shorter than 8 or longer than 128 characters", async () => {
    expectValidation(await register({ email: uniqueEmail(), password: "Vx7#kq2" }), { password: "validation.password_short" });
    expectValidation(await register({ email: uniqueEmail(), password: "Zq9!".repeat(32) + "x" }), { password: "validation.password_long" });
  });

  it.each(["password123", "qwertyuiop", "PASSWORD123", "iloveyou"])("refuses the common password %s", async (password) => {
    expectValidation(await register({ email: uniqueEmail(), password }), { password: "validation.password_common" });
  });

  it.each(["not-an-email", "a@b", "a..b@example.com", "@example.com", "alice@", "alice@example..com", "alice@-example.com", "al ice@example.com"])(
    "refuses the malformed e-mail %j",
    async (email) => {
      expectValidation(await register({ email, password: PASSWORD }), { email: "validation.email" });
    },
  );

  it.each([
    ["a zero-width space", "ali\u200bce@example.com"],
    ["a zero-width joiner", "alice\u200d@example.com"],
    ["a full-width at sign", "alice\uff20example.com"],
    ["a right-to-left override", "\u202ealice@example.com"],
    ["a Cyrillic а in the local part", "\u0430lice@example.com"],
    ["a Cyrillic е and о in the domain", "alice@\u0435xample.c\u043em"],
    ["a soft hyphen", "ali\u00adce@example.com"],
    ["a non-breaking space", "alice@example.com\u00a0x"],
  ])("refuses an e-mail with %s rather than storing a look-alike", async (_what, email) => {
    const before = await userCount();
    expectValidation(await register({ email, password: PASSWORD }), { email: "validation.email" });
    expect(await userCount()).toBe(before);
  });
});

describe("register: uniqueness", () => {
  it('stores "  Alice@Example.COM " as alice@example.com and refuses it again with 409 email_taken', async () => {
    const local = `alice-${Math.random().toString(36).slice(2, 8)}`;
    const first = await register({ email: `  ${local.toUpperCase()}@Example.COM `, password: PASSWORD });
    expect(first.status, first.text).toBe(200);
    expect(await userRow(`${local}@example.com`)).toBeDefined();
    const me = await shop.call("GET", "/v2/web/user/me", { token: first.body.token });
    expect(me.body.user.email).toBe(`${local}@example.com`);

    for (const again of [`${local}@example.com`, `${local.toUpperCase()}@EXAMPLE.com`]) {
      const reply = await register({ email: again, password: PASSWORD });
      expect(reply.status).toBe(409);
      expect(reply.body).toMatchObject({ status: false, code: "email_taken", message: message(shop, "en", "errors.email_taken") });
      expect(reply.body.errors.email).toBe(message(shop, "en", "validation.email_taken"));
      expect(setCookie(reply, "access_token")).toBeUndefined();
    }
  });

  it("refuses a username that is taken in another letter case with 409 username_taken", async () => {
    const name = uniqueUsername("Gamer");
    const first = await register({ email: uniqueEmail(), password: PASSWORD, username: name });
    expect(first.status).toBe(200);
    const reply = await register({ email: uniqueEmail(), password: PASSWORD, username: name.toLowerCase() });
    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({ status: false, code: "username_taken", message: message(shop, "en", "errors.username_taken") });
    expect(reply.body.errors.username).toBe(message(shop, "en", "validation.username_taken"));
  });

  it("refuses a malformed username", async () => {
    expectValidation(await register({ email: uniqueEmail(), password: PASSWORD, username: "a b" }), { username: "validation.username" });
    expectValidation(await register({ email: uniqueEmail(), password: PASSWORD, username: "ab" }), { username: "validation.username" });
  });
});

describe("register: referrer and limits", () => {
  it("links the new account to the owner of the referrer cookie's code", async () => {
    const referrer = await registerUser(shop);
    const code: string = (await shop.call("GET", "/v2/web/user/me", { token: referrer.token })).body.user.referral_code;
    const email = uniqueEmail("referred");
    const reply = await register({ email, password: PASSWORD }, { cookie: `referrer=${code}` });
    expect(reply.status, reply.text).toBe(200);
    expect((await userRow(email))!.referrerId).toBe(referrer.id);

    // The code is matched regardless of letter case.
    const lower = uniqueEmail("referred");
    expect((await register({ email: lower, password: PASSWORD }, { cookie: `referrer=${code.toLowerCase()}` })).status).toBe(200);
    expect((await userRow(lower))!.referrerId).toBe(referrer.id);
  });

  it("ignores an unknown referral code", async () => {
    const email = uniqueEmail("noref");
    const reply = await register({ email, password: PASSWORD }, { cookie: "referrer=NOSUCH99" });
    expect(reply.status).toBe(200);
    expect((await userRow(email))!.referrerId).toBeNull();
  });

  it("refuses a cookie-carrying registration from another site", async () => {
    const email = uniqueEmail("csrf");
    const reply = await shop.call("POST", "/v2/web/register", {
      json: { email, password: PASSWORD },
      cookie: "referrer=DEMO2026",
      headers: { origin: "https://evil.example" },
    });
    expect(reply.status).toBe(403);
    expect(reply.body.code).toBe("forbidden");
    expect(await userRow(email)).toBeUndefined();
  });

  it("limits registrations per client address (429 rate_limited with Retry-After past RATE_REGISTER_IP)", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 3; i++) expect((await register({ email: uniqueEmail("burst"), password: PASSWORD }, { ip })).status).toBe(200);
    const email = uniqueEmail("burst");
    const reply = await register({ email, password: PASSWORD }, { ip });
    expect(reply.status).toBe(429);
    expect(reply.body).toMatchObject({ status: false, code: "rate_limited", message: message(shop, "en", "errors.rate_limited") });
    expect(Number(reply.headers.get("retry-after"))).toBe(3600);
    expect(await userRow(email)).toBeUndefined();
    // Another address is not affected; after the hour this one may register again.
    expect((await register({ email: uniqueEmail("burst"), password: PASSWORD })).status).toBe(200);
    shop.clock.advance(3600 * 1000);
    expect((await register({ email, password: PASSWORD }, { ip })).status).toBe(200);
  });
});
