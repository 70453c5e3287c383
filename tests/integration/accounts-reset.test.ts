// Password reset by mailed code (docs/product/accounts.md#password-reset): /auth/reset, /auth/validateResetCode,
// /auth/setPasswordReset, with real mail through the loopback SMTP server.
import { describe, expect, it } from "vitest";
import { TEST_ORIGIN, PASSWORD, codeIn, linksIn, login, mailsTo, meStatus, message, registerUser, uniqueEmail, uniqueIp, useShop, type Reply, type User } from "../kit/shop.ts";

const shop = useShop({ smtp: true, env: { RATE_RESET_IP: "4/1h" } });

const NEW_PASSWORD = "Harbor-Violet-77";

const requestReset = (email: string, ip?: string) => shop.call("POST", "/auth/reset", { json: { email }, ip: ip ?? uniqueIp() });
const validate = (email: string, resetCode: string) => shop.call("POST", "/auth/validateResetCode", { json: { email, resetCode }, ip: uniqueIp() });
const setPassword = (email: string, resetCode: string, password = NEW_PASSWORD) => shop.call("POST", "/auth/setPasswordReset", { json: { email, resetCode, password }, ip: uniqueIp() });

/** Requests a reset, waits for the background mail and returns the code it carried. */
async function resetCodeFor(user: User): Promise<string> {
  const before = mailsTo(shop.smtp, user.email).length;
  const reply = await requestReset(user.email);
  expect(reply.status, reply.text).toBe(200);
  await shop.services.background.drain();
  const mails = mailsTo(shop.smtp, user.email);
  expect(mails).toHaveLength(before + 1);
  return codeIn(mails.at(-1)!);
}

/** A six-digit code different from `code`. */
const otherCode = (code: string, n = 1) => String((Number(code) + n) % 1_000_000).padStart(6, "0");

function expectInvalidCode(reply: Awaited<ReturnType<typeof validate>>) {
  expect(reply.status, reply.text).toBe(400);
  expect(reply.body).toEqual({ status: false, code: "invalid_code", message: message(shop, "en", "errors.invalid_code") });
}

describe("/auth/reset", () => {
  it("answers {status:true} for known and unknown e-mails alike and mails the code to a known one in its language", async () => {
    const user = await registerUser(shop, { lang: "es" });
    const ghost = uniqueEmail("ghost");
    const known = await requestReset(user.email);
    const unknown = await requestReset(ghost);
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.text).toBe('{"status":true}');
    expect(unknown.text).toBe(known.text);
    expect(known.headers.get("cache-control")).toBe("no-store");

    await shop.services.background.drain();
    expect(mailsTo(shop.smtp, ghost)).toHaveLength(0);
    const mails = mailsTo(shop.smtp, user.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    // The user's language (es), not the request's (en).
    expect(mail.subject).toBe(message(shop, "es", "mail.password_reset.subject"));
    expect(mail.text).toContain(message(shop, "es", "mail.password_reset.intro"));
    const code = codeIn(mail);
    expect(code).toMatch(/^\d{6}$/);
    const link = linksIn(mail).find((l) => l.includes("/auth/restore-password"));
    expect(link).toBe(`${TEST_ORIGIN}/es/auth/restore-password?email=${encodeURIComponent(user.email)}&code=${code}`);
    expect(mail.html).toContain(code);

    expect((await validate(user.email, code)).status).toBe(200);
  });

  it("finds the account whatever the letter case and spaces of the address", async () => {
    const user = await registerUser(shop);
    const reply = await requestReset(`  ${user.email.toUpperCase()} `);
    expect(reply.status).toBe(200);
    await shop.services.background.drain();
    expect(mailsTo(shop.smtp, user.email)).toHaveLength(1);
  });

  it("refuses a missing or malformed e-mail with 400 validation_failed", async () => {
    for (const json of [{}, { email: "nope" }, { email: 5 }, { email: ["a@example.com"] }, { email: null }]) {
      const reply = await shop.call("POST", "/auth/reset", { json, ip: uniqueIp() });
      expect(reply.status, JSON.stringify(json)).toBe(400);
      expect(reply.body.code).toBe("validation_failed");
      expect(reply.body.errors.email).toBeDefined();
    }
  });

  it("answers the 6th request for one e-mail within an hour as if sent, but sends no mail", async () => {
    const user = await registerUser(shop);
    for (let i = 0; i < 5; i++) {
      expect((await requestReset(i % 2 ? user.email.toUpperCase() : user.email)).status).toBe(200);
      await shop.services.background.drain();
    }
    expect(mailsTo(shop.smtp, user.email)).toHaveLength(5);
    const sixth = await requestReset(user.email);
    expect(sixth.status).toBe(200);
    expect(sixth.text).toBe('{"status":true}');
    await shop.services.background.drain();
    expect(mailsTo(shop.smtp, user.email)).toHaveLength(5);
    // The latest mailed code is still the live one.
    const last = codeIn(mailsTo(shop.smtp, user.email).at(-1)!);
    expect((await validate(user.email, last)).status).toBe(200);

    shop.clock.advance(3600 * 1000);
    expect((await requestReset(user.email)).status).toBe(200);
    await shop.services.background.drain();
    expect(mailsTo(shop.smtp, user.email)).toHaveLength(6);
  });

  it("limits requests per client address: 429 rate_limited with Retry-After past RATE_RESET_IP", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 4; i++) expect((await requestReset(uniqueEmail("flood"), ip)).status).toBe(200);
    const user = await registerUser(shop);
    const blocked = await requestReset(user.email, ip);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ status: false, code: "rate_limited", message: message(shop, "en", "errors.rate_limited") });
    expect(blocked.headers.get("retry-after")).toBe("3600");
    await shop.services.background.drain();
    expect(mailsTo(shop.smtp, user.email)).toHaveLength(0);
    // Another address is served.
    expect((await requestReset(user.email)).status).toBe(200);
    await shop.services.background.drain();
    expect(mailsTo(shop.smtp, user.email)).toHaveLength(1);
  });
});

describe("/auth/validateResetCode", () => {
  it("answers 200 for the right code (without spending it) and 400 invalid_code for a wrong one", async () => {
    const user = await registerUser(shop);
    const code = await resetCodeFor(user);
    const right = await validate(user.email, code);
    expect(right.status).toBe(200);
    expect(right.body).toEqual({ status: true });
    expect((await validate(user.email, code)).status).toBe(200);
    expectInvalidCode(await validate(user.email, otherCode(code)));
    // The right code for another address is wrong.
    expectInvalidCode(await validate(uniqueEmail("ghost"), code));
    expect((await setPassword(user.email, code)).status).toBe(200);
  });

  it("refuses a malformed code or e-mail with 400 validation_failed", async () => {
    for (const json of [
      {},
      { email: uniqueEmail(), resetCode: "12345" },
      { email: uniqueEmail(), resetCode: "12a456" },
      { email: uniqueEmail(), resetCode: 123456 },
      { email: "x", resetCode: "123456" },
    ]) {
      const reply = await shop.call("POST", "/auth/validateResetCode", { json, ip: uniqueIp() });
      expect(reply.status, JSON.stringify(json)).toBe(400);
      expect(reply.body.code).toBe("validation_failed");
    }
  });

  it("kills a code after 10 minutes", async () => {
    const user = await registerUser(shop);
    const code = await resetCodeFor(user);
    shop.clock.advance(10 * 60 * 1000 - 1000);
    expect((await validate(user.email, code)).status).toBe(200);
    shop.clock.advance(2000);
    expectInvalidCode(await validate(user.email, code));
    expectInvalidCode(await setPassword(user.email, code));
    expect((await login(shop, user.email, NEW_PASSWORD)).status).toBe(401);
  });

  it("kills a code after 5 wrong tries", async () => {
    const user = await registerUser(shop);
    const code = await resetCodeFor(user);
    for (let i = 1; i <= 5; i++) {
      // Wrong tries through either call count.
      expectInvalidCode(i % 2 ? await validate(user.email, otherCode(code, i)) : await setPassword(user.email, otherCode(code, i)));
    }
    // Five wrong checks also reach the per-e-mail limit on checks (RATE_RESET_ACCOUNT): lift it to
    // see that the code itself is dead.
    expect((await validate(user.email, code)).status).toBe(429);
    await shop.services.limiter.reset(`reset-check:email:${user.email}`);
    expectInvalidCode(await validate(user.email, code));
    expectInvalidCode(await setPassword(user.email, code));
    expect((await login(shop, user.email, user.password)).status).toBe(200);
  });

  it("still takes the right code after 4 wrong tries (right ones do not count)", async () => {
    const user = await registerUser(shop);
    const code = await resetCodeFor(user);
    for (let i = 0; i < 3; i++) expect((await validate(user.email, code)).status).toBe(200);
    for (let i = 1; i <= 4; i++) expectInvalidCode(await validate(user.email, otherCode(code, i)));
    expect((await validate(user.email, code)).status).toBe(200);
    expect((await setPassword(user.email, code)).status).toBe(200);
  });

  it("kills the older code when a newer one is requested", async () => {
    const user = await registerUser(shop);
    const older = await resetCodeFor(user);
    const newer = await resetCodeFor(user);
    if (older !== newer) expectInvalidCode(await validate(user.email, older));
    expect((await validate(user.email, newer)).status).toBe(200);
  });
});

describe("limits on reset code checks (validateResetCode and setPasswordReset)", () => {
  it("refuses the 6th wrong check of an e-mail within the hour with 429, for a registered and an unknown address alike", async () => {
    const user = await registerUser(shop);
    const code = await resetCodeFor(user);
    const ghost = uniqueEmail("ghost");
    const answers = async (email: string) => {
      const replies: Reply[] = [];
      for (let i = 1; i <= 6; i++) replies.push(i % 2 ? await validate(email, otherCode(code, i)) : await setPassword(email, otherCode(code, i)));
      return replies.map((r) => [r.status, r.body]);
    };
    const known = await answers(user.email);
    const unknown = await answers(ghost);
    expect(known.map(([status]) => status)).toEqual([400, 400, 400, 400, 400, 429]);
    expect(unknown).toEqual(known);
    expect(known[5]![1]).toEqual({ status: false, code: "rate_limited", message: message(shop, "en", "errors.rate_limited") });
    shop.clock.advance(60 * 60 * 1000);
  });

  it("refuses wrong checks past RATE_RESET_IP from one client address, whatever the e-mails", async () => {
    const ip = uniqueIp();
    const check = (email: string) => shop.call("POST", "/auth/validateResetCode", { json: { email, resetCode: "123456" }, ip });
    for (let i = 0; i < 4; i++) expectInvalidCode(await check(uniqueEmail("spray")));
    const refused = await check(uniqueEmail("spray"));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address is served.
    expectInvalidCode(await validate(uniqueEmail("spray"), "123456"));
    shop.clock.advance(60 * 60 * 1000);
  });
});

describe("/auth/setPasswordReset", () => {
  it("sets the password once, ends every session, and the new password signs in", async () => {
    const user = await registerUser(shop);
    const second = (await login(shop, user.email, user.password)).body.token as string;
    const code = await resetCodeFor(user);

    const reply = await setPassword(user.email, code);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ status: true });
    expectInvalidCode(await setPassword(user.email, code, "Another-Pass-99"));

    expect(await meStatus(shop, user.token)).toBe(401);
    expect(await meStatus(shop, second)).toBe(401);
    expect((await login(shop, user.email, user.password)).status).toBe(401);
    const fresh = await login(shop, user.email, NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    expect(await meStatus(shop, fresh.body.token)).toBe(200);
    expect((await login(shop, user.email, "Another-Pass-99")).status).toBe(401);

    // The owner is told: a mail and a notification.
    const notice = mailsTo(shop.smtp, user.email).at(-1)!;
    expect(notice.subject).toBe(message(shop, "en", "mail.password_changed.subject"));
    const notes = await shop.call("GET", "/v2/web/user/notification", { token: fresh.body.token });
    expect(notes.body.notifications[0]).toMatchObject({ type: "password_changed", title: message(shop, "en", "notification.password_changed.title") });
  });

  it("refuses a weak new password with 400 validation_failed without spending the code", async () => {
    const user = await registerUser(shop);
    const code = await resetCodeFor(user);
    for (const [password, key] of [
      ["password123", "validation.password_common"],
      ["short", "validation.password_short"],
      ["x".repeat(129), "validation.password_long"],
    ] as const) {
      const reply = await setPassword(user.email, code, password);
      expect(reply.status).toBe(400);
      expect(reply.body.code).toBe("validation_failed");
      expect(reply.body.errors.password).toBe(message(shop, "en", key));
    }
    const missing = await shop.call("POST", "/auth/setPasswordReset", { json: { email: user.email, resetCode: code }, ip: uniqueIp() });
    expect(missing.body.errors).toEqual({ password: message(shop, "en", "validation.required") });
    expect((await setPassword(user.email, code)).status).toBe(200);
    expect((await login(shop, user.email, PASSWORD)).status).toBe(401);
  });
});
