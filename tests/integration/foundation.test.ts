// The running shop skeleton, in-process: languages, storefront pages, 404s, sitemaps, the API edge,
// security headers, visitor cookies and the page cache.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { products } from "../../db/schema/index.ts";
import { TEST_ORIGIN, useTestApp } from "../kit/app.ts";
import { setCookie } from "../kit/shop.ts";

// The country header is trusted here as behind a CDN that sets it (issue 7, point 11).
const shop = useTestApp({ env: { COUNTRY_HEADER_TRUSTED: "1" } });

const LANGS: [string, string][] = [
  ["/", "ru"],
  ["/en", "en"],
  ["/cn", "zh-CN"],
  ["/es", "es"],
  ["/hi", "hi"],
  ["/pt", "pt"],
  ["/id", "id"],
];

describe("languages and storefront pages", () => {
  it.each(LANGS)("%s answers 200 with <html lang=%s>, canonical and hreflang alternates", async (path, lang) => {
    const res = await shop.request(path, { headers: { cookie: "locale=ru" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<html lang="${lang}"`);
    expect(html).toContain(`<link rel="canonical" href="${TEST_ORIGIN}${path === "/" ? "/" : path}"/>`);
    expect(html).toContain(`hrefLang="zh-CN" href="${TEST_ORIGIN}/cn"`);
    expect(html).toContain('hrefLang="x-default"');
  });

  it("renders the landing page in Russian and English", async () => {
    const ru = await (await shop.request("/", { headers: { cookie: "locale=ru" } })).text();
    expect(ru).toContain("Играйте увереннее");
    const en = await (await shop.request("/en")).text();
    expect(en).toContain("Play sharper");
  });

  it("shows a game's products with prices for the visitor's shopping area, falling back to global", async () => {
    const global = await (await shop.request("/en/dota2")).text();
    expect(global).toContain("$19.99");
    const cis = await (await shop.request("/en/dota2", { headers: { "CF-IPCountry": "KZ" } })).text();
    expect(cis).toContain("$14.99");
    expect(cis).not.toContain("$19.99");
    // minecraft has no CIS prices: the global ones are shown.
    const minecraft = await (await shop.request("/minecraft", { headers: { "CF-IPCountry": "RU", cookie: "locale=ru" } })).text();
    expect(minecraft).toContain("Подписка на\u00a0Minecraft");
    expect(minecraft).toMatch(/19,99\s\$/);
    expect(minecraft).toContain("30 дней");
  });

  it("answers unknown paths with 404 and the not-found screen", async () => {
    const res = await shop.request("/en/no-such-page");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("Page not found");
    expect(html).toContain("It seems you&#x27;ve lost your way. Please check the address or return to the");
    expect(html).toContain('<a href="/en">main page</a>');
    expect(html).toContain("Page Not Found: /en/no-such-page");
    const deep = await shop.request("/a/b/c");
    expect(deep.status).toBe(404);
    expect(await deep.text()).toContain("Страница не\u00a0найдена");
  });

  it("names the page, not React Router's data URL, in the data of a client-side navigation", async () => {
    const missing = await shop.request("/en/no-such-game.data");
    expect(missing.status).toBe(404);
    const text = await missing.text();
    expect(text).toContain('"Page Not Found: /en/no-such-game"');
    expect(text).toContain('"path","/no-such-game"');
    expect(text).not.toContain(".data");
    // The root data of "/" (fetched as /_root.data) drives the alternates and the switcher.
    const root = await (await shop.request("/_root.data")).text();
    expect(root).toContain('"path","/"');
    // Loaders get the request as it came (decision 0070): the page's query, which the language
    // switcher keeps, is read from React Router's normalized url, without its `_routes`.
    const withQuery = await (await shop.request("/en/dota2.data?_routes=root%2Cen%2Fgame&product=3")).text();
    expect(withQuery).toContain('"search","?product=3"');
    expect(withQuery).not.toContain("_routes");
  });

  it("gives crawlers the status in a line of text, not the error screen", async () => {
    const res = await shop.request("/en/no-such-page", { headers: { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toBe("404 Page Not Found: /en/no-such-page\n");
  });
});

describe("root language detection and cookies", () => {
  it("redirects / to the browser's language when no locale cookie is set, but never a crawler", async () => {
    const res = await shop.request("/", { headers: { "accept-language": "es-ES,es;q=0.9,en;q=0.5" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/es");
    const bot = await shop.request("/", { headers: { "accept-language": "es", "user-agent": "Mozilla/5.0 (compatible; bingbot/2.0)" } });
    expect(bot.status).toBe(200);
    const chosen = await shop.request("/", { headers: { "accept-language": "es", cookie: "locale=ru" } });
    expect(chosen.status).toBe(200);
  });

  it("sets the visitor cookie t (16 alphanumerics, ~3 years) and the locale cookie on a page view", async () => {
    const res = await shop.request("/en/presentation");
    const t = setCookie(res, "t");
    expect(t).toMatch(/^t=[A-Za-z0-9]{16};/);
    expect(t).toContain(`Max-Age=${3 * 365 * 24 * 3600}`);
    expect(setCookie(res, "locale")).toMatch(/^locale=en;.*Max-Age=31536000/);
    const again = await shop.request("/en/presentation", { headers: { cookie: "t=AAAAbbbbCCCCdddd; locale=en" } });
    expect(setCookie(again, "t")).toBeUndefined();
    expect(setCookie(again, "locale")).toBeUndefined();
  });

  it("saves ?r= in the referrer cookie for 336 hours and removes it from the URL", async () => {
    const res = await shop.request("/en/minecraft?r=FRIEND42&utm=x");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/en/minecraft?utm=x");
    expect(setCookie(res, "referrer")).toMatch(/^referrer=FRIEND42;.*Max-Age=1209600/);
  });
});

describe("sitemaps", () => {
  it.each([
    ["/sitemap.xml", `${TEST_ORIGIN}/minecraft`],
    ["/en/sitemap.xml", `${TEST_ORIGIN}/en/minecraft`],
  ])("%s lists the public pages with alternates", async (path, loc) => {
    const res = await shop.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/xml");
    const xml = await res.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"');
    expect(xml).toContain(`<loc>${loc}</loc>`);
    expect(xml).toContain(`hreflang="zh-CN" href="${TEST_ORIGIN}/cn/minecraft"`);
    // Home, presentation, the four site pages and the three games.
    expect(xml.match(/<url>/g)).toHaveLength(9);
    expect(xml.match(/<url>/g)?.length).toBe(xml.match(/<\/url>/g)?.length);
  });

  it("has no sitemap under the default locale's prefix", async () => {
    expect((await shop.request("/ru/sitemap.xml")).status).toBe(404);
  });
});

describe("the API edge", () => {
  it("serves guest front-end data in the envelope", async () => {
    const res = await shop.request("/v2/web/frontend/data", { headers: { "CF-IPCountry": "US" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body).toMatchObject({ status: true, user: null, access_token: null, shopping_area: "global", subscriptions: [] });
    expect(body.cheats.map((c: { id: number }) => c.id)).toEqual([1, 2, 3]);
    expect(body.products).toHaveLength(12);
    const cis = await (await shop.request("/v2/web/frontend/data", { headers: { "CF-IPCountry": "RU" } })).json();
    // The area is resolved from the country header; unknown headers fall back to global.
    expect(cis.shopping_area).toBe("cis");
    const dota = cis.products.filter((p: { cheat_id: number }) => p.cheat_id === 1);
    expect(dota.every((p: { shopping_area: string }) => p.shopping_area === "cis")).toBe(true);
    expect(dota.find((p: { params: { days: number } }) => p.params.days === 30).price).toBe(1499);
  });

  it("refuses a body over 64 KiB with 413 and keeps serving", async () => {
    const res = await shop.request("/v2/web/login", {
      method: "POST",
      headers: { "content-type": "application/json", "accept-language": "en" },
      body: JSON.stringify({ login: "x".repeat(70 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ status: false, code: "payload_too_large", message: "The request is too large." });
    expect((await shop.request("/healthz")).status).toBe(200);
  });

  it("refuses a non-JSON body with a 4xx envelope in the request's language", async () => {
    const broken = await shop.request("/v2/web/frontend/data", {
      method: "POST",
      headers: { "content-type": "application/json", "accept-language": "ru" },
      body: "{not json",
    });
    expect(broken.status).toBeGreaterThanOrEqual(400);
    expect(broken.status).toBeLessThan(500);
    const body = await broken.json();
    expect(body.status).toBe(false);
    expect(typeof body.code).toBe("string");
  });

  it("refuses a cross-site cookie-authenticated POST with 403", async () => {
    const res = await shop.request("/v2/web/logout", {
      method: "POST",
      headers: { cookie: "access_token=abc", origin: "https://evil.example", "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ status: false, code: "forbidden" });
    const noOrigin = await shop.request("/v2/web/logout", { method: "POST", headers: { cookie: "access_token=abc" } });
    expect(noOrigin.status).toBe(403);
    const fetchSite = await shop.request("/v2/web/logout", {
      method: "POST",
      headers: { cookie: "access_token=abc", "sec-fetch-site": "cross-site" },
    });
    expect(fetchSite.status).toBe(403);
  });

  it("answers unknown API paths with a 404 envelope", async () => {
    const res = await shop.request("/v2/web/nope", { headers: { "accept-language": "en" } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ status: false, code: "not_found", message: "Not found." });
  });

  it("carries a trace id: accepted from the client or made", async () => {
    const given = await shop.request("/v2/web/frontend/data", { headers: { "x-request-id": "trace-123" } });
    expect(given.headers.get("x-request-id")).toBe("trace-123");
    const made = await shop.request("/en");
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const forged = await shop.request("/en", { headers: { "x-request-id": "bad id with spaces" } });
    // Refused and replaced by one of ours (a made UUID may itself contain the letters "bad").
    expect(forged.headers.get("x-request-id")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

describe("security headers and the page cache", () => {
  it("sets a strict CSP whose hashes match the page's inline scripts, and the other headers", async () => {
    for (const path of ["/en", "/en/no-such-page"]) {
      const res = await shop.request(path);
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("unsafe-inline");
      const html = await res.text();
      for (const [, script] of html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
        const hash = createHash("sha256")
          .update(script ?? "")
          .digest("base64");
        expect(csp).toContain(`'sha256-${hash}'`);
      }
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("strict-transport-security")).toBeNull();
    }
  });

  it("serves a guest's public page from the cache and drops the cache when the catalogue changes", async () => {
    const { services } = shop;
    const first = await (await shop.request("/en/cs2")).text();
    expect(first).toContain("$19.99");
    const cached = await shop.request("/en/cs2");
    expect(await cached.text()).toBe(first);
    // Guests' public pages may be stored by browsers but must be revalidated (a catalogue change).
    expect(cached.headers.get("cache-control")).toBe("no-cache");
    expect(cached.headers.get("content-security-policy")).not.toContain("unsafe-inline");

    await services.db.update(products).set({ price: 2222 }).where(eq(products.id, 11));
    expect(await (await shop.request("/en/cs2")).text()).toContain("$19.99"); // still cached
    await services.catalog.reload();
    const fresh = await (await shop.request("/en/cs2")).text();
    expect(fresh).toContain("$22.22");
    await services.db.update(products).set({ price: 1999 }).where(eq(products.id, 11));
    await services.catalog.reload();
  });

  it("answers /healthz 200 while the database answers", async () => {
    const res = await shop.request("/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: true });
  });

  it("serves the message catalogue under the build hash with a 24-hour cache", async () => {
    const url = shop.services.catalogs.url("hi");
    const res = await shop.request(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
    const messages = await res.json();
    expect(messages["notFound.title"]).toBeTruthy();
    expect((await shop.request("/_i18n/stale/en/messages.json")).status).toBe(302);
    expect((await shop.request(`/_i18n/${shop.services.catalogs.hash}/xx/messages.json`)).status).toBe(404);
  });
});
