// The shop of `npm run dev`, loaded by scripts/dev.mjs through Vite's SSR module graph: the pages
// (React Router's development build), the core, the server and i18n are one graph of source
// modules there, as they are in `npm start` (docs/decisions/0008-one-module-graph.md). After an
// edit of any file this module reaches — a route, a core service, a server module — Vite
// evaluates it again, and the next request is answered by a shop made of the new code.
//
// What must outlive those reloads is kept on globalThis: the settings (read once, as at a start),
// the logger, and the database and Redis (PGlite opens its folder once per process; the migrations
// and the demo data are in place). The background jobs of the old code stop when the new code
// starts its own.
import type { RequestListener } from "node:http";
import type { Logger } from "pino";
import type { ServerBuild } from "react-router";
import * as build from "virtual:react-router/server-build";
import { createApp } from "./app.ts";
import { startJobs } from "./jobs.ts";
import { createLogger } from "./logging.ts";
import { closeServices, openResources, requestListener, servicesOn, type Resources } from "./main.ts";
import type { Services } from "./services.ts";
import { loadSettings, type Settings } from "./settings.ts";

type Kept = {
  settings: Settings;
  logger: Logger;
  resources: Promise<Resources>;
  /** The shop of the newest code, and how to stop its jobs and close it. */
  current?: { services: Services; stopJobs: () => Promise<void> };
};

const held = globalThis as typeof globalThis & { __novaDev?: Kept };

/** Reads the settings, opens the database and Redis, once per process; later calls change nothing. */
export async function open(env: Record<string, string | undefined>): Promise<void> {
  if (!held.__novaDev) {
    const settings = loadSettings(env);
    const logger = createLogger(settings.LOG_LEVEL);
    held.__novaDev = { settings, logger, resources: openResources(settings, logger) };
  }
  await held.__novaDev.resources;
}

/** This module's shop: made on the first request it gets, i.e. the first after each reload. */
let shop: Promise<RequestListener> | undefined;

export function listener(): Promise<RequestListener> {
  shop ??= makeShop().catch((error: unknown) => {
    shop = undefined; // an edit that fixes it gets another try
    throw error;
  });
  return shop;
}

async function makeShop(): Promise<RequestListener> {
  const kept = held.__novaDev;
  if (!kept) throw new Error("server/dev.ts: open() comes first");
  const resources = await kept.resources;
  const services = await servicesOn(kept.settings, resources, { logger: kept.logger });
  // The page cache starts empty with each new app, so an edited page is never served stale.
  const app = createApp(services, { build: build satisfies ServerBuild });
  const previous = kept.current;
  kept.current = undefined;
  if (previous) await previous.stopJobs();
  // The previous shop's listener of the change bus goes with it.
  if (previous) await previous.services.changes.close();
  kept.current = { services, stopJobs: startJobs(services) };
  kept.logger.info("the shop's code was (re)loaded");
  return requestListener(services, app);
}

/** On SIGTERM/SIGINT: the jobs, background work, SMTP, Redis and the database. */
export async function close(): Promise<void> {
  const kept = held.__novaDev;
  if (!kept) return;
  const { database, redis } = await kept.resources;
  if (kept.current) {
    await closeServices(kept.current.services, kept.current.stopJobs);
  } else {
    await redis?.quit().catch(() => redis.disconnect());
    await database.close();
  }
  delete held.__novaDev;
}
