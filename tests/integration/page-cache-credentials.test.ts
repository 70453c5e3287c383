// The page cache holds guest pages only (issue 7): a request that carries credentials (a Bearer
// header, a session cookie) never stores the page it got, nor gets a stored one, whichever door it
// comes through — the app, or the node:http fast path in front of it. Pages honour the session
// cookie only; a Bearer header on a page is a guest's request (server/middleware/session.ts).
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpServer } from "../../server/main.ts";
import { useTestApp } from "../kit/app.ts";

const shop = useTestApp();
let base = "";
let close = () => {};
let token = "";

beforeAll(async () => {
  const server = createHttpServer(shop.services, shop.app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
  const login = await fetch(`${base}/v2/web/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: "demo@example.com", password: "demo12345" }),
  });
  token = (await login.json()).token;
  expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
});
afterAll(() => close());

/** The header of a page: a profile link for a signed-in visitor, a sign-in link for a guest. */
function viewOf(html: string, prefix: string): "signed-in" | "guest" {
  // The header links the profile (of the game in view, with the account menu) only for a signed-in visitor.
  if (new RegExp(`href="${prefix}(/[a-z0-9-]+)?/profile"`).test(html)) return "signed-in";
  expect(html).toContain(`href="${prefix}/auth"`);
  return "guest";
}

const cache = () => shop.app.pages!.cache;

describe("the page cache and credentials", () => {
  it("does not store a page requested with a Bearer header, and later guests see the guest page", async () => {
    const bearer = await fetch(`${base}/en/minecraft`, { headers: { authorization: `Bearer ${token}`, cookie: "locale=en" } });
    expect(bearer.status).toBe(200);
    // Pages honour the cookie only: the Bearer request gets the guest view, never stored.
    expect(viewOf(await bearer.text(), "/en")).toBe("guest");
    expect(bearer.headers.get("cache-control")).toBe("no-store");
    expect(cache().size).toBe(0);

    const guest = await fetch(`${base}/en/minecraft`, { headers: { cookie: "locale=en" } });
    expect(viewOf(await guest.text(), "/en")).toBe("guest");
    expect(cache().size).toBe(1);
    // A stored guest page is not served to a Bearer request either: it goes to the app.
    const again = await fetch(`${base}/en/minecraft`, { headers: { authorization: `Bearer ${token}`, cookie: "locale=en" } });
    expect(again.headers.get("cache-control")).toBe("no-store");
  });

  it("keeps the JSON API's Bearer sign-in (docs/product/api.md#authentication)", async () => {
    const me = await fetch(`${base}/v2/web/user/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect((await me.json()).user.email).toBe("demo@example.com");
  });

  it.each([
    ["a Bearer header", { authorization: `Bearer not-a-session-token-at-all` }],
    ["a Bearer header in another spelling", { authorization: "bearer x" }],
    ["a stale session cookie", { cookie: "access_token=not-a-session-token-at-all" }],
    ["an empty session cookie", { cookie: "access_token=" }],
    ["a pre-2FA cookie", { cookie: "pre2fa=not-a-session-token-at-all" }],
  ])("stores nothing for a request with %s", async (_what, headers) => {
    cache().clear();
    const res = await fetch(`${base}/es/dota2`, { headers });
    expect(res.status).toBe(200);
    expect(viewOf(await res.text(), "/es")).toBe("guest");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(cache().size).toBe(0);
  });

  it("never stores a page rendered for a signed-in visitor (the cookie), nor serves it to a guest", async () => {
    cache().clear();
    const signedIn = await fetch(`${base}/pt/cs2`, { headers: { cookie: `access_token=${token}` } });
    expect(viewOf(await signedIn.text(), "/pt")).toBe("signed-in");
    expect(cache().size).toBe(0);
    const guest = await fetch(`${base}/pt/cs2`);
    expect(viewOf(await guest.text(), "/pt")).toBe("guest");
  });

  it("still stores and serves the guest page (the fast path answers the hit)", async () => {
    cache().clear();
    const miss = await fetch(`${base}/en/dota2`, { headers: { cookie: "locale=en" } });
    expect(miss.headers.get("cache-control")).toBe("no-cache");
    expect(cache().size).toBe(1);
    const hit = await fetch(`${base}/en/dota2`, { headers: { cookie: "locale=en" } });
    expect(await hit.text()).toBe(await miss.text());
  });
});
