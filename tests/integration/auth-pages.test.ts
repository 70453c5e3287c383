// The auth pages' forms, posted like a browser without JavaScript: redirects after sign-in stay on
// this site, cross-site form posts are refused, guards send guests and signed-in users where
// docs/product/routes.md#guards-and-redirects says.
import { describe, expect, it } from "vitest";
import { totpAt } from "../../core/accounts/totp.ts";
import { manualClock } from "../../core/shared/clock.ts";
import { useTestApp } from "../kit/app.ts";
import { cookieHeader, cookieSetTo, setCookie } from "../kit/shop.ts";

const clock = manualClock(new Date());
const shop = useTestApp({ clock });
const origin = () => shop.services.settings.PUBLIC_URL;
const PASSWORD = "Quartz-Lantern-42";
let serial = 0;
const uniqueEmail = (tag: string) => `${tag}-${Date.now().toString(36)}-${++serial}@example.com`;

function form(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return shop.request(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: origin(), "sec-fetch-site": "same-origin", ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

async function api(path: string, json: unknown, token?: string) {
  const res = await shop.request(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(json),
  });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body;
}

const signedIn = (res: Response) => Boolean(cookieSetTo(res, "access_token")) && setCookie(res, "access_token")!.includes("HttpOnly");

const signIn = (redirectTo: string, path = "/en/auth") => form(path, { intent: "password", login: "demo@example.com", password: "demo12345", redirectTo });

/** Spellings of a target on another host, as browsers would read them in a Location (issue 7). */
const OFFSITE = [
  "https://evil.example/",
  "//evil.example/profile",
  "///evil.example",
  "/.//evil.example",
  "/..//evil.example",
  "/./..//evil.example",
  "/en/dota2/../..//evil.example",
  "/%2e%2e//evil.example",
  "/.%2E//evil.example",
  "/%2F/evil.example",
  "/%2f%2fevil.example",
  "/%5C/evil.example",
  "/%5c%5cevil.example",
  "/%252F/evil.example",
  "/\\evil.example",
  "/\\/evil.example",
  "\\\\evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "/%09/evil.example",
  " //evil.example",
  "\t//evil.example",
  "/\uff0fevil.example",
  "/\u2215evil.example",
  "\uff0f\uff0fevil.example",
  "/%EF%BC%8Fevil.example",
  "https:evil.example",
  "http:/evil.example",
  "javascript:alert(1)",
];
const FALLBACK = "/en/dota2/profile";
const OURS = "/en/cs2/profile/settings?tab=2";

/**
 * Every door that signs a visitor in and then follows redirectTo, posted like a browser without
 * JavaScript. Each returns the final answer (a redirect) with its Location.
 */
const doors: [string, (redirectTo: string) => Promise<Response>][] = [
  ["sign-in", (redirectTo) => signIn(redirectTo)],
  ["registration", (redirectTo) => form("/en/auth/register", { email: uniqueEmail("door"), password: PASSWORD, redirectTo })],
  [
    "2FA step",
    async (redirectTo) => {
      const { email, secret } = await twoFaUser();
      const step = await form("/en/auth", { intent: "password", login: email, password: PASSWORD, redirectTo });
      expect(step.status).toBe(302);
      clock.advance(30_000); // each TOTP code is good once
      return form("/en/auth", { intent: "code", code: totpAt(secret, clock.now()), redirectTo }, { cookie: cookieHeader(step) });
    },
  ],
  [
    "SSO ticket",
    async (redirectTo) => {
      // The link carries redirectTo; the page hands it to the POST that spends the ticket.
      const { ticket } = await api("/v2/web/sso/ticket", {}, await demoToken());
      const page = await shop.request(`/en/auth/sso?ticket=${ticket}&redirectTo=${encodeURIComponent(redirectTo)}`);
      const shown = /name="redirectTo" value="([^"]*)"/.exec(await page.text())?.[1] ?? "";
      const decoded = shown.replace(/&(amp|quot|lt|gt|#x27|#39);/g, (_, e: string) => ({ amp: "&", quot: '"', lt: "<", gt: ">", "#x27": "'", "#39": "'" })[e]!);
      return form(`/en/auth/sso?ticket=${ticket}`, { ticket, redirectTo: decoded });
    },
  ],
];

let twoFa: Promise<{ email: string; secret: string }> | undefined;
/** One user with 2FA on, made through the API. */
function twoFaUser() {
  twoFa ??= (async () => {
    const email = uniqueEmail("twofa");
    const { token } = await api("/v2/web/register", { email, password: PASSWORD });
    const { secret } = await api("/v2/web/user/2fa/enable", {}, token);
    await api("/v2/web/user/2fa/confirmEnable", { code: totpAt(secret, clock.now()) }, token);
    return { email, secret };
  })();
  return twoFa;
}

let demo: Promise<string> | undefined;
const demoToken = () => (demo ??= api("/v2/web/login", { login: "demo@example.com", password: "demo12345" }).then((b) => b.token as string));

describe.each(doors)("after %s, redirectTo", (_door, enter) => {
  it.each(OFFSITE)("%j stays on this site (the stored game's profile)", async (redirectTo) => {
    const res = await enter(redirectTo);
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(new URL(location, origin()).origin).toBe(origin());
    expect(location).toBe(FALLBACK);
    expect(signedIn(res)).toBe(true);
  });

  it(`${OURS} of this site is followed`, async () => {
    const res = await enter(OURS);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(OURS);
    expect(signedIn(res)).toBe(true);
  });
});

// A NUL byte never reaches the redirect rule: control characters are refused at the edge, so the
// form is answered 400 with no redirect and nobody signed in (issue 7, point 12).
describe.each(doors.slice(0, 2))("after %s, redirectTo with a NUL byte", (_door, enter) => {
  it("is refused at the edge: 400, no redirect, nobody signed in", async () => {
    const res = await enter("/\u0000/evil.example");
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(signedIn(res)).toBe(false);
  });
});

describe("sign-in page", () => {
  it("goes to the last game visited (cookie game) when there is no redirectTo", async () => {
    const res = await form("/auth", { intent: "password", login: "demo@example.com", password: "demo12345" }, { cookie: "game=minecraft" });
    expect(res.headers.get("location")).toBe("/minecraft/profile");
  });

  it("refuses a cross-site form post with 403 and signs nobody in", async () => {
    const res = await form("/en/auth", { intent: "password", login: "demo@example.com", password: "demo12345" }, { origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(res.status).toBe(403);
    expect(setCookie(res, "access_token")).toBeUndefined();
  });

  it("answers a wrong password on the page with 401 and the message next to the form, in the page's language", async () => {
    const res = await form("/auth", { intent: "password", login: "demo@example.com", password: "wrong password" });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain("Неверный e-mail или пароль.");
  });
});

describe("guards", () => {
  it("sends a guest on a profile page to /auth with the full path in redirectTo, in their language", async () => {
    const res = await shop.request("/es/minecraft/profile/settings?x=1", { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/es/auth?redirectTo=${encodeURIComponent("/es/minecraft/profile/settings?x=1")}`);
  });

  it("sends a signed-in user from an auth page to the profile, and /profile to the stored game", async () => {
    const cookie = cookieHeader(await signIn(""));
    const auth = await shop.request("/en/auth/register", { headers: { cookie }, redirect: "manual" });
    expect(auth.headers.get("location")).toBe("/en/dota2/profile");
    const profile = await shop.request("/pt/profile", { headers: { cookie: `${cookie}; game=cs2` }, redirect: "manual" });
    expect(profile.headers.get("location")).toBe("/pt/cs2/profile");
    const unknownGame = await shop.request("/en/no-such-game/profile", { headers: { cookie } });
    expect(unknownGame.status).toBe(404);
  });
});
