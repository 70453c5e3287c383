// The whole shop in-process: real settings parsing, real database, real app; requests go through
// app.request() without a socket.
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Logger } from "pino";
import { afterAll, beforeAll } from "vitest";
import { createApp } from "../../server/app.ts";
import { BUILD_DIR, bootServices, createHttpServer, loadBuild } from "../../server/main.ts";
import { loadSettings } from "../../server/settings.ts";
import { createLogger } from "../../server/logging.ts";
import type { Services } from "../../server/services.ts";
import type { Clock } from "../../core/shared/clock.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";

export type TestApp = {
  services: Services;
  app: ReturnType<typeof createApp>;
  request(path: string, init?: RequestInit): Promise<Response>;
  database: TestDatabase;
};

/**
 * The origin of the in-process shop (its PUBLIC_URL): a loopback one, as a developer's machine or a
 * test rig has, so that the development conveniences (docs/product/operations.md#production-safety) are on. Tests name the
 * origin through this constant, never by hand.
 */
export const TEST_ORIGIN = "http://localhost";

export async function startTestApp(
  options: {
    env?: Record<string, string>;
    clock?: Clock;
    pages?: boolean;
    logger?: Logger;
    /** Reaches the fresh database another way (e.g. through a proxy): its URL → the one the shop uses. */
    databaseUrl?: (url: string) => string | Promise<string>;
  } = {},
): Promise<TestApp & { stop(): Promise<void> }> {
  const database = await createTestDatabase();
  // Uploaded builds (and the development data's stand-in builds) go to a folder of this app's own.
  const storage = mkdtempSync(path.join(os.tmpdir(), "shop-files-"));
  const settings = loadSettings({
    STORAGE_DIR: storage,
    NODE_ENV: "test",
    DATABASE_URL: options.databaseUrl ? await options.databaseUrl(database.url) : database.url,
    PUBLIC_URL: TEST_ORIGIN,
    LOG_LEVEL: "silent",
    // Argon2id at its smallest cost: the suite's users set and type thousands of passwords (decision 0066).
    PASSWORD_HASHING: "test",
    ...options.env,
  });
  const services = await bootServices(settings, { clock: options.clock, logger: options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? "silent") });
  // The page build imports core/, server/ and i18n/ from source: under Vitest those are the modules
  // this file and the tests import, one copy each (docs/decisions/0008-one-module-graph.md).
  const build = options.pages === false ? undefined : await loadBuild();
  const app = createApp(services, { build, clientDir: path.join(BUILD_DIR, "client") });
  return {
    services,
    app,
    database,
    request: (p, init) => Promise.resolve(app.request(p.startsWith("http") ? p : `${TEST_ORIGIN}${p}`, init)),
    async stop() {
      // The database and the files go even when a test already closed what it stops (a restart test).
      try {
        await services.background.drain();
        await services.changes.close();
        await services.redis?.quit().catch(() => services.redis?.disconnect());
        await services.database.close();
      } finally {
        await database.drop();
        rmSync(storage, { recursive: true, force: true });
      }
    },
  };
}

/** Starts one app for the test file and stops it afterwards. */
export function useTestApp(options: Parameters<typeof startTestApp>[0] = {}): TestApp {
  const holder = {} as TestApp & { stop(): Promise<void> };
  beforeAll(async () => {
    Object.assign(holder, await startTestApp(options));
  });
  afterAll(async () => {
    await holder.stop?.();
  });
  return new Proxy(holder, { get: (target, key) => target[key as keyof typeof target] });
}

/**
 * The shop on a loopback port for the file's (or the describe block's) tests, through the real
 * node:http server with its page-cache fast path; the in-process app stays usable too.
 */
export function useListening(shop: Pick<TestApp, "services" | "app">): { readonly url: string } {
  const state = { url: "", close: async () => {} };
  beforeAll(async () => {
    const server = createHttpServer(shop.services, shop.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    state.close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(() => state.close());
  return {
    get url() {
      return state.url;
    },
  };
}
