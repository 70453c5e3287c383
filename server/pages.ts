// Pages: React Router renders them; guest views of public pages come from a page cache keyed by
// path (which holds the locale), shopping area and catalogue version. The build is fixed for the
// life of the app (`npm run dev` makes a new app, cache and all, after an edit). The CSP allows
// inline scripts by hash, so a cached page keeps a strict CSP. A request that carries credentials
// (a session cookie, an Authorization header) neither gets a cached page nor stores the page it
// got, and a page rendered for a signed-in visitor is never stored, however the request looked
// (issue 7). Pages honour the cookie only (middleware/session.ts).
import { createHash } from "node:crypto";
import { STATUS_CODES } from "node:http";
import type { Context } from "hono";
import { createRequestHandler, data, type ServerBuild } from "react-router";
import type { HonoEnv, RequestInfo } from "./context.ts";
import { formReply, unreadSubmission } from "./http/forms.ts";
import type { Services } from "./services.ts";
import { pageCsp, recaptchaCsp } from "./middleware/security-headers.ts";
import { carriesCredentials, cookieJar } from "./http/cookies.ts";
import { PAGE_SCRIPTS } from "./http/page-scripts.ts";
import { LOCALES, type Locale } from "../i18n/locales.ts";

/** React Router's route discovery (routeDiscovery "lazy", its default manifestPath). */
const MANIFEST_PATH = "/__manifest";

/** The CSP hashes of the inline scripts of every page (server/http/page-scripts.ts). */
const PAGE_SCRIPT_HASHES = new Set(Object.values(PAGE_SCRIPTS).map((script) => createHash("sha256").update(script).digest("base64")));

/**
 * A browser's prefetch of a public page (docs/product/routes.md#prefetch) is answered with a short
 * private lifetime, so that the navigation that follows takes it from the browser's cache; `Vary:
 * Cookie` keeps a visitor who signed in meanwhile from getting the guest's page.
 */
export const PREFETCH_CACHE_CONTROL = "private, max-age=300";

export function isPrefetch(purpose: string | string[] | null | undefined): boolean {
  const value = Array.isArray(purpose) ? purpose.join(",") : (purpose ?? "");
  return /\bprefetch\b/i.test(value);
}
import { isSitePage } from "../core/content/index.ts";

/** A stored page; `raw` is the fast path's own form of it (server/fast-path.ts), made at its first hit. */
export type CachedPage = { body: ArrayBuffer; status: number; headers: [string, string][]; raw?: { body: Buffer; headers: string[]; prefetchHeaders: string[] } };

/** A small LRU: Map keeps insertion order, so the first key is the least recently used. */
class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  /** The most recently used key: a hit on it needs no reordering (a popular page hit again and again). */
  private newest: string | undefined;
  constructor(private readonly capacity: number) {}
  get(key: string) {
    const hit = this.entries.get(key);
    if (hit && key !== this.newest) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      this.newest = key;
    }
    return hit;
  }
  set(key: string, page: CachedPage) {
    if (this.capacity === 0) return;
    this.entries.delete(key);
    this.entries.set(key, page);
    this.newest = key;
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
  clear() {
    this.entries.clear();
    this.newest = undefined;
  }
  get size() {
    return this.entries.size;
  }
}

/**
 * The page door of the write limits (server/middleware/write-limit.ts): every route action of the
 * build first looks for a refusal of its request, and answers the form with it (429, Retry-After,
 * the message in the page's language, with the posted intent so that the right form shows it)
 * instead of running. Wrapping the build covers every page action, present and future.
 */
export function withWriteLimit(build: ServerBuild): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      const action = route?.module.action;
      if (!route || !action) return [id, route];
      const limited: typeof action = async (args) => {
        const refusal = (args.context as unknown as Partial<RequestInfo>).writeRefusal;
        if (!refusal) return action(args);
        let form = new FormData();
        try {
          form = await args.request.formData();
        } catch {
          // Not a form: nothing to fill in again.
        }
        const { t, responseHeaders } = args.context as unknown as RequestInfo & { responseHeaders: Headers };
        const { reply, status, headers } = formReply(t, unreadSubmission(form), refusal);
        for (const [name, value] of Object.entries(headers)) responseHeaders.set(name, value);
        return data(reply, { status, headers });
      };
      return [id, { ...route, module: { ...route.module, action: limited } }];
    }),
  );
  return { ...build, routes };
}

/**
 * The build as one language's pages see it: the root and the routes of that language only (route
 * ids carry it, app/routes.ts). The route table stays one; each language's request handler only
 * matches and renders against its seventh of it (issue 13, point 4): React Router tries the ranked
 * routes one by one, compiling each pattern, and builds the server's route tree on every render,
 * so the whole table cost a fresh page more than its rendering. A path holds its language (a
 * prefix, none for Russian), and every route of another language needs that language's prefix, so
 * the subset matches exactly what the whole table would.
 */
export function localeBuild(build: ServerBuild, locale: Locale): ServerBuild {
  const ours = (id: string) => id === "root" || id.startsWith(`${locale}/`);
  const subset = <T>(record: Record<string, T>) => Object.fromEntries(Object.entries(record).filter(([id]) => ours(id)));
  return { ...build, routes: subset(build.routes), assets: { ...build.assets, routes: subset(build.assets.routes) } };
}

/** What a crawler gets instead of an error screen: the status in a line of text ("404 Page Not Found: /x"). */
export function crawlerAnswer(status: number, pathname: string): Response {
  const text = status === 404 ? `404 Page Not Found: ${pathname}` : `${status} ${STATUS_CODES[status] ?? "Error"}`;
  return new Response(`${text}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "X-Robots-Tag": "noindex" } });
}

export function pageHandler(services: Services, build: ServerBuild) {
  const { settings, catalog, content } = services;
  // Development mode shows error details in pages: only where the conveniences are (docs/product/operations.md#production-safety).
  const mode = settings.devConveniences ? "development" : "production";
  const limited = withWriteLimit(build);
  // One handler per language; the whole table only for React Router's route discovery
  // (/__manifest), whose query names paths of any language.
  const whole = createRequestHandler(limited, mode);
  const byLocale = new Map(LOCALES.map((locale) => [locale, createRequestHandler(localeBuild(limited, locale), mode)]));
  const handle = (request: Request, context: RequestInfo & { services: Services; responseHeaders: Headers }, pathname: string) =>
    (pathname === MANIFEST_PATH ? whole : (byLocale.get(context.locale) ?? whole))(request, context);
  const cache = new PageCache(settings.PAGE_CACHE_ENTRIES);
  catalog.onChange(() => cache.clear());
  // A rule may now redirect a page that is cached: the fast path consults the rules first anyway,
  // but a changed table drops the pages too, as a catalogue change does (docs/product/routes.md#route-rules).
  services.routeRules.onChange(() => cache.clear());
  content.onChange(() => cache.clear());
  const cacheControl = "no-cache";
  // The reCAPTCHA widget loads its script (RECAPTCHA_SCRIPT_URL) and frames, only when a site key
  // is set. A page with the widget that does not hydrate loads the script itself (the render says
  // so in X-Recaptcha-Script, docs/decisions/0009-forms-on-the-server.md); other pages that run
  // none of our scripts (the storefront, docs/decisions/0001) need none of its sources; every page
  // that does run ours keeps them, since a client-side navigation can bring a form with the
  // widget into it.
  // A form post that answers with a redirect to PayPal is checked against form-action too.
  const recaptchaSources = settings.RECAPTCHA_SITE_KEY ? recaptchaCsp(settings.RECAPTCHA_SCRIPT_URL) : undefined;
  // The same for BTCPay Server's checkout page (BTCPAY_URL's origin), when it is on (docs/decisions/0041-demo-beside-btcpay.md).
  const formHosts = [
    ...(settings.PAYPAL_CLIENT_ID ? ["https://www.paypal.com", "https://www.sandbox.paypal.com"] : []),
    ...(settings.BTCPAY_URL && settings.BTCPAY_API_KEY ? [new URL(settings.BTCPAY_URL).origin] : []),
  ];
  const formTargets = formHosts.length ? { form: formHosts } : {};

  /** Public pages that are the same for every guest of a locale and shopping area. */
  function isPublicPath(path: string): boolean {
    if (path === "/" || path === "/presentation") return true;
    const segment = /^\/([^/]+)$/.exec(path)?.[1];
    return segment !== undefined && (isSitePage(segment) || catalog.cheatBySlug(segment)?.visible === true);
  }

  const cacheKey = (pathname: string, area: string) => `${pathname}|${area}|${catalog.version}.${content.version}`;

  /** The cached page of a guest's GET, if any (for the node:http fast path). */
  function lookup(pathname: string, area: string): CachedPage | undefined {
    return cache.get(cacheKey(pathname, area));
  }

  function withCsp(response: Response): Response {
    const hashes = response.headers.get("X-Script-Hashes");
    if (hashes === null) return response;
    const widget = response.headers.has("X-Recaptcha-Script");
    response.headers.delete("X-Script-Hashes");
    response.headers.delete("X-Recaptcha-Script");
    const scripts = hashes ? hashes.split(" ") : [];
    // The scripts every page carries (the `tz` cookie, prefetch) do not make a page one that runs ours.
    const hydrates = scripts.some((hash) => !PAGE_SCRIPT_HASHES.has(hash));
    const extra = { ...(hydrates || widget ? recaptchaSources : undefined), ...formTargets };
    response.headers.set("Content-Security-Policy", pageCsp(scripts, extra));
    return response;
  }

  async function handler(c: Context<HonoEnv>): Promise<Response> {
    const info = c.get("info");
    const context = { ...info, services, responseHeaders: new Headers() };
    const url = new URL(c.req.url);
    const cacheable = c.req.method === "GET" && url.search === "" && !carriesCredentials(cookieJar(c.req.header("cookie")), c.req.header("authorization")) && isPublicPath(info.path);
    const key = cacheKey(url.pathname, info.shoppingArea);
    const prefetch = cacheable && isPrefetch(c.req.header("sec-purpose") ?? c.req.header("purpose"));
    const forPrefetch = (headers: Headers) => {
      if (!prefetch) return headers;
      headers.set("Cache-Control", PREFETCH_CACHE_CONTROL);
      headers.set("Vary", "Cookie");
      return headers;
    };
    if (cacheable) {
      const hit = cache.get(key);
      if (hit) return new Response(hit.body, { status: hit.status, headers: forPrefetch(new Headers(hit.headers)) });
    }
    const response = withCsp(await handle(c.req.raw, context, url.pathname));
    for (const [name, value] of context.responseHeaders) if (!response.headers.has(name)) response.headers.set(name, value);
    if (info.isBot && response.status >= 400 && c.req.method === "GET" && !url.pathname.endsWith(".data")) {
      // Crawlers get the status, not the error screen (docs/product/routes.md#not-found-and-error-screens): a short text
      // that names it, never an empty body. Form answers are not error screens.
      return crawlerAnswer(response.status, url.pathname);
    }
    // The render must have been a guest's too: only then is it the same page for everyone.
    if (cacheable && info.auth === null && response.status === 200 && !response.headers.has("set-cookie")) {
      response.headers.set("Cache-Control", cacheControl);
      const body = await response.arrayBuffer();
      const page: CachedPage = { body, status: 200, headers: [...response.headers] };
      cache.set(key, page);
      return new Response(body, { status: 200, headers: forPrefetch(new Headers(page.headers)) });
    }
    if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
    return response;
  }

  return Object.assign(handler, { cache, lookup });
}
