// The sign-in limits with REDIS_URL set (docs/product/api.md#rate-limits): the counters live in Redis under
// shop:rl:*, not in the rate_limits table. The Redis server is shared and its key prefix is fixed,
// so nothing is flushed: every test uses its own e-mails, addresses and user ids.
import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { eq, sql } from "drizzle-orm";
import { rateLimits } from "../../db/schema/index.ts";
import { login, message, registerUser, uniqueEmail, uniqueIp, useShop } from "../kit/shop.ts";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
// Small limits keep the tests short: 3 failures per account and address, 5 per address.
const shop = useShop({ env: { REDIS_URL, RATE_LOGIN_ACCOUNT: "3/15m", RATE_LOGIN_IP: "5/15m" } });
let redis: Redis;

/**
 * Redis windows follow Redis's own clock, while Retry-After is computed against the shop's clock:
 * keep the (manual) shop clock on the wall clock, as in production.
 */
const syncClock = () => shop.clock.set(new Date());

beforeAll(async () => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  syncClock();
  // Account keys hold the user id, which restarts at 1 in every fresh database: start this run's
  // ids somewhere of their own, so that another run (or the other Vitest project) never shares one.
  await shop.services.db.execute(sql`select setval('users_id_seq', ${randomInt(1_000_000, 2_000_000_000)})`);
});

afterAll(async () => {
  await redis?.quit();
});

async function pgCounter(key: string) {
  return (await shop.services.db.select().from(rateLimits).where(eq(rateLimits.key, key)))[0];
}

describe("login limits in Redis", () => {
  it("counts failed sign-ins per account and address, and per account, in Redis and answers the 4th with 429", async () => {
    const user = await registerUser(shop);
    expect(user.id).toBeGreaterThan(1_000_000);
    const ip = uniqueIp();
    const key = `shop:rl:login:user:${user.id}:ip:${ip}`;
    for (let i = 1; i <= 3; i++) expect((await login(shop, user.email, `Wrong-Password-${i}`, { ip })).status, `attempt ${i}`).toBe(401);
    expect(await redis.get(key)).toBe("3");
    expect(await redis.get(`shop:rl:login:user:${user.id}`)).toBe("3");
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(15 * 60 * 1000);

    syncClock();
    const eleventh = await login(shop, user.email, user.password, { ip });
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual({ status: false, code: "rate_limited", message: message(shop, "en", "errors.rate_limited") });
    const retryAfter = Number(eleventh.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    // Nothing of it in PostgreSQL.
    expect(await pgCounter(`login:user:${user.id}:ip:${ip}`)).toBeUndefined();
    expect(await pgCounter(`login:user:${user.id}`)).toBeUndefined();
  });

  it("removes the (account, address) counter from Redis on a successful sign-in", async () => {
    const user = await registerUser(shop);
    const ip = uniqueIp();
    const key = `shop:rl:login:user:${user.id}:ip:${ip}`;
    for (let i = 0; i < 2; i++) expect((await login(shop, user.email, "Wrong-Password-x", { ip })).status).toBe(401);
    expect(await redis.get(key)).toBe("2");
    expect((await login(shop, user.email, user.password, { ip })).status).toBe(200);
    expect(await redis.get(key)).toBeNull();
    // The account-wide counter keeps the failures (a success gives back only its own attempt).
    expect(await redis.get(`shop:rl:login:user:${user.id}`)).toBe("2");
    for (let i = 0; i < 3; i++) expect((await login(shop, user.email, "Wrong-Password-y", { ip })).status).toBe(401);
    expect((await login(shop, user.email, user.password, { ip })).status).toBe(429);
  });

  it("shares the per-address counter between accounts (past RATE_LOGIN_IP → 429)", async () => {
    const [a, b] = [await registerUser(shop), await registerUser(shop)];
    const ip = uniqueIp();
    const key = `shop:rl:login:ip:${ip}`;
    // Two failures per account, under the per-account-and-address limit.
    expect((await login(shop, a.email, "Wrong-Password-1", { ip })).status).toBe(401);
    expect((await login(shop, b.email, "Wrong-Password-2", { ip })).status).toBe(401);
    expect((await login(shop, uniqueEmail("ghost"), "Wrong-Password-3", { ip })).status).toBe(401);
    expect((await login(shop, a.email, "Wrong-Password-4", { ip })).status).toBe(401);
    expect((await login(shop, b.email, "Wrong-Password-5", { ip })).status).toBe(401);
    expect(await redis.get(key)).toBe("5");
    syncClock();
    const blocked = await login(shop, a.email, a.password, { ip });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(800);
    // The accounts are fine from elsewhere.
    expect((await login(shop, b.email, b.password)).status).toBe(200);
    expect(await pgCounter(`login:ip:${ip}`)).toBeUndefined();
  });

  it("keys unknown logins by name, in Redis too", async () => {
    const ghost = uniqueEmail("ghost");
    expect((await login(shop, ghost, "Wrong-Password-1")).status).toBe(401);
    expect(await redis.get(`shop:rl:login:name:${ghost}`)).toBe("1");
    const keys = await redis.keys(`shop:rl:login:name:${ghost}*`);
    expect(keys.length).toBe(2);
    expect(keys.every((k) => k === `shop:rl:login:name:${ghost}` || k.startsWith(`shop:rl:login:name:${ghost}:ip:`))).toBe(true);
  });
});
