// The auth pages' forms, posted like a browser without JavaScript: redirects after sign-in stay on
// this site, cross-site form posts are refused, guards send guests and signed-in users where
// spec §2 says.
import { describe, expect, it } from "vitest";
import { TEST_ORIGIN, useTestApp } from "../kit/app.ts";

const shop = useTestApp();
const ORIGIN = TEST_ORIGIN;

function form(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return shop.request(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, "sec-fetch-site": "same-origin", ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

const signIn = (redirectTo: string, path = "/en/auth") =>
  form(path, { intent: "password", login: "demo@example.com", password: "demo12345", redirectTo });

describe("sign-in page redirects", () => {
  it.each([
    ["https://evil.example/", "/en/dota2/profile"],
    ["//evil.example/profile", "/en/dota2/profile"],
    ["/\\evil.example", "/en/dota2/profile"],
    ["javascript:alert(1)", "/en/dota2/profile"],
    ["/en/cs2/profile/settings?tab=2", "/en/cs2/profile/settings?tab=2"],
  ])("redirectTo=%s leads to %s", async (redirectTo, expected) => {
    const res = await signIn(redirectTo);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(expected);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("access_token=") && c.includes("HttpOnly"))).toBe(true);
  });

  it("goes to the last game visited (cookie game) when there is no redirectTo", async () => {
    const res = await form("/auth", { intent: "password", login: "demo@example.com", password: "demo12345" }, { cookie: "game=minecraft" });
    expect(res.headers.get("location")).toBe("/minecraft/profile");
  });

  it("refuses a cross-site form post with 403 and signs nobody in", async () => {
    const res = await form("/en/auth", { intent: "password", login: "demo@example.com", password: "demo12345" }, { origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("access_token="))).toBe(false);
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
    const login = await signIn("");
    const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const auth = await shop.request("/en/auth/register", { headers: { cookie }, redirect: "manual" });
    expect(auth.headers.get("location")).toBe("/en/dota2/profile");
    const profile = await shop.request("/pt/profile", { headers: { cookie: `${cookie}; game=cs2` }, redirect: "manual" });
    expect(profile.headers.get("location")).toBe("/pt/cs2/profile");
    const unknownGame = await shop.request("/en/no-such-game/profile", { headers: { cookie } });
    expect(unknownGame.status).toBe(404);
  });
});
