// The one HTTP application: health, assets, translations, sitemaps, the JSON API and the pages,
// behind one middleware stack. Built from services, so tests run it in-process with app.fetch.
import path from "node:path";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { serveStatic } from "@hono/node-server/serve-static";
import type { ServerBuild } from "react-router";
import { isLocale, DEFAULT_LOCALE } from "../i18n/locales.ts";
import { DomainError } from "../core/shared/errors.ts";
import type { HonoEnv } from "./context.ts";
import type { Services } from "./services.ts";
import { requestInfo } from "./middleware/request-info.ts";
import { securityHeaders } from "./middleware/security-headers.ts";
import { originCheck } from "./middleware/origin-check.ts";
import { visitor } from "./middleware/visitor.ts";
import { routeRules } from "./middleware/route-rules.ts";
import { session } from "./middleware/session.ts";
import { writeLimit } from "./middleware/write-limit.ts";
import { failure, toDomainError } from "./http/envelope.ts";
import { refuseControlCharacters } from "./http/body.ts";
import { apiRoutes } from "./api/index.ts";
import { isApiPath } from "./api/paths.ts";
import { isBuildUpload } from "./api/delivery.ts";
import { pageHandler } from "./pages.ts";
import { robotsTxt } from "./robots.ts";
import { sitemapXml } from "./sitemap.ts";
import { devMailRoutes } from "./dev-mail.ts";
import { jobsHealthy } from "./jobs.ts";
import { metricsAuthorized } from "./metrics.ts";
import { pagePatterns } from "./route-patterns.ts";

/** Whether a check resolves within `ms`. */
async function answers(check: () => Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([check(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("timed out")), ms)))]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export type AppOptions = {
  /** The React Router server build; without it only the API and the static parts are served. */
  build?: ServerBuild;
  /** Folder of the browser build (hashed assets). */
  clientDir?: string;
};

const IMMUTABLE = "public, max-age=31536000, immutable";

export function createApp(services: Services, options: AppOptions = {}): Hono<HonoEnv> & { pages?: ReturnType<typeof pageHandler>; patternOf?: (pathWithoutLocale: string) => string } {
  const { settings, catalogs, logger } = services;
  const app = new Hono<HonoEnv>();

  app.onError((error, c) => {
    const domainError = toDomainError(error);
    if (domainError.code === "internal_error") {
      logger.error({ err: error, reqId: c.get("info")?.requestId }, "unhandled error");
    }
    return failure(c, domainError);
  });

  app.use(requestInfo(services));
  // Query strings of every request, API and pages alike: control characters are refused here, once.
  app.use(async (c, next) => {
    for (const [name, value] of new URL(c.req.url).searchParams) refuseControlCharacters({ [name]: value });
    return next();
  });
  app.use(securityHeaders({ hsts: settings.secureCookies }));
  const limitBody = bodyLimit({
    maxSize: settings.BODY_LIMIT_BYTES,
    onError: (c) => failure(c, new DomainError("payload_too_large")),
  });
  // A build upload is the one body past the limit: streamed to disk, bounded by BUILD_MAX_BYTES (docs/product/delivery.md#downloads).
  // A GET or HEAD has no body to limit (neither @hono/node-server's request nor a web Request gives
  // it one), and asking node-server's request for its body builds the whole web Request (undici's,
  // its headers copied) that a page or an API read otherwise never needs: 4 % of a fresh landing's
  // CPU (decision 0074).
  app.use((c, next) => {
    const method = c.req.method;
    return method === "GET" || method === "HEAD" || (method === "POST" && isBuildUpload(c.req.path)) ? next() : limitBody(c, next);
  });
  app.use(originCheck(settings.PUBLIC_URL));
  app.use(session());
  app.use(writeLimit());

  app.get("/healthz", async (c) => {
    c.header("Cache-Control", "no-store");
    if (await answers(() => services.database.ping(), 2000)) return c.json({ status: true });
    return c.json({ status: false, code: "unavailable" }, 503);
  });

  // docs/product/operations.md#health: ready to serve when the database and Redis (if set) answer and the jobs run.
  // While Redis is down the shop keeps serving on PostgreSQL counters, but says so here.
  app.get("/readyz", async (c) => {
    c.header("Cache-Control", "no-store");
    const [database, redis] = await Promise.all([answers(() => services.database.ping(), 2000), services.redis ? answers(() => services.redis!.ping(), 1000) : Promise.resolve(undefined)]);
    const checks = {
      database: database ? "ok" : "down",
      redis: redis === undefined ? "off" : redis ? "ok" : "down",
      jobs: services.jobs.state === "off" ? "off" : jobsHealthy(services) ? "ok" : services.jobs.state === "running" ? "stalled" : "stopped",
    };
    const ready = database && redis !== false && checks.jobs !== "stalled" && checks.jobs !== "stopped";
    return ready ? c.json({ status: true, checks }) : c.json({ status: false, code: "unavailable", checks }, 503);
  });

  // docs/product/operations.md#metrics: Prometheus text behind METRICS_TOKEN; without the setting there is no such page.
  app.get("/metrics", async (c, next) => {
    const token = settings.METRICS_TOKEN;
    if (!token) return next();
    c.header("Cache-Control", "no-store");
    if (!metricsAuthorized(c.req.header("authorization"), token)) {
      c.header("WWW-Authenticate", 'Bearer realm="metrics"');
      return failure(c, new DomainError("unauthenticated"));
    }
    return c.body(await services.metrics.text(), 200, { "Content-Type": services.metrics.contentType });
  });

  if (options.clientDir) {
    const root = path.relative(process.cwd(), options.clientDir) || ".";
    app.use("/assets/*", serveStatic({ root, onFound: (_path, c) => c.header("Cache-Control", IMMUTABLE) }));
    app.get("/assets/*", (c) => c.text("Not Found", 404));
    // Illustrations of the catalogue and pages (public/media/, docs/product/data.md#game-content): stable
    // names that operators' texts point to, so cached for a day rather than forever.
    // (serveStatic's onFound runs after it made the response, too late for a header: set it on the way out.)
    app.use("/media/*", async (c, next) => {
      await next();
      if (c.res.status === 200) c.res.headers.set("Cache-Control", "public, max-age=86400");
    });
    app.use("/media/*", serveStatic({ root }));
    app.get("/media/*", (c) => c.text("Not Found", 404));
    app.get("/favicon.svg", serveStatic({ root, onFound: (_path, c) => c.header("Cache-Control", "public, max-age=86400") }));
    // The icon browsers ask for unbidden, and the image shared links show (og:image, root.tsx).
    app.get("/favicon.ico", serveStatic({ root, onFound: (_path, c) => c.header("Cache-Control", "public, max-age=86400") }));
    app.get("/og.png", serveStatic({ root, onFound: (_path, c) => c.header("Cache-Control", "public, max-age=86400") }));
  }

  app.get("/_i18n/:hash/:locale/messages.json", (c) => {
    const { hash, locale } = c.req.param();
    if (!isLocale(locale)) return failure(c, new DomainError("not_found"));
    if (hash !== catalogs.hash) return c.redirect(catalogs.url(locale), 302);
    c.header("Cache-Control", "public, max-age=86400");
    c.header("Content-Type", "application/json; charset=utf-8");
    return c.body(catalogs.json(locale));
  });

  app.get("/robots.txt", (c) => {
    c.header("Cache-Control", "public, max-age=3600");
    return c.text(robotsTxt(settings.PUBLIC_URL));
  });

  app.on("GET", ["/sitemap.xml", "/:lang/sitemap.xml"], async (c, next) => {
    const prefix = c.req.param("lang");
    const lang = prefix ?? DEFAULT_LOCALE;
    // "/ru/sitemap.xml" is no page of ours (Russian has no prefix): the 404 page answers it.
    if (!isLocale(lang) || prefix === DEFAULT_LOCALE) return next();
    c.header("Content-Type", "application/xml; charset=utf-8");
    c.header("Cache-Control", "public, max-age=3600");
    return c.body(sitemapXml(services, lang));
  });

  app.route("/", apiRoutes());
  if (settings.devConveniences) app.route("/", devMailRoutes());
  app.all("*", async (c, next) => {
    if (isApiPath(c.req.path)) return failure(c, new DomainError("not_found"));
    return next();
  });

  if (!options.build) return app;
  const pages = pageHandler(services, options.build);
  app.use("*", routeRules());
  app.use("*", visitor({ secure: settings.secureCookies, localeHosts: settings.LOCALE_HOSTS }));
  const patternOf = pagePatterns(options.build);
  app.all("*", (c) => {
    c.set("route", patternOf(c.get("info").path));
    return pages(c);
  });
  return Object.assign(app, { pages, patternOf });
}
