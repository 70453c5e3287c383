// Page views only: root language detection, the visitor cookie `t`, the `locale` cookie and the
// referral code `?r=` (decisions §5).
import { randomInt } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { DEFAULT_LOCALE, localePath, negotiateLocale } from "../../i18n/locales.ts";
import type { HonoEnv } from "../context.ts";
import { serializeCookie, type CookieOptions } from "../http/cookies.ts";

const HOUR = 3600;
export const COOKIE_MAX_AGE = {
  t: 3 * 365 * 24 * HOUR,
  referrer: 336 * HOUR,
  locale: 365 * 24 * HOUR,
} as const;

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const VISITOR_ID = /^[A-Za-z0-9]{16}$/;
const REFERRAL_CODE = /^[A-Za-z0-9_-]{1,32}$/;

export function newVisitorId(): string {
  let id = "";
  for (let i = 0; i < 16; i++) id += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return id;
}

function setCookie(c: Context<HonoEnv>, name: string, value: string, options: CookieOptions) {
  c.header("Set-Cookie", serializeCookie(name, value, options), { append: true });
}

export function visitor(options: { secure: boolean }): MiddlewareHandler<HonoEnv> {
  const base = { secure: options.secure };
  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    const info = c.get("info");
    const url = new URL(c.req.url);

    const referral = url.searchParams.get("r");
    if (referral !== null) {
      if (REFERRAL_CODE.test(referral)) setCookie(c, "referrer", referral, { ...base, maxAge: COOKIE_MAX_AGE.referrer });
      url.searchParams.delete("r");
      return redirectKeepingCookies(c, url.pathname + url.search);
    }

    const localeCookie = getCookie(c, "locale");
    if (c.req.path === "/" && !localeCookie && !info.isBot) {
      const preferred = negotiateLocale(c.req.header("accept-language"));
      if (preferred && preferred !== DEFAULT_LOCALE) {
        return redirectKeepingCookies(c, localePath(preferred, "/") + url.search);
      }
    }

    await next();
    if (!c.res.headers.get("content-type")?.startsWith("text/html")) return;
    if (!VISITOR_ID.test(getCookie(c, "t") ?? "")) {
      setCookie(c, "t", newVisitorId(), { ...base, maxAge: COOKIE_MAX_AGE.t });
    }
    // Viewing a page in a language is choosing it: the next visit to "/" is not redirected.
    if (localeCookie !== info.locale && c.res.status < 400) {
      setCookie(c, "locale", info.locale, { ...base, maxAge: COOKIE_MAX_AGE.locale });
    }
  };
}

function redirectKeepingCookies(c: Context<HonoEnv>, location: string) {
  c.header("Cache-Control", "no-store");
  return c.redirect(location, 302);
}
