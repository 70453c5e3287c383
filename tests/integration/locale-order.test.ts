// The language of "/" (docs/product/routes.md#language-detection): the `locale` cookie, then the
// host (LOCALE_HOSTS), then the browser's languages — in the app and on the page-cache fast path;
// the language switcher's links keep the page's query and set the cookie; crawlers are only the
// spec's words, and get a line of text rather than an error screen.
import { describe, expect, it } from "vitest";
import { useListening, useTestApp } from "../kit/app.ts";

const shop = useTestApp({ env: { LOCALE_HOSTS: "cn.shop.test=cn, hi.shop.test=hi" } });

const HEADLESS = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36";

async function root(options: { cookie?: string; host?: string; lang?: string; ua?: string } = {}) {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  if (options.lang) headers["accept-language"] = options.lang;
  if (options.ua) headers["user-agent"] = options.ua;
  return shop.request(`http://${options.host ?? "localhost"}/`, { headers });
}

describe("the language of /", () => {
  it("follows the locale cookie first, whatever the host and the browser say", async () => {
    const en = await root({ cookie: "locale=en", host: "cn.shop.test", lang: "es" });
    expect(en.status).toBe(302);
    expect(en.headers.get("location")).toBe("/en");
    const ru = await root({ cookie: "locale=ru", host: "cn.shop.test", lang: "es" });
    expect(ru.status).toBe(200);
    expect(await ru.text()).toContain('<html lang="ru"');
  });

  it("then the host, before the browser's languages", async () => {
    const byHost = await root({ host: "cn.shop.test", lang: "es" });
    expect(byHost.status).toBe(302);
    expect(byHost.headers.get("location")).toBe("/cn");
    expect((await root({ host: "HI.shop.test:8080", lang: "es" })).headers.get("location")).toBe("/hi");
  });

  it("then the browser's languages, and Russian when nothing else speaks", async () => {
    expect((await root({ host: "other.shop.test", lang: "es-ES,es;q=0.9" })).headers.get("location")).toBe("/es");
    // A cookie naming no language of ours counts as absent.
    expect((await root({ cookie: "locale=xx", lang: "pt-BR" })).headers.get("location")).toBe("/pt");
    expect((await root({ lang: "de-DE, fr;q=0.8" })).status).toBe(200);
    expect((await root()).status).toBe(200);
  });

  it("never moves a crawler, whatever its cookie, host or languages", async () => {
    for (const ua of ["Mozilla/5.0 (compatible; bingbot/2.0)", "Chrome-Lighthouse", "facebookexternalhit/1.1", "Google-InspectionTool/1.0"]) {
      const res = await root({ cookie: "locale=en", host: "cn.shop.test", lang: "es", ua });
      expect(res.status, ua).toBe(200);
    }
  });

  it("takes a headless browser for a browser: it is moved like anyone", async () => {
    const res = await root({ lang: "en", ua: HEADLESS });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/en");
  });
});

describe("the page-cache fast path at /", () => {
  const listening = useListening(shop);

  it("serves the cached Russian home only to a visitor whose cookie chose Russian", async () => {
    const stored = await fetch(`${listening.url}/`, { headers: { cookie: "locale=ru" } });
    expect(stored.status).toBe(200);
    // Cached now; a visitor whose cookie says English is still sent to /en, not given the Russian page.
    const en = await fetch(`${listening.url}/`, { headers: { cookie: "locale=en; t=AAAAbbbbCCCCdddd" }, redirect: "manual" });
    expect(en.status).toBe(302);
    expect(en.headers.get("location")).toBe("/en");
    const ru = await fetch(`${listening.url}/`, { headers: { cookie: "locale=ru", "x-request-id": "fast-root" } });
    expect(ru.status).toBe(200);
    expect(ru.headers.get("x-request-id")).toBe("fast-root");
  });
});

describe("the language switcher", () => {
  it("links every language with the page's query kept and the cookie set on the way", async () => {
    const html = await (await shop.request("/en/auth?redirectTo=%2Fcs2%2Fprofile%2Fbalance")).text();
    expect(html).toContain('href="/auth?redirectTo=%2Fcs2%2Fprofile%2Fbalance&amp;locale=ru"');
    expect(html).toContain('href="/cn/auth?redirectTo=%2Fcs2%2Fprofile%2Fbalance&amp;locale=cn"');
    // A page without a query: the cookie parameter alone.
    expect(await (await shop.request("/en/presentation")).text()).toContain('href="/presentation?locale=ru"');
  });

  it("sets the locale cookie and goes to the page without the parameter, the rest of the query kept", async () => {
    const res = await shop.request("/es/auth?redirectTo=%2Fdota2%2Fprofile&locale=es", { headers: { cookie: "locale=en" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/es/auth?redirectTo=%2Fdota2%2Fprofile");
    expect(res.headers.getSetCookie()).toContain("locale=es; Max-Age=31536000; Path=/; SameSite=Lax");
  });

  it("makes Русский stick at / for a visitor whose cookie said English", async () => {
    const chosen = await shop.request("/?locale=ru", { headers: { cookie: "locale=en", "accept-language": "en" } });
    expect(chosen.status).toBe(302);
    expect(chosen.headers.get("location")).toBe("/");
    expect(chosen.headers.getSetCookie()).toContain("locale=ru; Max-Age=31536000; Path=/; SameSite=Lax");
    const home = await shop.request("/", { headers: { cookie: "locale=ru", "accept-language": "en" } });
    expect(home.status).toBe(200);
  });

  it("ignores a parameter that names no language of ours (no cookie), and still drops it", async () => {
    const res = await shop.request("/en/presentation?locale=xx");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/en/presentation");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("locale="))).toBe(false);
  });
});

describe("crawlers and error screens", () => {
  it("gives a crawler the status and a line of text, and a headless browser the error screen", async () => {
    const bot = await shop.request("/en/no-such-page", { headers: { "user-agent": "Mozilla/5.0 (compatible; YandexBot/3.0)" } });
    expect(bot.status).toBe(404);
    expect(await bot.text()).toBe("404 Page Not Found: /en/no-such-page\n");
    const browser = await shop.request("/en/no-such-page", { headers: { "user-agent": HEADLESS } });
    expect(browser.status).toBe(404);
    const html = await browser.text();
    expect(html).toContain("Page not found");
    expect(html).toContain('data-error-message="Page Not Found: /en/no-such-page"');
    // curl, scripts and the like are not crawlers either (isbot took them for some).
    const curl = await shop.request("/en/no-such-page", { headers: { "user-agent": "curl/8.5.0" } });
    expect(await curl.text()).toContain("Page not found");
  });

  it("names other statuses too, never with an empty body", async () => {
    // A profile page of an unknown game is a 404 for everyone; a signed-out profile is a redirect, not an error.
    const res = await shop.request("/en/nogame/profile", { headers: { "user-agent": "Googlebot/2.1" } });
    expect(res.status).toBe(404);
    expect((await res.text()).trim()).toBe("404 Page Not Found: /en/nogame/profile");
  });
});
