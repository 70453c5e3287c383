// reCAPTCHA on login, register and the reset request (docs/product/accounts.md#recaptcha): with RECAPTCHA_SECRET
// and RECAPTCHA_VERIFY_URL set, the token is verified against a loopback siteverify server.
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { PASSWORD, mailsTo, message, uniqueEmail, uniqueIp, useShop } from "../kit/shop.ts";

const shop = useShop({ recaptcha: true, smtp: true });

type Case = { name: string; path: string; body: () => Record<string, unknown>; after?: (body: Record<string, unknown>) => Promise<void> };

// One account for the login case, registered straight in the database (registration itself needs a token).
let loginEmail: string | undefined;
async function loginAccount(): Promise<string> {
  if (loginEmail) return loginEmail;
  loginEmail = uniqueEmail("captcha");
  const { token } = await shop.services.accounts.register({ email: loginEmail, password: PASSWORD, username: undefined, recaptchaToken: shop.recaptcha.goodToken }, { ip: "seed", locale: "en" });
  expect(token).toBeTruthy();
  return loginEmail;
}

const CASES: Case[] = [
  { name: "login", path: "/v2/web/login", body: () => ({ login: loginEmail!, password: PASSWORD }) },
  { name: "register", path: "/v2/web/register", body: () => ({ email: uniqueEmail("captcha-reg"), password: PASSWORD }) },
  { name: "reset", path: "/auth/reset", body: () => ({ email: loginEmail! }) },
];

const refused = (reply: { status: number; body: { code?: string; message?: string } }) => {
  expect(reply.status).toBe(400);
  expect(reply.body).toEqual({ status: false, code: "recaptcha_failed", message: message(shop, "en", "errors.recaptcha_failed") });
};

async function userExists(email: string): Promise<boolean> {
  return (await shop.services.db.select({ id: users.id }).from(users).where(eq(users.email, email))).length === 1;
}

describe.each(CASES)("reCAPTCHA on $name", ({ name, path, body }) => {
  it("refuses a request without a token with 400 recaptcha_failed (no verify call needed)", async () => {
    await loginAccount();
    const before = shop.recaptcha.requests.length;
    const json = body();
    refused(await shop.call("POST", path, { json, ip: uniqueIp() }));
    refused(await shop.call("POST", path, { json: { ...json, recaptchaToken: "" }, ip: uniqueIp() }));
    expect(shop.recaptcha.requests.length).toBe(before);
    if (name === "register") expect(await userExists(json.email as string)).toBe(false);
  });

  it("refuses a bad token after asking the verify server with the secret, the token and the client address", async () => {
    await loginAccount();
    const before = shop.recaptcha.requests.length;
    const ip = uniqueIp();
    const json = body();
    const reply = await shop.call("POST", path, { json: { ...json, recaptchaToken: shop.recaptcha.badToken }, ip });
    refused(reply);
    expect(shop.recaptcha.requests.length).toBe(before + 1);
    const request = shop.recaptcha.requests.at(-1)!;
    expect(request.method).toBe("POST");
    expect(request.contentType).toContain("application/x-www-form-urlencoded");
    expect(request.form).toEqual({ secret: shop.recaptcha.secret, response: shop.recaptcha.badToken, remoteip: ip });
    if (name === "register") expect(await userExists(json.email as string)).toBe(false);
  });

  it("refuses a likely bot (v3 score below 0.5) and fails closed when the verify server errs", async () => {
    await loginAccount();
    const before = shop.recaptcha.requests.length;
    refused(await shop.call("POST", path, { json: { ...body(), recaptchaToken: shop.recaptcha.lowScoreToken }, ip: uniqueIp() }));
    refused(await shop.call("POST", path, { json: { ...body(), recaptchaToken: shop.recaptcha.brokenToken }, ip: uniqueIp() }));
    expect(shop.recaptcha.requests.length).toBe(before + 2);
  });

  it("lets a good token through", async () => {
    await loginAccount();
    // The account's welcome mail went out already; only the reset mail may come of this call.
    await shop.services.background.drain();
    const mailsBefore = mailsTo(shop.smtp, loginEmail!).length;
    const before = shop.recaptcha.requests.length;
    const json = body();
    const reply = await shop.call("POST", path, { json: { ...json, recaptchaToken: shop.recaptcha.goodToken }, ip: uniqueIp() });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.status).toBe(true);
    expect(shop.recaptcha.requests.length).toBe(before + 1);
    expect(shop.recaptcha.requests.at(-1)!.form.response).toBe(shop.recaptcha.goodToken);
    if (name === "login" || name === "register") expect(reply.body.token).toEqual(expect.any(String));
    if (name === "register") expect(await userExists(json.email as string)).toBe(true);
    if (name === "reset") {
      await shop.services.background.drain();
      expect(mailsTo(shop.smtp, loginEmail!)).toHaveLength(mailsBefore + 1);
    }
  });
});

describe("calls without reCAPTCHA", () => {
  it("validateResetCode and signed-in calls need no token", async () => {
    const before = shop.recaptcha.requests.length;
    const reply = await shop.call("POST", "/auth/validateResetCode", { json: { email: uniqueEmail(), resetCode: "123456" }, ip: uniqueIp() });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe("invalid_code");
    expect(shop.recaptcha.requests.length).toBe(before);
  });
});
