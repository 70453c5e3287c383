// "Other state-changing calls" (docs/product/api.md#rate-limits): every POST, PUT, PATCH and DELETE the app serves —
// a JSON API call or a page's form action, whatever its path — counts against RATE_WRITE_USER per
// signed-in user and RATE_WRITE_IP per client address, here and nowhere else. Runs after the
// session middleware, so the user is known. The API answers a refusal with the 429 envelope; a
// page gets it in the request info, and server/pages.ts answers the form with it (the route's
// action never runs), so both doors share one mechanism and one set of counters.
import type { MiddlewareHandler } from "hono";
import { addressKey, type Rule } from "../../core/ratelimit/index.ts";
import { DomainError } from "../../core/shared/errors.ts";
import { isApiPath, isClientPath } from "../api/paths.ts";
import type { HonoEnv } from "../context.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function writeLimit(): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    // The game client's calls have limits of their own (docs/product/delivery.md#client-api).
    if (SAFE_METHODS.has(c.req.method) || isClientPath(c.req.path)) return next();
    const { settings, limiter } = c.get("services");
    const info = c.get("info");
    const counters: [string, Rule][] = [];
    if (info.auth) counters.push([`write:user:${info.auth.user.id}`, settings.RATE_WRITE_USER]);
    counters.push([`write:ip:${addressKey(info.clientIp)}`, settings.RATE_WRITE_IP]);
    try {
      await limiter.consumeAll(counters);
    } catch (error) {
      if (!(error instanceof DomainError) || isApiPath(c.req.path)) throw error;
      info.writeRefusal = error;
    }
    return next();
  };
}
