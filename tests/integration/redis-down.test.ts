// Redis down (issue 7, point 7; docs/decisions/0006-redis-down.md): with REDIS_URL set and Redis
// unreachable — from the start, or dying mid-run — sign-in and writes keep working on PostgreSQL
// counters (the limits still hold), nothing answers 500, and /readyz (docs/product/operations.md#health) says Redis is
// down while /healthz stays 200. The Redis servers here are the test's own.
import { eq } from "drizzle-orm";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { rateLimits } from "../../db/schema/index.ts";
import { startJobs } from "../../server/jobs.ts";
import { startTestApp } from "../kit/app.ts";
import { freePort, startRedisServer, type TestRedis } from "../kit/redis.ts";
import { login, registerUser, uniqueIp, useShop, type Shop } from "../kit/shop.ts";

// Three failures lock an account (per account and address, and across addresses: the second test
// fails from many addresses).
const LIMITS = { RATE_LOGIN_ACCOUNT: "3/15m", RATE_LOGIN_ACCOUNT_GLOBAL: "3/15m", JOBS_INTERVAL_SECONDS: "0" };

async function readyz(shop: Shop) {
  return shop.call("GET", "/readyz");
}

async function pgCount(shop: Shop, key: string): Promise<number | undefined> {
  return (await shop.services.db.select().from(rateLimits).where(eq(rateLimits.key, key)))[0]?.count;
}

/** Polls until `check` holds, or fails after `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// Nothing listens there: a port just freed.
const closedPort = await freePort();
// Started before the shops of this file, which read REDIS_URL when they start.
const redis: TestRedis = await startRedisServer();

describe("REDIS_URL at a closed port", () => {
  const shop = useShop({ env: { REDIS_URL: `redis://127.0.0.1:${closedPort}`, ...LIMITS } });

  it("registers, signs in and counts failed sign-ins in PostgreSQL: 401s, then 429 — never a 500", async () => {
    shop.clock.set(new Date());
    const user = await registerUser(shop);
    for (let i = 1; i <= 3; i++) expect((await login(shop, user.email, `Wrong-Password-${i}`)).status, `attempt ${i}`).toBe(401);
    expect(await pgCount(shop, `login:user:${user.id}`)).toBe(3);
    expect((await login(shop, user.email, user.password)).status).toBe(429);
    const other = await registerUser(shop);
    expect((await login(shop, other.email, other.password)).status).toBe(200);
    // A write of a signed-in user (the per-user write limit).
    const prefs = await shop.call("POST", "/v2/web/user/email-preferences", { token: other.token, json: { allow_marketing: false, allow_security: true } });
    expect(prefs.status).toBe(200);
  });

  it("answers /healthz 200 and /readyz 503 naming Redis", async () => {
    expect((await shop.call("GET", "/healthz")).status).toBe(200);
    const ready = await readyz(shop);
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: false, code: "unavailable", checks: { database: "ok", redis: "down", jobs: "off" } });
  });
});

describe("a Redis that dies mid-run", () => {
  let client: Redis;
  const shop = useShop({ env: { REDIS_URL: redis.url, ...LIMITS } });
  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it("keeps serving on PostgreSQL counters while Redis is gone, and goes back to Redis when it returns", async () => {
    shop.clock.set(new Date());
    client = new Redis(redis.url, { maxRetriesPerRequest: 1, lazyConnect: true });
    await client.connect();
    const user = await registerUser(shop);
    expect((await login(shop, user.email, "Wrong-Password-1")).status).toBe(401);
    expect(await client.get(`shop:rl:login:user:${user.id}`)).toBe("1");
    const ready = await readyz(shop);
    expect(ready.status, ready.text).toBe(200);
    expect(ready.body.checks).toEqual({ database: "ok", redis: "ok", jobs: "off" });
    client.disconnect();

    await redis.kill();
    for (let i = 2; i <= 4; i++) expect((await login(shop, user.email, `Wrong-Password-${i}`, { ip: uniqueIp() })).status, `attempt ${i}`).toBe(401);
    expect(await pgCount(shop, `login:user:${user.id}`)).toBe(3);
    expect((await login(shop, user.email, user.password)).status).toBe(429);
    const other = await registerUser(shop);
    expect((await login(shop, other.email, other.password)).status).toBe(200);
    expect((await shop.call("GET", "/healthz")).status).toBe(200);
    const down = await readyz(shop);
    expect(down.status).toBe(503);
    expect(down.body.checks.redis).toBe("down");

    await redis.restart();
    await eventually(async () => (await readyz(shop)).status === 200);
    // Counting in Redis again once the pause after the failure is over.
    client = new Redis(redis.url, { maxRetriesPerRequest: 1, lazyConnect: true });
    await client.connect();
    await eventually(async () => {
      const fresh = await registerUser(shop);
      expect((await login(shop, fresh.email, "Wrong-Password-x")).status).toBe(401);
      return (await client.get(`shop:rl:login:user:${fresh.id}`)) === "1";
    });
  });
});

describe("/readyz and the jobs", () => {
  it("is 503 while the jobs are not running in the process, 200 once they are", async () => {
    const app = await startTestApp({ pages: false });
    try {
      const before = await app.request("/readyz");
      expect(before.status).toBe(503);
      expect(await before.json()).toMatchObject({ checks: { database: "ok", redis: "off", jobs: "stopped" } });
      const stop = startJobs(app.services);
      try {
        const after = await app.request("/readyz");
        expect(after.status).toBe(200);
        expect(await after.json()).toEqual({ status: true, checks: { database: "ok", redis: "off", jobs: "ok" } });
      } finally {
        await stop();
      }
    } finally {
      await app.stop();
    }
  });
});
