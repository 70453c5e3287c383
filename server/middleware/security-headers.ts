// Security headers of every response. The page CSP is set where the HTML is known (pages.ts):
// inline scripts are allowed by their SHA-256 hashes, which stay valid for cached pages too.
import type { MiddlewareHandler } from "hono";
import type { HonoEnv } from "../context.ts";

/** The headers every response carries (a page's own CSP replaces the default one). */
export function securityHeaderList(hsts: boolean): [string, string][] {
  const list: [string, string][] = [
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["X-Frame-Options", "DENY"],
    ["Cross-Origin-Opener-Policy", "same-origin"],
    ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()"],
  ];
  if (hsts) list.push(["Strict-Transport-Security", "max-age=63072000; includeSubDomains"]);
  return list;
}

const DEFAULT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

export function securityHeaders(options: { hsts: boolean }): MiddlewareHandler<HonoEnv> {
  const list = securityHeaderList(options.hsts);
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    for (const [name, value] of list) h.set(name, value);
    if (!h.has("Content-Security-Policy")) h.set("Content-Security-Policy", DEFAULT_CSP);
  };
}

/** The CSP of an HTML page whose inline scripts have these hashes. */
export function pageCsp(scriptHashes: string[], extra: { connect?: string[]; script?: string[]; frame?: string[]; form?: string[] } = {}): string {
  const scripts = ["'self'", ...scriptHashes.map((h) => `'sha256-${h}'`), ...(extra.script ?? [])].join(" ");
  const connect = ["'self'", ...(extra.connect ?? [])].join(" ");
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    `form-action ${["'self'", ...(extra.form ?? [])].join(" ")}`,
    `frame-src ${extra.frame?.length ? extra.frame.join(" ") : "'none'"}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join("; ");
}

/**
 * What the reCAPTCHA widget needs in the page CSP, derived from RECAPTCHA_SCRIPT_URL
 * (docs/product/accounts.md#recaptcha): the script's folder (e.g.
 * https://www.google.com/recaptcha/) for script-src and frame-src.
 * Google's own script also loads its code from www.gstatic.com and frames from
 * recaptcha.google.com (Google's CSP guide); a stand-in served by a test rig needs only its folder.
 */
export function recaptchaCsp(scriptUrl: string): { script: string[]; frame: string[] } {
  const url = new URL(scriptUrl);
  const folder = url.origin + url.pathname.slice(0, url.pathname.lastIndexOf("/") + 1);
  const google = url.hostname === "www.google.com" || url.hostname === "www.recaptcha.net";
  return {
    script: [folder, ...(google ? ["https://www.gstatic.com/recaptcha/"] : [])],
    frame: [folder, ...(google ? ["https://recaptcha.google.com/recaptcha/"] : [])],
  };
}
