// Route guards and redirects, server side: loaders and actions
// (docs/product/routes.md#guards-and-redirects).
import { redirect, type AppLoadContext } from "react-router";
import { localePath, type Locale } from "../../i18n/locales.ts";
import { cookieValue } from "../../server/http/cookies.ts";
import { notFound, selfPath } from "./meta.ts";

export const DEFAULT_GAME = "dota2";

export function readCookie(request: Request, name: string): string | undefined {
  return cookieValue(request.headers.get("cookie"), name);
}

/** Longest redirect target we follow; our own paths (with their query) are far shorter. */
const REDIRECT_MAX = 2048;
/** What a decoded path of ours is made of: RFC 3986 path characters, no "%" (double encoding). */
const PLAIN_PATH = /^(\/[A-Za-z0-9\-._~!$&'()*+,;=:@]+)*\/?$/;

/**
 * A redirect target only when it is a path of this site: never another host or scheme, whatever
 * its spelling (issue 7). Browsers forgive a lot in a Location: they drop tabs and newlines, read
 * "\\" as "/", resolve dot segments and percent-encoded dots, so "/.//evil.com", "/..//evil.com"
 * and "/\t/evil.com" all mean the host evil.com. Rather than predict every reading, only printable
 * ASCII is taken, the URL parser normalises it once against our origin, and the decoded path must
 * then be plain: single slashes between non-empty segments of RFC 3986 path characters (no
 * backslash, no encoded slash or backslash, no "%" left after decoding, nothing non-ASCII). Our
 * own paths always are; anything else is refused, and the caller falls back to a path of its own.
 */
export function safeRedirectPath(target: string | null | undefined, origin: string): string | undefined {
  if (!target || target.length > REDIRECT_MAX || !/^\/[\x21-\x7e]*$/.test(target) || target.includes("\\")) return undefined;
  let url: URL;
  let decoded: string;
  try {
    url = new URL(target, origin);
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  if (url.origin !== new URL(origin).origin || /%(2f|5c)/i.test(url.pathname) || !PLAIN_PATH.test(decoded)) return undefined;
  const path = url.pathname + url.search + url.hash;
  // The last word: a single "/" and then no second slash or backslash, so no browser reads a host.
  return /^\/(?![/\\])/.test(path) ? path : undefined;
}

/** The profile of the last game visited (cookie `game`), else dota2, in the page's language. */
export function storedGameProfile(context: AppLoadContext, request: Request, locale: Locale = context.locale): string {
  const stored = readCookie(request, "game");
  const game = stored && context.services.catalog.cheatBySlug(stored) ? stored : DEFAULT_GAME;
  return localePath(locale, `/${game}/profile`);
}

/** Where a sign-in leads: `redirectTo` when it is ours, else the stored game's profile. */
export function afterSignIn(context: AppLoadContext, request: Request, redirectTo: string | null | undefined): string {
  return safeRedirectPath(redirectTo, context.services.settings.PUBLIC_URL) ?? storedGameProfile(context, request);
}

/** Profile routes: a guest goes to /auth?redirectTo=<full path> in their language. */
export function requireUser(context: AppLoadContext, url: URL) {
  if (context.auth) return context.auth;
  throw redirect(`${localePath(context.locale, "/auth")}?redirectTo=${encodeURIComponent(selfPath(url))}`);
}

/** Auth pages: a signed-in user goes to the profile. */
export function requireGuest(context: AppLoadContext, request: Request): void {
  if (context.auth) throw redirect(storedGameProfile(context, request));
}

/** Every /{game}/profile page: an unknown game is a 404 (docs/product/routes.md#guards-and-redirects), a guest goes to sign in. */
export function requireProfile(context: AppLoadContext, url: URL, params: { game?: string }) {
  const game = context.services.catalog.cheatBySlug(params.game ?? "");
  if (!game) notFound(url);
  return { auth: requireUser(context, url), game };
}
