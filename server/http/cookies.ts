// Our cookies as Set-Cookie strings: one serializer for the Hono middleware and the page actions.
// Written here rather than with hono/cookie, which refuses lifetimes over 400 days, while the spec
// gives `t` about three years (browsers may cap it).
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
  return [
    serializeCookie(ACCESS_COOKIE, token, { maxAge: SESSION_SECONDS, secure, httpOnly: true }),
    serializeCookie(PRE2FA_COOKIE, "", { maxAge: 0, secure, httpOnly: true }),
  ];
}

export function pre2faCookie(token: string, secure: boolean): string {
  return serializeCookie(PRE2FA_COOKIE, token, { maxAge: PRE2FA_SECONDS, secure, httpOnly: true });
}

export function signOutCookies(secure: boolean): string[] {
  return [
    serializeCookie(ACCESS_COOKIE, "", { maxAge: 0, secure, httpOnly: true }),
    serializeCookie(PRE2FA_COOKIE, "", { maxAge: 0, secure, httpOnly: true }),
  ];
}

/**
 * The value of one cookie in a Cookie header, or undefined. A value holding a control character
 * counts as absent: a cookie is not typed by the visitor, so it is ignored rather than refused.
 */
export function cookieValue(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index).trim() === name) {
      try {
        const value = decodeURIComponent(part.slice(index + 1).trim());
        return hasControlCharacters(value) ? undefined : value;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * Whether a request carries credentials of any kind: a session or pre-2FA cookie, or an
 * Authorization header, valid or not. Such a request is never answered from the page cache and
 * what it renders is never stored there (issue 7: a Bearer-signed page was stored for every later
 * guest). Read by the page handler and the node:http fast path alike.
 */
export function carriesCredentials(cookie: string | null | undefined, authorization: string | null | undefined): boolean {
  return Boolean(authorization) || cookieValue(cookie, ACCESS_COOKIE) !== undefined || cookieValue(cookie, PRE2FA_COOKIE) !== undefined;
}
