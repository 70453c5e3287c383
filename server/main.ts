// Boots the shop: settings → database (migrated, demo data) → services → HTTP server; drains and
// closes the database on SIGTERM/SIGINT within 10 s.
import cluster from "node:cluster";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createServer, type RequestListener } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { Logger } from "pino";
import { Redis, type RedisOptions } from "ioredis";
import type { ServerBuild } from "react-router";
import { openDatabase, type Database } from "../db/client.ts";
import { retireDemoUser, seedCatalog, seedDemoUser } from "../db/seed.ts";
import { loadCatalogs } from "../i18n/catalogs.ts";
import { createPasswords } from "../core/accounts/passwords.ts";
import { systemClock, type Clock } from "../core/shared/clock.ts";
import { loadSettings, SettingsError, type Settings } from "./settings.ts";
import { createServices, type Services } from "./services.ts";
import { createApp } from "./app.ts";
import { startJobs } from "./jobs.ts";
import { pageCacheFastPath } from "./fast-path.ts";
import { createLogger } from "./logging.ts";
import { collectDefaultMetrics } from "prom-client";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const BUILD_DIR = path.join(root, "build");

/** What a process opens once: the database (migrated, the demo data loaded) and Redis, when set. */
export type Resources = { database: Database; redis?: Redis };

export async function openResources(settings: Settings, logger: Logger): Promise<Resources> {
  // Migrations and demo data under the start-up lock: several processes and hosts may start at once.
  const database = await openDatabase(settings.DATABASE_URL, {
    statementTimeoutMs: settings.DB_STATEMENT_TIMEOUT_MS,
    poolSize: settings.DB_POOL_SIZE,
    startup: async (db) => {
      const passwords = createPasswords(settings.PASSWORD_HASHING);
      await seedCatalog(db, settings.SHOP_CURRENCY);
      // The demo user exists only on a run nobody else reaches (docs/product/operations.md#production-safety); one seeded by an earlier
      // development run of the same database is retired when the shop goes public.
      if (settings.devConveniences) await seedDemoUser(db, settings.SHOP_CURRENCY, passwords.hash);
      else await retireDemoUser(db, passwords.verify);
    },
  });
  const redis = settings.REDIS_URL ? await connectRedis(settings.REDIS_URL, logger) : undefined;
  return { database, redis };
}

/** The services on opened resources (`npm run dev` makes them again after every edit, on the same database). */
export async function servicesOn(settings: Settings, resources: Resources, options: { clock?: Clock; logger: Logger }): Promise<Services> {
  const services = createServices({ settings, ...resources, catalogs: loadCatalogs(), clock: options.clock ?? systemClock, logger: options.logger });
  await Promise.all([services.catalog.reload(), services.routeRules.reload(), services.content.reload()]);
  // Changes other processes make from now on reach this one (docs/product/operations.md#change-bus).
  await services.changes.start();
  // The entitlements' key exists from the start (made under an advisory lock on a fresh database).
  await services.signer();
  if (settings.devConveniences) await seedDemoBuilds(services);
  return services;
}

/**
 * Development data (docs/product/operations.md#production-safety): a small stand-in build of every game without one, so
 * that the download of the profile works on a development run (docs/product/delivery.md#downloads).
 */
async function seedDemoBuilds(services: Services): Promise<void> {
  for (const game of services.catalog.cheats()) {
    if (await services.builds.latest(game.id)) continue;
    const text = `NOVA demo client for ${game.name}.\nThis file stands in for a real build on a development run.\n`;
    const stored = await services.builds.receive(Readable.from([Buffer.from(text)]));
    await services.builds.publish(
      game.id,
      stored,
      { version: "0.1.0-demo", notes: "A stand-in build of the development data.", fileName: `nova-${game.slug}-demo.txt` },
      { actorId: null, ip: null, reason: "development data" },
    );
  }
}

/** Everything but the listening socket: used by main and by in-process tests. */
export async function bootServices(settings: Settings, options: { clock?: Clock; logger?: Logger } = {}): Promise<Services> {
  const logger = options.logger ?? createLogger(settings.LOG_LEVEL);
  return servicesOn(settings, await openResources(settings, logger), { clock: options.clock, logger });
}

/**
 * A Redis client that never makes a request wait for it: no offline queue (a command while it is
 * disconnected fails at once), a command timeout, reconnection in the background. The start waits
 * up to REDIS_START_WAIT_MS for the first connection; without one the shop starts all the same,
 * its counters in PostgreSQL until Redis answers (docs/decisions/0006-redis-down.md).
 */
async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = new Redis(url, REDIS_CLIENT_OPTIONS);
  let warned = false;
  redis.on("error", (err: Error) => {
    if (warned) return;
    warned = true;
    logger.warn({ err }, "Redis connection error");
  });
  redis.on("ready", () => (warned = false));
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, REDIS_START_WAIT_MS);
    redis.once("ready", () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return redis;
}
const REDIS_START_WAIT_MS = 3000;

/** The options of the shop's Redis client (connectRedis); the change bus's subscriber overrides some. */
export const REDIS_CLIENT_OPTIONS = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: 1000,
  connectTimeout: 2000,
  retryStrategy: (times: number) => Math.min(200 * times, 2000),
} satisfies RedisOptions;

/** node:http's handler of the shop: page-cache hits on the fast path, everything else through the app. */
export function requestListener(services: Services, app: ReturnType<typeof createApp>): RequestListener {
  const appListener = getRequestListener(app.fetch);
  const fastPath = app.pages ? pageCacheFastPath(services, app.pages.lookup, app.patternOf) : undefined;
  return (req, res) => {
    if (fastPath?.(req, res)) return;
    void appListener(req, res);
  };
}

/** The node:http server of the shop. */
export function createHttpServer(services: Services, app: ReturnType<typeof createApp>) {
  const timeout = services.settings.REQUEST_TIMEOUT_MS;
  // A client gets REQUEST_TIMEOUT_MS to send its whole request, headers and body; node answers 408
  // and closes the connection after that, and checks every second rather than every 30 s.
  return createServer({ requestTimeout: timeout, headersTimeout: timeout, connectionsCheckingInterval: 1000 }, requestListener(services, app));
}

/** After the last request: the jobs, background work (mails after an answer), SMTP, Redis, the database. */
export async function closeServices(services: Services, stopJobs: () => Promise<void>): Promise<void> {
  await stopJobs();
  await services.background.drain();
  services.mailer.close();
  await services.changes.close();
  await services.redis?.quit().catch(() => services.redis?.disconnect());
  await services.database.close().catch((err) => services.logger.error({ err }, "closing the database failed"));
}

/**
 * The page build: React Router's server bundle of app/. It imports core/, server/ and i18n/ from
 * source, so it must be loaded by a process that loads TypeScript (tsx for `npm start`, Vitest in
 * the tests), and it shares their one copy of each module (docs/decisions/0008-one-module-graph.md).
 */
export async function loadBuild(): Promise<ServerBuild> {
  return (await import(/* @vite-ignore */ pathToFileURL(path.join(BUILD_DIR, "server", "index.js")).href)) as ServerBuild;
}

export async function main(env: Record<string, string | undefined> = process.env) {
  let settings: Settings;
  try {
    settings = loadSettings(env);
  } catch (error) {
    if (error instanceof SettingsError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const workers = processCount(settings);
  if (cluster.isPrimary && workers > 1) return runPrimary(settings, workers, env);
  const services = await bootServices(settings);
  const { logger } = services;
  collectDefaultMetrics({ register: services.metrics.registry });
  const app = createApp(services, { build: await loadBuild(), clientDir: path.join(BUILD_DIR, "client") });
  const stopJobs = startJobs(services);
  const server = createHttpServer(services, app);
  server.listen(settings.PORT, settings.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : settings.PORT;
    logger.info({ url: `http://${settings.HOST}:${port}`, database: services.database.kind }, "listening");
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "draining");
    const force = setTimeout(() => {
      logger.warn("drain timed out; closing remaining connections");
      server.closeAllConnections();
    }, 8000);
    force.unref();
    server.closeIdleConnections();
    server.close(async () => {
      clearTimeout(force);
      await closeServices(services, stopJobs);
      logger.info("stopped");
      process.exit(0);
    });
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

/**
 * How many app processes serve (WEB_CONCURRENCY, docs/product/operations.md#several-processes-and-hosts). The embedded
 * database lives inside one process, so above 1 needs PostgreSQL: on PGlite the shop says so in one
 * line and runs one process.
 */
export function processCount(settings: Settings, log: (line: string) => void = (line) => console.warn(line)): number {
  const wanted = settings.WEB_CONCURRENCY === "auto" ? os.availableParallelism() : settings.WEB_CONCURRENCY;
  if (wanted <= 1) return 1;
  if (/^postgres(ql)?:\/\//.test(settings.DATABASE_URL)) return wanted;
  log(`WEB_CONCURRENCY=${settings.WEB_CONCURRENCY} needs a postgres:// DATABASE_URL (the embedded database serves one process): running 1 process`);
  return 1;
}

/**
 * The primary of WEB_CONCURRENCY > 1: forks the workers (each boots as a one-process shop does, the
 * start-up under the advisory lock, and they share the port), forks again one that exits after it
 * listened, stops when one fails before it listened (a bad database, say), and on SIGTERM/SIGINT
 * passes the signal on and exits when every worker drained.
 */
function runPrimary(settings: Settings, count: number, env: Record<string, string | undefined>) {
  const logger = createLogger(settings.LOG_LEVEL);
  // The workers run the same script; the shop's mode is the one this process was given.
  const workerEnv = env.NODE_ENV ? { NODE_ENV: env.NODE_ENV } : {};
  let stopping = false;
  let exitCode = 0;
  const listened = new Set<number>();
  const alive = () => Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
  logger.info({ workers: count, pid: process.pid }, "starting workers");
  for (let i = 0; i < count; i++) cluster.fork(workerEnv);
  cluster.on("listening", (worker) => listened.add(worker.id));
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (alive().length === 0) {
        logger.info("stopped");
        process.exit(exitCode);
      }
      return;
    }
    if (!listened.has(worker.id)) {
      logger.error({ pid: worker.process.pid, code, signal }, "a worker failed at start; stopping");
      stop("a worker failed at start", 1);
      return;
    }
    logger.warn({ pid: worker.process.pid, code, signal }, "a worker exited; starting another");
    cluster.fork(workerEnv);
  });
  const stop = (reason: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    logger.info({ reason }, "draining workers");
    if (alive().length === 0) process.exit(exitCode);
    for (const worker of alive()) worker.process.kill("SIGTERM");
    setTimeout(() => process.exit(exitCode || 1), 12_000).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
