// The write limits (docs/product/api.md#rate-limits) ("other state-changing calls": RATE_WRITE_USER per user,
// RATE_WRITE_IP per client address) at both doors: the JSON API and the pages' form actions
// (settings, login, …) count against the same counters, in one middleware; a refused page form
// shows the message on the page, with 429 and Retry-After, and its action does not run.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { manualClock } from "../../core/shared/clock.ts";
import { TEST_ORIGIN, useTestApp } from "../kit/app.ts";

const clock = manualClock();
const shop = useTestApp({ clock, env: { TRUST_PROXY: "1", RATE_WRITE_USER: "5/1m", RATE_WRITE_IP: "8/1m", RATE_REGISTER_IP: "1000/1h" } });
const ORIGIN = TEST_ORIGIN;
const PASSWORD = "Quartz-Lantern-42";
const RATE_LIMITED_EN = "Too many attempts. Please wait and try again.";

let ipSerial = 0;
const ipBase = randomBytes(2);
const uniqueIp = () => `10.${ipBase[0]}.${ipBase[1]}.${++ipSerial}`;

function form(path: string, fields: Record<string, string>, options: { cookie?: string; ip: string }) {
  return shop.request(path, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: ORIGIN,
      "sec-fetch-site": "same-origin",
      "x-forwarded-for": options.ip,
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

function api(path: string, json: unknown, options: { token: string; ip: string }) {
  return shop.request(path, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${options.token}`, "accept-language": "en", "x-forwarded-for": options.ip },
    body: JSON.stringify(json),
  });
}

/** A new user, signed in: its token (Bearer) and the cookie the pages read. */
async function newUser() {
  const email = `writer-${randomBytes(4).toString("hex")}@example.com`;
  const res = await shop.request("/v2/web/register", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": uniqueIp() },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  const { token } = (await res.json()) as { token: string };
  return { email, token, cookie: `access_token=${token}` };
}

async function preferences(token: string) {
  const res = await shop.request("/v2/web/frontend/data", { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { email_preferences: { allow_marketing: boolean } }).email_preferences;
}

const SETTINGS = "/en/dota2/profile/settings";

describe("write limits at the page door", () => {
  it("refuses the page form past RATE_WRITE_USER with 429, Retry-After and the message on the page; the action does not run", async () => {
    const user = await newUser();
    for (let i = 0; i < 5; i++) {
      // Each post from its own address: only the per-user counter is at work here.
      const res = await form(SETTINGS, { intent: "prefs", allow_security: "on", allow_marketing: "on" }, { cookie: user.cookie, ip: uniqueIp() });
      expect(res.status, `post ${i + 1}`).toBe(200);
    }
    const refused = await form(SETTINGS, { intent: "prefs", allow_security: "on" }, { cookie: user.cookie, ip: uniqueIp() });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    const html = await refused.text();
    expect(html).toContain(RATE_LIMITED_EN);
    expect(html).toContain('role="alert"');
    // The refused post would have turned marketing mail off.
    expect((await preferences(user.token)).allow_marketing).toBe(true);
    // Client-side submissions (React Router's .data requests) are refused the same way.
    const data = await form(`${SETTINGS}.data`, { intent: "prefs", allow_security: "on" }, { cookie: user.cookie, ip: uniqueIp() });
    expect(data.status).toBe(429);
    expect(await data.text()).toContain(RATE_LIMITED_EN);
    expect((await preferences(user.token)).allow_marketing).toBe(true);

    clock.advance(60_000);
    expect((await form(SETTINGS, { intent: "prefs", allow_security: "on" }, { cookie: user.cookie, ip: uniqueIp() })).status).toBe(200);
    expect((await preferences(user.token)).allow_marketing).toBe(false);
  });

  it("counts page forms and API calls of a user on one counter", async () => {
    const user = await newUser();
    const prefs = { allow_marketing: true, allow_security: true };
    for (let i = 0; i < 3; i++) expect((await api("/v2/web/user/email-preferences", prefs, { token: user.token, ip: uniqueIp() })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await form(SETTINGS, { intent: "prefs", allow_security: "on" }, { cookie: user.cookie, ip: uniqueIp() })).status).toBe(200);
    const apiRefused = await api("/v2/web/user/email-preferences", prefs, { token: user.token, ip: uniqueIp() });
    expect(apiRefused.status).toBe(429);
    expect(await apiRefused.json()).toEqual({ status: false, code: "rate_limited", message: RATE_LIMITED_EN });
    expect((await form(SETTINGS, { intent: "prefs", allow_security: "on" }, { cookie: user.cookie, ip: uniqueIp() })).status).toBe(429);
    clock.advance(60_000);
  });

  it("refuses a guest's page forms past RATE_WRITE_IP from one address, and not another address's", async () => {
    const ip = uniqueIp();
    const signIn = (from: string) => form("/en/auth", { intent: "password", login: "nobody@example.com", password: "Wrong-Password-1" }, { ip: from });
    for (let i = 0; i < 8; i++) expect((await signIn(ip)).status, `post ${i + 1}`).toBe(401);
    const refused = await signIn(ip);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain(RATE_LIMITED_EN);
    expect((await signIn(uniqueIp())).status).toBe(401);
    clock.advance(60_000);
    expect((await signIn(ip)).status).toBe(401);
  });

  it("counts a user's writes from one address on its counter too, pages and API alike", async () => {
    const [a, b] = [await newUser(), await newUser()];
    const ip = uniqueIp();
    for (let i = 0; i < 4; i++) expect((await form(SETTINGS, { intent: "prefs", allow_security: "on" }, { cookie: a.cookie, ip })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await api("/v2/web/user/email-preferences", { allow_marketing: true, allow_security: true }, { token: b.token, ip })).status).toBe(200);
    expect((await api("/v2/web/user/email-preferences", { allow_marketing: true, allow_security: true }, { token: b.token, ip })).status).toBe(429);
    expect((await form(SETTINGS, { intent: "prefs", allow_security: "on" }, { cookie: a.cookie, ip })).status).toBe(429);
    // The refusal by the address gave the user's count back: b still has one left elsewhere.
    expect((await api("/v2/web/user/email-preferences", { allow_marketing: true, allow_security: true }, { token: b.token, ip: uniqueIp() })).status).toBe(200);
    clock.advance(60_000);
  });
});
