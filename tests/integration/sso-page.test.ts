// The one-time sign-in link /auth/sso?ticket=… (docs/product/accounts.md#single-sign-on; issue 7): opening it (a GET, as
// every mail and chat link scanner does) spends nothing and shows whose account it is; a POST from
// that page spends the ticket once; a signed-in visitor sees both accounts and keeps their session
// unless they confirm; a cross-site POST is refused. The ticket still lives 60 s.
import { describe, expect, it } from "vitest";
import { manualClock } from "../../core/shared/clock.ts";
import { useTestApp } from "../kit/app.ts";
import { cookieSetTo, setCookie } from "../kit/shop.ts";

const clock = manualClock(new Date());
const shop = useTestApp({ clock });
const origin = () => shop.services.settings.PUBLIC_URL;
const PASSWORD = "Quartz-Lantern-42";
let serial = 0;

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

type User = { email: string; username: string; token: string };

async function newUser(): Promise<User> {
  const n = ++serial;
  const email = `sso-${Date.now().toString(36)}-${n}@example.com`;
  const username = `sso_user_${Date.now().toString(36)}_${n}`;
  const { token } = await api("/v2/web/register", { email, password: PASSWORD, username });
  return { email, username, token };
}

const ticketOf = async (user: User): Promise<string> => (await api("/v2/web/sso/ticket", {}, user.token)).ticket;

/** 200 while the session of this token lives, 401 once it is dead. */
const meStatus = async (token: string) => (await shop.request("/v2/web/user/me", { headers: { authorization: `Bearer ${token}` } })).status;

const open = (ticket: string, headers: Record<string, string> = {}, query = "") => shop.request(`/en/auth/sso?ticket=${ticket}${query}`, { headers, redirect: "manual" });

function confirm(ticket: string, headers: Record<string, string> = {}, fields: Record<string, string> = {}) {
  return shop.request(`/en/auth/sso?ticket=${ticket}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: origin(), "sec-fetch-site": "same-origin", ...headers },
    body: new URLSearchParams({ ticket, ...fields }).toString(),
    redirect: "manual",
  });
}

/** The session token a response signs in with, if it does. */
const tokenOf = (res: Response) => cookieSetTo(res, "access_token") || undefined;
const INVALID = "This sign-in link is invalid or has already been used.";

describe("/auth/sso", () => {
  it("shows whose account a ticket signs in to on a GET, spends nothing, and signs in on the POST, once", async () => {
    const user = await newUser();
    const ticket = await ticketOf(user);
    for (let scan = 0; scan < 3; scan++) {
      // A link scanner, a preview, the visitor: any number of GETs.
      const page = await open(ticket);
      expect(page.status).toBe(200);
      expect(tokenOf(page)).toBeUndefined();
      expect(page.headers.get("cache-control")).toBe("no-store");
      const html = await page.text();
      expect(html).toContain(user.email);
      expect(html).toContain("Sign in to this account");
      expect(html).toContain(`name="ticket" value="${ticket}"`);
      expect(html).not.toContain(INVALID);
    }
    await expect(shop.services.accounts.ssoTicketAccount(ticket)).resolves.toMatchObject({ email: user.email });

    const signedIn = await confirm(ticket, {}, { redirectTo: "/en/cs2/profile" });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe("/en/cs2/profile");
    const token = tokenOf(signedIn);
    expect(token).toBeDefined();
    expect(await meStatus(token!)).toBe(200);

    // Spent: a second POST and a later GET say so, and sign nobody in.
    const again = await confirm(ticket);
    expect(again.status).toBe(400);
    expect(tokenOf(again)).toBeUndefined();
    expect(await again.text()).toContain(INVALID);
    expect(await (await open(ticket)).text()).toContain(INVALID);
  });

  it("keeps a signed-in visitor's session on a GET, names both accounts, and swaps only when they confirm", async () => {
    const victim = await newUser();
    const attacker = await newUser();
    const ticket = await ticketOf(attacker);
    const cookie = `access_token=${victim.token}`;

    const page = await open(ticket, { cookie });
    expect(page.status).toBe(200);
    expect(tokenOf(page)).toBeUndefined();
    expect(setCookie(page, "access_token")).toBeUndefined();
    const html = await page.text();
    expect(html).toContain(attacker.email);
    expect(html).toContain(`You are signed in as ${victim.username}.`);
    expect(html).toContain(`Stay signed in as ${victim.username}`);
    expect(await meStatus(victim.token)).toBe(200);

    // Staying is a link away; confirming swaps the session and ends the one left behind.
    const swapped = await confirm(ticket, { cookie });
    expect(swapped.status).toBe(302);
    const token = tokenOf(swapped)!;
    expect((await (await shop.request("/v2/web/user/me", { headers: { authorization: `Bearer ${token}` } })).json()).user.email).toBe(attacker.email);
    expect(await meStatus(victim.token)).toBe(401);
  });

  it("refuses a cross-site POST, with or without the visitor's cookie, and the ticket still works afterwards", async () => {
    const victim = await newUser();
    const attacker = await newUser();
    const ticket = await ticketOf(attacker);
    const attempts: Record<string, string>[] = [
      { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      { origin: "https://evil.example", "sec-fetch-site": "cross-site", cookie: `access_token=${victim.token}` },
      { origin: "null" },
      { "sec-fetch-site": "cross-site" },
    ];
    for (const headers of attempts) {
      const res = await confirm(ticket, headers);
      expect(res.status).toBe(403);
      expect(setCookie(res, "access_token")).toBeUndefined();
    }
    expect(await meStatus(victim.token)).toBe(200);
    const signedIn = await confirm(ticket);
    expect(signedIn.status).toBe(302);
    expect(tokenOf(signedIn)).toBeDefined();
  });

  it("sends a visitor already signed in to the ticket's own account on, and leaves the ticket unspent", async () => {
    const user = await newUser();
    const ticket = await ticketOf(user);
    const res = await open(ticket, { cookie: `access_token=${user.token}` }, `&redirectTo=${encodeURIComponent("/en/minecraft/profile")}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/en/minecraft/profile");
    expect(tokenOf(res)).toBeUndefined();
    await expect(shop.services.accounts.ssoTicketAccount(ticket)).resolves.toMatchObject({ email: user.email });
  });

  it("still lives 60 s: shown and spendable at 59 s, invalid at 60 s", async () => {
    const user = await newUser();
    const early = await ticketOf(user);
    const late = await ticketOf(user);
    clock.advance(59_000);
    expect(await (await open(early)).text()).toContain(user.email);
    expect((await confirm(early)).status).toBe(302);
    clock.advance(1_000);
    expect(await (await open(late)).text()).toContain(INVALID);
    const spent = await confirm(late);
    expect(spent.status).toBe(400);
    expect(tokenOf(spent)).toBeUndefined();
  });

  it.each(["", "short", "not a ticket at all!", "x".repeat(201)])("answers the malformed ticket %j with the invalid-link page", async (ticket) => {
    const page = await shop.request(`/en/auth/sso?ticket=${encodeURIComponent(ticket)}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(INVALID);
    const post = await confirm(encodeURIComponent(ticket));
    expect(post.status).toBe(400);
    expect(tokenOf(post)).toBeUndefined();
  });
});
