// Cache hits without the web Request/Response plumbing. A guest's view of a public page is the
// same HTML for everyone of a locale and shopping area; building a Request, a Response and a
// stream around a stored buffer cost 8× the CPU of sending it (npm run bench). So a hit is
// answered here, on node:http, with the same headers, cookies, trace id and log line the Hono path
// gives it; anything else (a miss, a request with credentials, a query string, a visit to "/" that
// may be sent to another language, a path a route rule redirects) goes on to the app.
import type { IncomingMessage, ServerResponse } from "node:http";
import { DEFAULT_LOCALE, splitLocale } from "../i18n/locales.ts";
import { carriesCredentials, cookieJar } from "./http/cookies.ts";
import { pageViewCookies } from "./middleware/visitor.ts";
import { requestIdOf, shoppingAreaResolver } from "./middleware/request-info.ts";
import { securityHeaderList } from "./middleware/security-headers.ts";
import { isPrefetch, PREFETCH_CACHE_CONTROL, type CachedPage } from "./pages.ts";
import type { Services } from "./services.ts";

export function pageCacheFastPath(services: Services, lookup: (pathname: string, area: string) => CachedPage | undefined, patternOf: (pathWithoutLocale: string) => string = () => "other") {
  const { settings, logger, metrics } = services;
  const shoppingArea = shoppingAreaResolver(services);
  const security = securityHeaderList(settings.secureCookies);

  /**
   * The stored page as node:http wants it, made once per cache entry: the body as a Buffer and its
   * headers (the security headers added) as the flat name, value, … list that writeHead takes as it
   * is — no object to spread and walk on every hit. The prefetch variant has its own list.
   */
  function raw(page: CachedPage): NonNullable<CachedPage["raw"]> {
    if (!page.raw) {
      const flat = (pairs: [string, string][]) => pairs.flat();
      const stored = [...page.headers, ...security];
      const prefetch = stored.filter(([name]) => !["cache-control", "vary"].includes(name.toLowerCase()));
      prefetch.push(["cache-control", PREFETCH_CACHE_CONTROL], ["vary", "Cookie"]);
      page.raw = { body: Buffer.from(page.body), headers: flat(stored), prefetchHeaders: flat(prefetch) };
    }
    return page.raw;
  }

  /** Answers the request and returns true when it is a cache hit; false: not handled. */
  return function serve(req: IncomingMessage, res: ServerResponse): boolean {
    const method = req.method;
    const url = req.url ?? "/";
    if ((method !== "GET" && method !== "HEAD") || url.includes("?")) return false;
    // One parse of the Cookie header for every cookie read here.
    const cookie = cookieJar(req.headers.cookie);
    // The same rule as the page handler's: credentials of any kind go to the app.
    if (carriesCredentials(cookie, req.headers.authorization)) return false;
    const localeCookie = cookie("locale");
    // "/" is Russian only for a visitor who chose it (docs/product/routes.md#language-detection):
    // anyone else may be sent to their language by host or browser, which the app decides.
    if (url === "/" && localeCookie !== DEFAULT_LOCALE) return false;
    // Route rules come first (docs/product/routes.md#route-rules): a path a rule redirects, or
    // any path while the table is being read again after a change, is the app's to answer.
    const rules = services.routeRules.cached();
    if (!rules || rules.match(url)) return false;
    const started = performance.now();
    const page = lookup(
      url,
      shoppingArea((name) => req.headers[name]),
    );
    if (!page) return false;
    const stored = raw(page);
    const incomingId = req.headers["x-request-id"];
    const requestId = requestIdOf(typeof incomingId === "string" ? incomingId : undefined);
    const { locale, path: pagePathname } = splitLocale(url);
    const setCookies = pageViewCookies({ t: cookie("t"), locale: localeCookie }, locale, page.status, settings.secureCookies);
    const headers = (isPrefetch(req.headers["sec-purpose"] ?? req.headers["purpose"]) ? stored.prefetchHeaders : stored.headers).slice();
    headers.push("X-Request-Id", requestId, "Content-Length", String(stored.body.length));
    for (const cookie of setCookies) headers.push("Set-Cookie", cookie);
    res.writeHead(page.status, headers);
    res.end(method === "HEAD" ? undefined : stored.body);
    const ms = performance.now() - started;
    metrics.request(method, patternOf(pagePathname), page.status, ms / 1000);
    logger.info({ reqId: requestId, method, path: url, status: page.status, ms: Math.round(ms * 10) / 10, cache: "hit" }, "request");
    return true;
  };
}
