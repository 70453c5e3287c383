// Route rules (docs/product/routes.md#route-rules): the first thing a page request meets, before
// the referral and language redirects and the pages. A matching rule redirects, to a path of this
// site or, for an absolute target, off it. A client-side navigation asks for "<page>.data": it gets
// React Router's redirect answer (204 with X-Remix-Redirect), which makes the browser load the
// target as a document.
import type { MiddlewareHandler } from "hono";
import type { HonoEnv } from "../context.ts";
import { pagePath } from "./request-info.ts";

/** React Router's own query parameters of a data request: not the page's. */
const DATA_PARAMS = ["_routes", "index"];

export function routeRules(): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    const url = new URL(c.req.url);
    const data = url.pathname.endsWith(".data");
    if (data) for (const name of DATA_PARAMS) url.searchParams.delete(name);
    const redirect = await c.get("services").routeRules.lookup(pagePath(url.pathname), url.search);
    if (!redirect) return next();
    c.header("Cache-Control", "no-store");
    if (data) {
      return c.body(null, 204, {
        "X-Remix-Redirect": redirect.location,
        "X-Remix-Status": String(redirect.status),
        "X-Remix-Reload-Document": "true",
      });
    }
    return c.redirect(redirect.location, redirect.status);
  };
}
