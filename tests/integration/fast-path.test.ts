// Page-cache hits are answered on node:http without the app (server/fast-path.ts): the answer
// must be the one the app gives, with the same headers, cookies and CSP.
import { describe, expect, it } from "vitest";
import { useListening, useTestApp } from "../kit/app.ts";

const shop = useTestApp();
const listening = useListening(shop);

const headersOf = (res: Response) => {
  const copy = Object.fromEntries([...res.headers].filter(([name]) => !["date", "x-request-id", "connection", "keep-alive", "transfer-encoding", "content-length", "set-cookie"].includes(name)));
  return copy;
};

describe("the page-cache fast path", () => {
  it("answers a hit exactly as the app answered the miss", async () => {
    // (The miss is rendered by the app and stored; the hit never reaches the app.)
    const cookie = "locale=en; t=AAAAbbbbCCCCdddd";
    const miss = await fetch(`${listening.url}/en/minecraft`, { headers: { cookie } });
    const missBody = await miss.text();
    const hit = await fetch(`${listening.url}/en/minecraft`, { headers: { cookie, "x-request-id": "fast-1" } });
    expect(hit.status).toBe(200);
    expect(await hit.text()).toBe(missBody);
    expect(headersOf(hit)).toEqual(headersOf(miss));
    expect(hit.headers.get("x-request-id")).toBe("fast-1");
    expect(hit.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(hit.headers.get("x-content-type-options")).toBe("nosniff");
    expect(hit.headers.getSetCookie()).toEqual([]);
  });

  it("sets the visitor and locale cookies on a hit when they are missing", async () => {
    await fetch(`${listening.url}/es/cs2`);
    const hit = await fetch(`${listening.url}/es/cs2`, { headers: { cookie: "locale=ru" } });
    const cookies = hit.headers.getSetCookie();
    expect(cookies.some((c) => /^t=[A-Za-z0-9]{16}; Max-Age=94608000; Path=\/; SameSite=Lax$/.test(c))).toBe(true);
    expect(cookies).toContain("locale=es; Max-Age=31536000; Path=/; SameSite=Lax");
  });

  it("reads the Cookie header as the app does, with one parser: quoted values, repeated names, invalid pairs", async () => {
    // RFC 6265 allows a value in double quotes; the first valid pair of a name counts. The app's
    // middleware and the fast path must agree on each, or a hit would set cookies a miss does not.
    const headers = ['locale="en"; t="AAAAbbbbCCCCdddd"', "locale=en; locale=ru; t=AAAAbbbbCCCCdddd; t=BBBB", "locale=e\\n; locale=en; t=AAAAbbbbCCCCdddd"];
    for (const cookie of headers) {
      const miss = await fetch(`${listening.url}/en/cs2?fresh=${encodeURIComponent(cookie)}`, { headers: { cookie } });
      expect(miss.status).toBe(200);
      await fetch(`${listening.url}/en/cs2`); // stored by a guest without cookies
      const hit = await fetch(`${listening.url}/en/cs2`, { headers: { cookie, "x-request-id": "fast-cookies" } });
      expect(hit.headers.get("x-request-id")).toBe("fast-cookies");
      expect(hit.headers.getSetCookie(), cookie).toEqual(miss.headers.getSetCookie());
      expect(hit.headers.getSetCookie(), cookie).toEqual([]);
    }
  });

  it("leaves signed-in visitors, query strings and the first visit to / to the app", async () => {
    await fetch(`${listening.url}/`, { headers: { cookie: "locale=ru" } });
    const browser = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";
    const firstVisit = await fetch(`${listening.url}/`, { headers: { "accept-language": "pt-BR", "user-agent": browser }, redirect: "manual" });
    expect(firstVisit.status).toBe(302);
    expect(firstVisit.headers.get("location")).toBe("/pt");
    const referral = await fetch(`${listening.url}/?r=ABC`, { headers: { cookie: "locale=ru" }, redirect: "manual" });
    expect(referral.status).toBe(302);
    const stale = await fetch(`${listening.url}/`, { headers: { cookie: "locale=ru; access_token=not-a-session" } });
    expect(stale.status).toBe(200);
  });

  it("shows global prices, miss and hit alike, to a client whose country header no proxy vouches for", async () => {
    // (No TRUST_PROXY or COUNTRY_HEADER_TRUSTED here: CF-IPCountry is the client's own claim.)
    for (const request of ["miss", "hit"]) {
      const html = await (await fetch(`${listening.url}/en/dota2`, { headers: { cookie: "locale=en", "CF-IPCountry": "KZ" } })).text();
      expect(html, request).toContain("$19.99");
      expect(html, request).not.toContain("$14.99");
    }
  });

  it("serves HEAD without a body", async () => {
    await fetch(`${listening.url}/en/dota2`, { headers: { cookie: "locale=en" } });
    const head = await fetch(`${listening.url}/en/dota2`, { method: "HEAD", headers: { cookie: "locale=en" } });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });
});
