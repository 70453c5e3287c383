// Our cookies, read and written the same way by the Hono middleware, the page loaders and actions
// and the node:http fast path. Reading is Hono's parser (hono/utils/cookie, what `getCookie` runs),
// so every door agrees on a quoted value, a repeated name or a bad encoding. Writing is our own
// small serializer: Hono's refuses a Max-Age over 400 days (RFC 6265bis), while the visitor id `t`
// lives about three years (docs/product/routes.md#cookies; browsers may cap it). The tests read the
// cookies an answer sets through the same parser (tests/kit/shop.ts `cookiesSet`).
import { parse } from "hono/utils/cookie";
import { SESSION_SECONDS } from "../../core/sessions/index.ts";
import { hasControlCharacters } from "./input.ts";

export type CookieOptions = { maxAge: number; secure: boolean; httpOnly?: boolean };

export const ACCESS_COOKIE = "access_token";
/** Holds the pre-2FA token between the password step and the code step of the sign-in page. */
export const PRE2FA_COOKIE = "pre2fa";
export const PRE2FA_SECONDS = 10 * 60;

export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Max-Age=${options.maxAge}`, "Path=/", "SameSite=Lax"];
  if (options.httpOnly) parts.push("HttpOnly");
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

/** Set-Cookie values that sign a browser in (and drop a pending 2FA step). */
export function signInCookies(token: string, secure: boolean): string[] {
  return [serializeCookie(ACCESS_COOKIE, token, { maxAge: SESSION_SECONDS, secure, httpOnly: true }), serializeCookie(PRE2FA_COOKIE, "", { maxAge: 0, secure, httpOnly: true })];
}

export function pre2faCookie(token: string, secure: boolean): string {
  return serializeCookie(PRE2FA_COOKIE, token, { maxAge: PRE2FA_SECONDS, secure, httpOnly: true });
}

export function signOutCookies(secure: boolean): string[] {
  return [serializeCookie(ACCESS_COOKIE, "", { maxAge: 0, secure, httpOnly: true }), serializeCookie(PRE2FA_COOKIE, "", { maxAge: 0, secure, httpOnly: true })];
}

/**
 * The value of one cookie in a Cookie header, or undefined (Hono's parser: the first valid pair of
 * that name, quotes removed, percent-decoded). A value holding a control character once decoded
 * counts as absent: a cookie is not typed by the visitor, so it is ignored rather than refused.
 */
export function cookieValue(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  return usable(parse(header, name)[name]);
}

/** A parsed cookie value, or undefined when it holds a control character (see cookieValue). */
function usable(value: string | undefined): string | undefined {
  return value === undefined || hasControlCharacters(value) ? undefined : value;
}

/**
 * Every cookie of a Cookie header, read once (the page-cache fast path wants several): the same
 * rule as cookieValue for each — Hono's parser, the first valid pair of a name, a value holding a
 * control character counted as absent.
 */
export function cookieJar(header: string | null | undefined): (name: string) => string | undefined {
  if (!header) return () => undefined;
  const all = parse(header);
  return (name) => usable(all[name]);
}

/**
 * Whether a request carries credentials of any kind: a session or pre-2FA cookie, or an
 * Authorization header, valid or not. Such a request is never answered from the page cache and
 * what it renders is never stored there (issue 7: a Bearer-signed page was stored for every later
 * guest). Read by the page handler and the node:http fast path alike; `cookie` reads the Cookie
 * header (`cookieJar`).
 */
export function carriesCredentials(cookie: (name: string) => string | undefined, authorization: string | null | undefined): boolean {
  return Boolean(authorization) || cookie(ACCESS_COOKIE) !== undefined || cookie(PRE2FA_COOKIE) !== undefined;
}
