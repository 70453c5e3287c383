// Page views only: root language detection, the visitor cookie `t`, the `locale` cookie (also set
// by the language switcher's `?locale=`) and the referral code `?r=` (docs/product/routes.md#cookies).
import { randomInt } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { DEFAULT_LOCALE, isLocale, localePath, rootLocale, type Locale } from "../../i18n/locales.ts";
import type { HonoEnv } from "../context.ts";
import { cookieValue, serializeCookie, type CookieOptions } from "../http/cookies.ts";

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

/** The query parameter of the language switcher's links: it sets the `locale` cookie, then goes (docs/product/routes.md#language-detection). */
export const SWITCH_PARAM = "locale";

export function visitor(options: { secure: boolean; localeHosts?: ReadonlyMap<string, Locale> }): MiddlewareHandler<HonoEnv> {
  const base = { secure: options.secure };
  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    const info = c.get("info");
    const url = new URL(c.req.url);

    // ?r= and the switcher's ?locale= set their cookie and leave the URL, the rest of the query kept.
    const referral = url.searchParams.get("r");
    const chosen = url.searchParams.get(SWITCH_PARAM);
    if (referral !== null || chosen !== null) {
      if (referral !== null && REFERRAL_CODE.test(referral)) setCookie(c, "referrer", referral, { ...base, maxAge: COOKIE_MAX_AGE.referrer });
      if (isLocale(chosen)) setCookie(c, "locale", chosen, { ...base, maxAge: COOKIE_MAX_AGE.locale });
      url.searchParams.delete("r");
      url.searchParams.delete(SWITCH_PARAM);
      return redirectKeepingCookies(c, url.pathname + url.search);
    }

    const cookies = c.req.header("cookie");
    const localeCookie = cookieValue(cookies, "locale");
    // "/" speaks the visitor's language: cookie, then host, then browser (crawlers stay).
    if (c.req.path === "/" && !info.isBot) {
      const locale = rootLocale({ cookie: localeCookie, host: url.hostname, acceptLanguage: c.req.header("accept-language") }, options.localeHosts);
      if (locale !== DEFAULT_LOCALE) return redirectKeepingCookies(c, localePath(locale, "/") + url.search);
    }

    await next();
    if (!c.res.headers.get("content-type")?.startsWith("text/html")) return;
    const set = pageViewCookies({ t: cookieValue(cookies, "t"), locale: localeCookie }, info.locale, c.res.status, options.secure);
    for (const cookie of set) c.header("Set-Cookie", cookie, { append: true });
  };
}

/**
 * The cookies a page view sets (docs/product/routes.md#cookies): the visitor id `t` when missing, and the `locale`
 * cookie, since viewing a page in a language is choosing it (the next "/" is not redirected).
 */
export function pageViewCookies(current: { t?: string; locale?: string }, locale: string, status: number, secure: boolean): string[] {
  const cookies: string[] = [];
  if (!VISITOR_ID.test(current.t ?? "")) cookies.push(serializeCookie("t", newVisitorId(), { secure, maxAge: COOKIE_MAX_AGE.t }));
  if (current.locale !== locale && status < 400) cookies.push(serializeCookie("locale", locale, { secure, maxAge: COOKIE_MAX_AGE.locale }));
  return cookies;
}

function redirectKeepingCookies(c: Context<HonoEnv>, location: string) {
  c.header("Cache-Control", "no-store");
  return c.redirect(location, 302);
}
