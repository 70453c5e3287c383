// Pages: React Router renders them; guest views of public pages come from a page cache keyed by
// path (which holds the locale), shopping area and catalogue version. The build is fixed for the
// life of the process. The CSP allows inline scripts by hash, so a cached page keeps a strict CSP.
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { createRequestHandler, type ServerBuild } from "react-router";
import type { HonoEnv } from "./context.ts";
import type { Services } from "./services.ts";
import { pageCsp } from "./middleware/security-headers.ts";

export type CachedPage = { body: ArrayBuffer; status: number; headers: [string, string][]; raw?: { body: Buffer; headers: Record<string, string> } };

/** A small LRU: Map keeps insertion order, so the first key is the least recently used. */
class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  constructor(private readonly capacity: number) {}
  get(key: string) {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }
  set(key: string, page: CachedPage) {
    if (this.capacity === 0) return;
    this.entries.set(key, page);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
  clear() {
    this.entries.clear();
  }
  get size() {
    return this.entries.size;
  }
}

export function pageHandler(services: Services, build: ServerBuild) {
  const { settings, catalog } = services;
  // Development mode shows error details in pages: only where the conveniences are (decisions §11).
  const handle = createRequestHandler(build, settings.devConveniences ? "development" : "production");
  const cache = new PageCache(settings.PAGE_CACHE_ENTRIES);
  catalog.onChange(() => cache.clear());
  const cacheControl = "no-cache";
  // The reCAPTCHA widget loads Google's script and frame, only when a site key is set.
  // A form post that answers with a redirect to PayPal is checked against form-action too.
  const cspExtra = {
    ...(settings.RECAPTCHA_SITE_KEY
      ? { script: ["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"], frame: ["https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"] }
      : {}),
    ...(settings.PAYPAL_CLIENT_ID ? { form: ["https://www.paypal.com", "https://www.sandbox.paypal.com"] } : {}),
  };

  /** Public pages that are the same for every guest of a locale and shopping area. */
  function isPublicPath(path: string): boolean {
    if (path === "/" || path === "/presentation") return true;
    const game = /^\/([^/]+)$/.exec(path)?.[1];
    return game !== undefined && catalog.cheatBySlug(game) !== undefined;
  }

  const cacheKey = (pathname: string, area: string) => `${pathname}|${area}|${catalog.version}`;

  /** The cached page of a guest's GET, if any (for the node:http fast path). */
  function lookup(pathname: string, area: string): CachedPage | undefined {
    return cache.get(cacheKey(pathname, area));
  }

  function withCsp(response: Response): Response {
    const hashes = response.headers.get("X-Script-Hashes");
    if (hashes === null) return response;
    response.headers.delete("X-Script-Hashes");
    response.headers.set("Content-Security-Policy", pageCsp(hashes ? hashes.split(" ") : [], cspExtra));
    return response;
  }

  async function handler(c: Context<HonoEnv>): Promise<Response> {
    const info = c.get("info");
    const context = { ...info, services };
    const url = new URL(c.req.url);
    const cacheable =
      c.req.method === "GET" && url.search === "" && !getCookie(c, "access_token") && isPublicPath(info.path);
    const key = cacheKey(url.pathname, info.shoppingArea);
    if (cacheable) {
      const hit = cache.get(key);
      if (hit) return new Response(hit.body, { status: hit.status, headers: hit.headers });
    }
    const response = withCsp(await handle(c.req.raw, context));
    if (info.isBot && response.status >= 400 && c.req.method === "GET" && !url.pathname.endsWith(".data")) {
      // Crawlers get the status, not the error screen (spec §8); form answers are not error screens.
      return new Response(null, { status: response.status, headers: { "Cache-Control": "no-store" } });
    }
    if (cacheable && response.status === 200 && !response.headers.has("set-cookie")) {
      response.headers.set("Cache-Control", cacheControl);
      const body = await response.arrayBuffer();
      const page: CachedPage = { body, status: 200, headers: [...response.headers] };
      cache.set(key, page);
      return new Response(body, { status: 200, headers: page.headers });
    }
    if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
    return response;
  }

  return Object.assign(handler, { cache, lookup });
}
