// The edge of the accounts API (docs/product/api.md#input): every authenticated call refuses a missing or dead
// session, malformed bodies of every kind give 400 (never a 500, never a stack trace), oversized
// bodies give 413 and the process keeps serving, and the per-user limit on state-changing calls.
import { describe, expect, it } from "vitest";
import { PASSWORD, message, registerUser, uniqueEmail, uniqueIp, useShop, type User } from "../kit/shop.ts";

const shop = useShop({ env: { RATE_WRITE_USER: "20/1m" } });

// Users shared by the table-driven tests (Argon2 makes every registration cost).
let signedIn: Promise<User> | undefined;
let signedOut: Promise<User> | undefined;
/** A live user; the clock moves a minute on, so earlier calls do not count against its write limit. */
const liveUser = () => {
  shop.clock.advance(60_000);
  return (signedIn ??= registerUser(shop));
};
const deadUser = () =>
  (signedOut ??= registerUser(shop).then(async (user) => {
    expect((await shop.call("POST", "/v2/web/logout", { token: user.token })).status).toBe(200);
    return user;
  }));

type Method = "GET" | "POST";

/** Every call that needs a signed-in user, with a body that would otherwise be valid. */
const AUTHENTICATED: [Method, string, unknown][] = [
  ["POST", "/v2/web/logout", {}],
  ["GET", "/v2/web/user/me", undefined],
  ["GET", "/v2/web/user/notification", undefined],
  ["POST", "/v2/web/user/changePassword", { old_password: PASSWORD, new_password: "Fresh-Orchid-55" }],
  ["POST", "/v2/web/user/changeEmail", { email: "someone-new@example.com" }],
  ["POST", "/v2/web/user/2fa/enable", {}],
  ["POST", "/v2/web/user/2fa/confirmEnable", { code: "123456" }],
  ["POST", "/v2/web/user/2fa/disable", { password: PASSWORD, code: "123456" }],
  ["POST", "/v2/web/user/email-preferences", { allow_marketing: true, allow_security: true }],
  ["POST", "/v2/web/sso/ticket", {}],
  // Needs the pre-2FA token of the password step.
  ["POST", "/v2/web/confirmTwoFa", { code: "123456" }],
];

/** Every POST call with a body, and a value of a wrong type for each of its fields. */
const BODIES: [string, Record<string, unknown>][] = [
  ["/v2/web/register", { email: uniqueEmail(), password: PASSWORD, username: "typed_user", t: "AbCdEfGh12345678", recaptchaToken: "x", referrer: "DEMO2026" }],
  ["/v2/web/login", { login: "demo@example.com", password: "demo12345", t: "AbCdEfGh12345678", recaptchaToken: "x" }],
  ["/v2/web/confirmTwoFa", { code: "123456" }],
  ["/auth/reset", { email: "demo@example.com", recaptchaToken: "x" }],
  ["/auth/validateResetCode", { email: "demo@example.com", resetCode: "123456" }],
  ["/auth/setPasswordReset", { email: "demo@example.com", resetCode: "123456", password: PASSWORD }],
  ["/v2/web/user/changePassword", { old_password: PASSWORD, new_password: "Fresh-Orchid-55" }],
  ["/v2/web/user/changeEmail", { email: "someone-new@example.com" }],
  ["/v2/web/user/2fa/confirmEnable", { code: "123456" }],
  ["/v2/web/user/2fa/disable", { password: PASSWORD, code: "123456" }],
  ["/v2/web/user/email-preferences", { allow_marketing: true, allow_security: false }],
];

const WRONG_VALUES: [string, unknown][] = [
  ["a number", 12345678],
  ["an array", ["abcdefgh"]],
  ["null", null],
  ["an object", { $gt: "" }],
];

describe("authentication", () => {
  it.each(AUTHENTICATED)("%s %s without a token → 401 unauthenticated", async (method, path, json) => {
    const reply = await shop.call(method, path, { json });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ status: false, code: "unauthenticated", message: message(shop, "en", "errors.unauthenticated") });
    // With an empty body too: the session is checked before the body (except by confirmTwoFa,
    // which validates its body before it reads the pre-2FA token).
    if (path === "/v2/web/confirmTwoFa") return;
    const empty = await shop.call(method, path, { json: method === "POST" ? {} : undefined, lang: "ru" });
    expect(empty.status).toBe(401);
    expect(empty.body.message).toBe(message(shop, "ru", "errors.unauthenticated"));
  });

  it.each(AUTHENTICATED)("%s %s with a dead, unknown or malformed token → 401", async (method, path, json) => {
    const user = await deadUser();
    for (const headers of [
      { authorization: `Bearer ${user.token}` },
      { authorization: `Bearer ${"Q".repeat(43)}` },
      { authorization: `Basic ${Buffer.from(`${user.email}:${PASSWORD}`).toString("base64")}` },
      { authorization: "Bearer " },
      { authorization: `Bearer ${"Q".repeat(5000)}` },
    ]) {
      const reply = await shop.call(method, path, { json, headers });
      expect(reply.status, headers.authorization.slice(0, 20)).toBe(401);
      expect(reply.body.code).toBe("unauthenticated");
    }
  });
});

describe("malformed bodies", () => {
  it.each(BODIES)("%s: a wrong type for any field → 400 validation_failed naming it", async (path, valid) => {
    const user = await liveUser();
    for (const field of Object.keys(valid)) {
      // Every POST counts against the user's write limit (20/1m here), register and login too.
      shop.clock.advance(60_000);
      for (const [what, value] of WRONG_VALUES) {
        const reply = await shop.call("POST", path, { token: user.token, json: { ...valid, [field]: value }, ip: uniqueIp() });
        expect(reply.status, `${field} as ${what}`).toBe(400);
        expect(reply.body.code, `${field} as ${what}`).toBe("validation_failed");
        expect(Object.keys(reply.body.errors), `${field} as ${what}`).toContain(field);
      }
    }
  });

  it.each(BODIES)("%s: a body that is no JSON object → 400, another media type → 415", async (path) => {
    const user = await liveUser();
    const send = (raw: string, type = "application/json") => shop.call("POST", path, { token: user.token, raw, headers: { "content-type": type }, ip: uniqueIp() });
    for (const raw of ["[]", "null", '"text"', "42", "true", '[{"email":"a@example.com"}]']) {
      const reply = await send(raw);
      expect(reply.status, raw).toBe(400);
      expect(reply.body).toEqual({ status: false, code: "invalid_json", message: message(shop, "en", "errors.invalid_json") });
    }
    for (const raw of ['{"email":', "{'email': 'a@example.com'}", '{"a":1}}', "\u0000"]) {
      const reply = await send(raw);
      expect(reply.status, raw).toBe(400);
      expect(reply.body.code).toBe("invalid_json");
    }
    const form = await send("email=a%40example.com", "application/x-www-form-urlencoded");
    expect(form.status).toBe(415);
    expect(form.body.code).toBe("unsupported_media_type");
    const empty = await send("");
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe("validation_failed");
  });

  it("survives a deeply nested value and a huge number of fields within the size limit", async () => {
    const nested = `{"login":${"[".repeat(20_000)}${"]".repeat(20_000)},"password":"x"}`;
    const deep = await shop.call("POST", "/v2/web/login", { raw: nested, headers: { "content-type": "application/json" } });
    expect(deep.status).toBe(400);
    const many = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`f${i}`, i]));
    const wide = await shop.call("POST", "/v2/web/login", { json: { ...many, login: "demo@example.com", password: "demo12345" }, ip: uniqueIp() });
    expect(wide.status).toBe(200);
  });

  it("refuses a 1 MiB body with 413 payload_too_large on every kind of call, and keeps serving", async () => {
    const user = await registerUser(shop);
    const big = "x".repeat(1024 * 1024);
    for (const [path, body] of [
      ["/v2/web/register", { email: uniqueEmail(), password: PASSWORD, t: big }],
      ["/v2/web/login", { login: big, password: PASSWORD }],
      ["/auth/reset", { email: big }],
      ["/v2/web/user/changePassword", { old_password: PASSWORD, new_password: big }],
    ] as const) {
      const reply = await shop.call("POST", path, { token: user.token, json: body });
      expect(reply.status, path).toBe(413);
      expect(reply.body).toEqual({ status: false, code: "payload_too_large", message: message(shop, "en", "errors.payload_too_large") });
    }
    const raw = await shop.call("POST", "/v2/web/login", { raw: big, headers: { "content-type": "application/json" } });
    expect(raw.status).toBe(413);
    // Still serving, and nothing changed.
    expect((await shop.call("GET", "/v2/web/user/me", { token: user.token })).status).toBe(200);
    expect((await shop.call("GET", "/healthz")).status).toBe(200);
    expect((await shop.call("POST", "/v2/web/login", { json: { login: user.email, password: PASSWORD }, ip: uniqueIp() })).status).toBe(200);
  });
});

describe("other state-changing calls per user", () => {
  it("answers the call past RATE_WRITE_USER within a minute with 429 and Retry-After", async () => {
    const user = await registerUser(shop);
    const other = await registerUser(shop);
    const prefs = (token: string) => shop.call("POST", "/v2/web/user/email-preferences", { token, json: { allow_marketing: true, allow_security: true }, ip: uniqueIp() });
    for (let i = 0; i < 20; i++) expect((await prefs(user.token)).status).toBe(200);
    const blocked = await prefs(user.token);
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe("rate_limited");
    expect(blocked.headers.get("retry-after")).toBe("60");
    // Reading is not limited, nor is another user.
    expect((await shop.call("GET", "/v2/web/user/me", { token: user.token })).status).toBe(200);
    expect((await prefs(other.token)).status).toBe(200);
    shop.clock.advance(60_000);
    expect((await prefs(user.token)).status).toBe(200);
  });
});
