// First middleware of every request: trace id, client address, locale, shopping area, bot check,
// and one JSON log line when the response is done.
import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { getConnInfo } from "@hono/node-server/conninfo";
import { DEFAULT_LOCALE, negotiateLocale, splitLocale } from "../../i18n/locales.ts";
import { GLOBAL_AREA } from "../../core/catalog/index.ts";
import { isApiPath } from "../api/paths.ts";
import type { HonoEnv } from "../context.ts";
import type { Services } from "../services.ts";
import { requestScope } from "../logging.ts";

/** A caller's X-Request-Id we keep (docs/product/api.md#conventions): a sane token, else none. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The trace id of a request: the caller's own X-Request-Id when it is a sane token, else a new UUID. */
export function requestIdOf(incoming: string | undefined): string {
  return incoming !== undefined && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * The page a request is about. A client-side navigation asks React Router for "<page>.data"
 * ("/_root.data" for "/"); canonical links, alternates and the language switcher must name the page.
 */
export function pagePath(path: string): string {
  if (!path.endsWith(".data")) return path;
  const page = path.slice(0, -".data".length);
  return page === "/_root" ? "/" : page;
}

/**
 * The one rule for the shopping area of a request (docs/product/data.md#shopping-areas), used by this middleware and by
 * the page-cache fast path. The country header (CF-IPCountry by default) is written by the CDN or
 * proxy in front of the shop; a client reaching the shop without one could send it too and pick the
 * cheapest regional prices. So it is read only when a setting says such a proxy is there
 * (TRUST_PROXY, or COUNTRY_HEADER_TRUSTED when only the header is trusted); otherwise every request
 * is in the global area. `read` gets the header name in lower case.
 */
export function shoppingAreaResolver(services: Pick<Services, "settings" | "catalog">) {
  const { settings, catalog } = services;
  const name = settings.COUNTRY_HEADER.toLowerCase();
  const trusted = settings.TRUST_PROXY || settings.COUNTRY_HEADER_TRUSTED;
  return (read: (lowerCaseName: string) => string | string[] | undefined): string => {
    if (!trusted) return GLOBAL_AREA;
    const value = read(name);
    return catalog.areaForCountry(Array.isArray(value) ? value[0] : value);
  };
}

/**
 * The spec's crawler words (docs/product/routes.md#not-found-and-error-screens): a user agent that
 * contains one of them, in any case, is a crawler. Nothing else is — a headless browser is a
 * browser and gets the error screen and the root redirect like anyone (issue 9: `isbot` took
 * HeadlessChrome, curl and many more for crawlers).
 */
const CRAWLER_WORDS = /bot|lighthouse|facebook|google/i;

export function isCrawler(userAgent: string | undefined): boolean {
  return userAgent !== undefined && CRAWLER_WORDS.test(userAgent);
}

export function requestInfo(services: Services): MiddlewareHandler<HonoEnv> {
  const { settings, catalogs, logger } = services;
  const shoppingArea = shoppingAreaResolver(services);
  return async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header("x-request-id");
    const requestId = requestIdOf(incoming);
    const split = splitLocale(pagePath(c.req.path));
    // Pages speak the language of their URL; the API speaks the caller's Accept-Language.
    const locale = isApiPath(c.req.path) ? (negotiateLocale(c.req.header("accept-language")) ?? DEFAULT_LOCALE) : split.locale;
    const path = split.path;
    c.set("services", services);
    c.set("info", {
      requestId,
      locale,
      path,
      shoppingArea: shoppingArea((name) => c.req.header(name)),
      clientIp: clientIp(c, settings.TRUST_PROXY),
      isBot: isCrawler(c.req.header("user-agent")),
      t: catalogs.t(locale),
      auth: null,
    });
    c.header("X-Request-Id", requestId);
    await requestScope.run({ reqId: requestId }, next);
    c.res.headers.set("X-Request-Id", requestId);
    const ms = performance.now() - started;
    services.metrics.request(c.req.method, c.get("route") ?? handlerRoute(c), c.res.status, ms / 1000);
    logger.info(
      {
        reqId: requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(ms * 10) / 10,
      },
      "request",
    );
  };
}

/**
 * The route pattern that answered (docs/product/operations.md#metrics): the last route of a method of its own
 * ("/v2/web/frontend/data", "/_i18n/:hash/:locale/messages.json"); middleware and catch-alls are "ALL". The pages set
 * theirs ("route") themselves; whatever else is "other".
 */
function handlerRoute(c: Parameters<MiddlewareHandler<HonoEnv>>[0]): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) if (routes[i]!.method !== "ALL") return routes[i]!.path;
  return "other";
}

function clientIp(c: Parameters<MiddlewareHandler<HonoEnv>>[0], trustProxy: boolean): string {
  if (trustProxy) {
    // Our proxy appends the address it saw last; anything before it is the client's to forge.
    const hops = (c.req.header("x-forwarded-for") ?? "")
      .split(",")
      .map((h) => h.trim())
      .filter(Boolean);
    const last = hops.at(-1);
    if (last) return last;
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "local"; // in-process requests (tests) have no socket
  }
}
