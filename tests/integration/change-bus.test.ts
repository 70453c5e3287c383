// The change bus's other transports (server/changes.ts, docs/product/operations.md#change-bus): on
// the embedded database with REDIS_URL, Redis pub/sub carries a change to every other bus — each
// reloads what the change names, and none applies its own notice twice; without Redis (and off
// PostgreSQL) a change applies in its own process only.
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createChangeBus, type ChangeBus } from "../../server/changes.ts";
import { REDIS_CLIENT_OPTIONS } from "../../server/main.ts";
import { startFreezeProxy } from "../kit/freeze-proxy.ts";
import type { Db } from "../../db/client.ts";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const quiet = { warn: () => {}, info: () => {} };
const opened: { bus: ChangeBus; redis?: Redis }[] = [];

function counting() {
  const seen = { catalog: 0, content: 0, route_rules: 0 };
  const targets = {
    catalog: { reload: async () => void seen.catalog++ },
    content: { reload: async () => void seen.content++ },
    routeRules: { changed: () => void seen.route_rules++ },
  };
  return { seen, targets };
}

async function bus(withRedis: boolean) {
  const { seen, targets } = counting();
  const redis = withRedis ? new Redis(REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 0 }) : undefined;
  if (redis) await new Promise<void>((resolve) => redis.once("ready", () => resolve()));
  const b = createChangeBus({ db: {} as Db, databaseUrl: "memory://", databaseKind: "pglite", redis, targets, logger: quiet });
  await b.start();
  opened.push({ bus: b, redis });
  return { bus: b, seen };
}

afterAll(async () => {
  for (const { bus, redis } of opened) {
    await bus.close();
    await redis?.quit();
  }
});

async function until(check: () => boolean, ms = 2000) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("the change bus", () => {
  it("carries a change through Redis pub/sub to the other processes within 2 s, and applies it once where it was made", async () => {
    const a = await bus(true);
    const b = await bus(true);
    expect(a.bus.transport).toBe("redis");
    // The subscriptions are made in the background: wait until a notice gets through.
    await until(() => b.seen.content > 0 || (void a.bus.publish("content"), false));
    const before = { ...a.seen };
    await a.bus.publish("catalog");
    expect(a.seen.catalog).toBe(before.catalog + 1);
    await until(() => b.seen.catalog === 1);
    await a.bus.publish("route_rules");
    await until(() => b.seen.route_rules === 1);
    await new Promise((r) => setTimeout(r, 100));
    // Its own notices come back to a, and a ignores them.
    expect(a.seen.catalog).toBe(before.catalog + 1);
    expect(a.seen.route_rules).toBe(1);
  });

  it("applies a change in its own process alone on the embedded database without Redis", async () => {
    const a = await bus(false);
    expect(a.bus.transport).toBe("local");
    await a.bus.publish("catalog");
    expect(a.seen).toEqual({ catalog: 1, content: 0, route_rules: 0 });
  });
});

describe("the change bus when Redis drops its connections", () => {
  it("renews its subscription after a reconnect even when Redis answers slower than the shop's command timeout, leaving nothing unhandled", async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", record);
    const proxy = await startFreezeProxy(REDIS_URL);
    const { seen, targets } = counting();
    // The shop's own client options (a command timeout, no retries), through the proxy.
    const redis = new Redis(proxy.url, REDIS_CLIENT_OPTIONS);
    const listening = createChangeBus({ db: {} as Db, databaseUrl: "memory://", databaseKind: "pglite", redis, targets, logger: quiet });
    try {
      await new Promise<void>((resolve) => redis.once("ready", () => resolve()));
      await listening.start();
      const other = await bus(true);
      await until(() => seen.content > 0 || (void other.bus.publish("content"), false));

      // Redis restarts, and answers the listener's new SUBSCRIBE after the shop's command timeout.
      proxy.freezeAfter(/subscribe/i);
      const reloads = seen.content;
      proxy.drop();
      await until(() => proxy.frozenByCommand, 10_000);
      setTimeout(() => proxy.thaw(), REDIS_CLIENT_OPTIONS.commandTimeout + 1000);
      // Everything is reloaded once the subscription is renewed (content changes only that way here).
      await until(() => seen.content > reloads, 10_000);
      const heard = seen.catalog;
      await until(() => seen.catalog > heard || (void other.bus.publish("catalog"), false));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", record);
      await listening.close();
      redis.disconnect();
      await proxy.stop();
    }
  });
});
