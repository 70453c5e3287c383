// A state-changing request that rides on our cookies must come from our own origin (docs/product/api.md#origin-check),
// so no other site can post on a user's behalf. Bearer-token clients carry no ambient authority.
import type { MiddlewareHandler } from "hono";
import { DomainError } from "../../core/shared/errors.ts";
import type { HonoEnv } from "../context.ts";
import { isClientPath } from "../api/paths.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function originCheck(publicUrl: string): MiddlewareHandler<HonoEnv> {
  const ownOrigin = new URL(publicUrl).origin;
  return async (c, next) => {
    // The game client's calls ride on no cookie: nothing ambient to protect (docs/product/delivery.md#client-api).
    if (SAFE_METHODS.has(c.req.method) || isClientPath(c.req.path)) return next();
    const hasCookies = Boolean(c.req.header("cookie"));
    const origin = c.req.header("origin");
    const fetchSite = c.req.header("sec-fetch-site");
    const requestOrigin = new URL(c.req.url).origin;
    const sameOrigin = (o: string) => o === ownOrigin || o === requestOrigin;
    if (fetchSite === "cross-site" || (origin && origin !== "null" && !sameOrigin(origin)) || origin === "null") {
      throw new DomainError("forbidden", "errors.cross_site");
    }
    if (hasCookies && !origin && !fetchSite && !c.req.header("authorization")) {
      // A browser always sends one of the two; a cookie without either is not a page of ours.
      throw new DomainError("forbidden", "errors.cross_site");
    }
    return next();
  };
}
