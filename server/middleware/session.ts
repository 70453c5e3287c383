// Resolves the request's session from `Authorization: Bearer …` or the `access_token` cookie
// (docs/product/api.md#authentication). Requests without a token cost no database query.
//
// Bearer tokens sign in calls of the JSON API only; pages (documents, their `.data` fetches and
// form posts) honour the cookie alone. Browsers never send a Bearer header with a page, so a page
// that honoured one would serve only scripts: a second, origin-check-free way into the page forms,
// and a signed-in render on a request that looks like a guest's to the page cache (issue 7). A
// page request with a Bearer header is rendered as a guest's, and is neither stored in nor served
// from the page cache (pages.ts).
import type { Context, MiddlewareHandler } from "hono";
import { DomainError } from "../../core/shared/errors.ts";
import type { HonoEnv } from "../context.ts";
import { ACCESS_COOKIE, cookieValue, signInCookies, signOutCookies } from "../http/cookies.ts";
import { isApiPath } from "../api/paths.ts";
import { isTimeZone } from "../../i18n/format.ts";
import type { AuthSession, SessionUser } from "../../core/sessions/index.ts";

export function bearerToken(c: Context<HonoEnv>): string | undefined {
  const header = c.req.header("authorization");
  const match = header ? /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(header) : null;
  return match?.[1];
}

/**
 * Files that never depend on who asks, the game client's calls (their Bearer token is no session)
 * and signed downloads (the link names its buyer): no session lookup.
 */
const STATIC_PATH = /^\/(assets\/|_i18n\/|healthz$|readyz$|favicon\.svg$|v2\/client\/|v2\/download\/)/;

/**
 * Routes that look their session up themselves, in the statement that tells whether the user's
 * rows they keep are current (docs/decisions/0076-own-rows-by-version.md): the middleware leaves
 * them alone, and they sign the request in with `signIn`.
 */
const OWN_SESSION_LOOKUP = new Set(["/v2/web/frontend/data"]);

/** The request's session token: the Bearer header (JSON API only) or the session cookie. */
export function sessionToken(c: Context<HonoEnv>): string | undefined {
  return (isApiPath(c.req.path) ? bearerToken(c) : undefined) ?? cookieValue(c.req.header("cookie"), ACCESS_COOKIE);
}

/**
 * Signs the request in with the session a lookup found for its token. Only full sessions do; a
 * pre-2FA token is read by confirmTwoFa itself.
 */
export async function signIn(c: Context<HonoEnv>, found: { session: AuthSession; user: SessionUser } | null, token: string): Promise<void> {
  if (!found || found.session.kind !== "full") return;
  // The visitor's time zone, kept on the account for the times in mails (docs/product/routes.md#dates-and-amounts).
  const timeZone = cookieValue(c.req.header("cookie"), "tz");
  const moved = isTimeZone(timeZone) && timeZone !== found.user.timeZone;
  if (moved) await c.get("services").accounts.rememberTimeZone(found.user, timeZone);
  // A user's row may be one a process keeps for many requests (core/sessions/own-rows.ts): never changed in place.
  c.get("info").auth = { session: found.session, user: moved ? { ...found.user, timeZone } : found.user, token };
}

export function session(): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    if (STATIC_PATH.test(c.req.path) || OWN_SESSION_LOOKUP.has(c.req.path)) return next();
    const token = sessionToken(c);
    if (token) await signIn(c, await c.get("services").sessions.authenticate(token), token);
    return next();
  };
}

/** The signed-in user of an API call, or 401 unauthenticated. */
export function requireAuth(c: Context<HonoEnv>) {
  const auth = c.get("info").auth;
  if (!auth) throw new DomainError("unauthenticated");
  return auth;
}

export function appendCookies(c: Context<HonoEnv>, cookies: string[]) {
  for (const cookie of cookies) c.header("Set-Cookie", cookie, { append: true });
}

export function setSessionCookie(c: Context<HonoEnv>, token: string) {
  appendCookies(c, signInCookies(token, c.get("services").settings.secureCookies));
}

export function clearSessionCookie(c: Context<HonoEnv>) {
  appendCookies(c, signOutCookies(c.get("services").settings.secureCookies));
}
