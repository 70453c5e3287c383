// Security headers of every response. The page CSP is set where the HTML is known (pages.ts):
// inline scripts are allowed by their SHA-256 hashes, which stay valid for cached pages too.
import type { MiddlewareHandler } from "hono";
import type { HonoEnv } from "../context.ts";

export function securityHeaders(options: { hsts: boolean }): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    h.set("X-Content-Type-Options", "nosniff");
    h.set("Referrer-Policy", "strict-origin-when-cross-origin");
    h.set("X-Frame-Options", "DENY");
    h.set("Cross-Origin-Opener-Policy", "same-origin");
    h.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
    if (!h.has("Content-Security-Policy")) {
      h.set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'");
    }
    if (options.hsts) h.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  };
}

/** The CSP of an HTML page whose inline scripts have these hashes. */
export function pageCsp(scriptHashes: string[], extra: { connect?: string[]; script?: string[]; frame?: string[] } = {}): string {
  const scripts = ["'self'", ...scriptHashes.map((h) => `'sha256-${h}'`), ...(extra.script ?? [])].join(" ");
  const connect = ["'self'", ...(extra.connect ?? [])].join(" ");
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "form-action 'self'",
    `frame-src ${extra.frame?.length ? extra.frame.join(" ") : "'none'"}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join("; ");
}
