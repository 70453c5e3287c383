// Fixed-window counters (docs/product/api.md#rate-limits): the PostgreSQL counter on PGlite (and on a real server, for
// true concurrency) under a manual clock, the Redis counter on the local Redis, and the limiter.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { openDatabase, type Database } from "../../db/client.ts";
import { manualClock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import { adminQuery, openTestDatabase, postgresDatabaseUrl } from "../../tests/kit/database.ts";
import { addressKey, createRateLimiter, postgresCounter, redisCounter, type Counter } from "./index.ts";

const START = new Date("2026-03-01T12:00:00Z");

/** 50 hits at once must count 1..50, each exactly once. */
async function expectAtomic(counter: Counter, key: string, n = 50) {
  const results = await Promise.all(Array.from({ length: n }, () => counter.hit(key, 60)));
  expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  expect(new Set(results.map((r) => r.resetAt)).size).toBe(1);
  expect((await counter.peek(key)).count).toBe(n);
}

describe("postgresCounter on PGlite", () => {
  let database: Database;
  const clock = manualClock(START);
  let counter: Counter;

  beforeAll(async () => {
    database = await openTestDatabase();
    counter = postgresCounter(database.db, clock);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("counts up within a window that ends windowSeconds after the first hit", async () => {
    const end = START.getTime() + 60_000;
    expect(await counter.peek("a")).toEqual({ count: 0, resetAt: 0 });
    expect(await counter.hit("a", 60)).toEqual({ count: 1, resetAt: end });
    clock.advance(10_000);
    expect(await counter.hit("a", 60)).toEqual({ count: 2, resetAt: end });
    expect(await counter.hit("a", 60)).toEqual({ count: 3, resetAt: end });
    expect(await counter.peek("a")).toEqual({ count: 3, resetAt: end });
    // Other keys are counted apart.
    expect((await counter.hit("b", 60)).count).toBe(1);
    expect((await counter.peek("a")).count).toBe(3);
  });

  it("starts a new window at 1 once the old one has ended, and peek reads 0 in between", async () => {
    clock.set(START);
    await counter.reset("w");
    const first = await counter.hit("w", 30);
    expect(first).toEqual({ count: 1, resetAt: START.getTime() + 30_000 });
    clock.advance(30_000 - 1);
    expect(await counter.hit("w", 30)).toEqual({ count: 2, resetAt: first.resetAt });
    clock.advance(1);
    // The window's end is exclusive: at resetAt the count is gone.
    expect(await counter.peek("w")).toEqual({ count: 0, resetAt: 0 });
    const next = await counter.hit("w", 30);
    expect(next).toEqual({ count: 1, resetAt: clock.now().getTime() + 30_000 });
    clock.advance(5_000);
    expect(await counter.hit("w", 30)).toEqual({ count: 2, resetAt: next.resetAt });
  });

  it("forgets a key on reset", async () => {
    await counter.hit("r", 60);
    await counter.hit("r", 60);
    await counter.reset("r");
    expect((await counter.peek("r")).count).toBe(0);
    expect((await counter.hit("r", 60)).count).toBe(1);
  });

  it("counts 50 parallel hits as 1..50, each exactly once", async () => {
    await expectAtomic(counter, `parallel-${randomBytes(4).toString("hex")}`);
  });

  it("gives an event back on release, never below 0, and not once the window has ended", async () => {
    clock.set(START);
    await counter.release("g");
    expect(await counter.peek("g")).toEqual({ count: 0, resetAt: 0 });
    await counter.hit("g", 60);
    await counter.hit("g", 60);
    await counter.release("g");
    expect((await counter.peek("g")).count).toBe(1);
    await counter.release("g");
    await counter.release("g");
    expect((await counter.peek("g")).count).toBe(0);
    expect((await counter.hit("g", 60)).count).toBe(1);
    clock.advance(60_000);
    await counter.release("g");
    // The ended window's row is untouched; the next hit starts a new window at 1.
    expect((await counter.hit("g", 60)).count).toBe(1);
    await Promise.all(Array.from({ length: 10 }, () => counter.hit("g", 60)));
    await Promise.all(Array.from({ length: 5 }, () => counter.release("g")));
    expect((await counter.peek("g")).count).toBe(6);
  });

  it("keeps odd keys apart and intact", async () => {
    const keys = ["login:name:o'brien@example.com", "login:name:%", "login:name:_", "x".repeat(300), "ключ"];
    for (const key of keys) expect((await counter.hit(key, 60)).count).toBe(1);
    for (const key of keys) expect((await counter.peek(key)).count).toBe(1);
  });
});

describe("postgresCounter on a PostgreSQL server", () => {
  const name = `shop_rl_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  let database: Database;
  const clock = manualClock(START);

  beforeAll(async () => {
    await adminQuery(`create database ${name}`);
    database = await openDatabase(postgresDatabaseUrl(name));
  });
  afterAll(async () => {
    await database?.close();
    await adminQuery(`drop database if exists ${name} with (force)`);
  });

  it("counts 50 hits over a pool of connections as 1..50, each exactly once", async () => {
    const counter = postgresCounter(database.db, clock);
    await expectAtomic(counter, "parallel");
    // And again after the window has ended: exactly one of them restarts it.
    clock.advance(60_000);
    await expectAtomic(counter, "parallel");
  });
});

describe("redisCounter", () => {
  const prefix = `test:rl:${randomBytes(6).toString("hex")}:`;
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379", { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it("counts within a window, under its prefix, and forgets on reset", async () => {
    const counter = redisCounter(redis, prefix);
    const before = Date.now();
    const first = await counter.hit("k", 60);
    expect(first.count).toBe(1);
    expect(first.resetAt).toBeGreaterThanOrEqual(before + 59_000);
    expect(first.resetAt).toBeLessThanOrEqual(Date.now() + 60_000);
    expect((await counter.hit("k", 60)).count).toBe(2);
    expect(await redis.get(`${prefix}k`)).toBe("2");
    expect((await counter.peek("k")).count).toBe(2);
    expect(await counter.peek("none")).toEqual({ count: 0, resetAt: 0 });
    await counter.reset("k");
    expect(await redis.exists(`${prefix}k`)).toBe(0);
    expect((await counter.hit("k", 60)).count).toBe(1);
  });

  it("counts 50 parallel hits as 1..50, each exactly once", async () => {
    const counter = redisCounter(redis, prefix);
    const results = await Promise.all(Array.from({ length: 50 }, () => counter.hit("parallel", 60)));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it("gives an event back on release, never below 0, keeping the window", async () => {
    const counter = redisCounter(redis, prefix);
    await counter.release("rel");
    expect(await redis.exists(`${prefix}rel`)).toBe(0);
    await counter.hit("rel", 60);
    await counter.hit("rel", 60);
    await counter.release("rel");
    expect(await redis.get(`${prefix}rel`)).toBe("1");
    await counter.release("rel");
    await counter.release("rel");
    expect(await redis.get(`${prefix}rel`)).toBe("0");
    expect(await redis.pttl(`${prefix}rel`)).toBeGreaterThan(0);
    expect((await counter.hit("rel", 60)).count).toBe(1);
  });

  it("ends a window after windowSeconds", async () => {
    const counter = redisCounter(redis, prefix);
    expect((await counter.hit("short", 1)).count).toBe(1);
    expect((await counter.hit("short", 1)).count).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await counter.peek("short")).count).toBe(0);
    expect((await counter.hit("short", 1)).count).toBe(1);
  });

  it("gives a key that lost its expiry a window again", async () => {
    const counter = redisCounter(redis, prefix);
    await redis.set(`${prefix}stuck`, "7");
    const hit = await counter.hit("stuck", 60);
    expect(hit.count).toBe(8);
    const ttl = await redis.pttl(`${prefix}stuck`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});

describe("createRateLimiter", () => {
  let database: Database;
  const clock = manualClock(START);
  let limiter: ReturnType<typeof createRateLimiter>;
  const rule = { limit: 3, windowSeconds: 600 };

  beforeAll(async () => {
    database = await openTestDatabase();
    limiter = createRateLimiter(postgresCounter(database.db, clock), clock);
  });
  afterAll(async () => {
    await database?.close();
  });

  async function rateLimited(promise: Promise<unknown>): Promise<DomainError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe("rate_limited");
    expect((error as DomainError).status).toBe(429);
    return error as DomainError;
  }

  it("consume lets `limit` events through and refuses the next with the seconds left", async () => {
    for (let i = 0; i < 3; i++) await limiter.consume("c", rule);
    const refused = await rateLimited(limiter.consume("c", rule));
    expect(refused.details.retryAfterSeconds).toBe(600);
    clock.advance(599_500);
    // Never below one second, rounded up.
    expect((await rateLimited(limiter.consume("c", rule))).details.retryAfterSeconds).toBe(1);
    clock.advance(500);
    await limiter.consume("c", rule);
  });

  it("check refuses once the limit is reached, without counting; count counts without refusing", async () => {
    clock.set(START);
    await limiter.check("k", rule);
    for (let i = 0; i < 2; i++) await limiter.count("k", rule);
    await limiter.check("k", rule);
    await limiter.check("k", rule);
    await limiter.count("k", rule);
    const refused = await rateLimited(limiter.check("k", rule));
    expect(refused.details.retryAfterSeconds).toBe(600);
    // count goes on past the limit, and countAndRead tells where it stands.
    await limiter.count("k", rule);
    expect((await limiter.countAndRead("k", rule)).count).toBe(5);
    await limiter.reset("k");
    await limiter.check("k", rule);
  });

  it("release gives back an event counted by consume", async () => {
    clock.set(START);
    for (let i = 0; i < 3; i++) await limiter.consume("rel", rule);
    await limiter.release("rel");
    await limiter.consume("rel", rule);
    await rateLimited(limiter.consume("rel", rule));
  });
});

describe("createRateLimiter.consumeAll", () => {
  let database: Database;
  const clock = manualClock(START);
  let limiter: ReturnType<typeof createRateLimiter>;
  let counter: Counter;
  const narrow = { limit: 2, windowSeconds: 600 };
  const wide = { limit: 5, windowSeconds: 600 };

  beforeAll(async () => {
    database = await openTestDatabase();
    counter = postgresCounter(database.db, clock);
    limiter = createRateLimiter(counter, clock);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("counts one event on every key, and a refusal by a later key gives the earlier ones back", async () => {
    await limiter.consumeAll([
      ["n1", narrow],
      ["w", wide],
    ]);
    await limiter.consumeAll([
      ["n1", narrow],
      ["w", wide],
    ]);
    expect((await counter.peek("n1")).count).toBe(2);
    expect((await counter.peek("w")).count).toBe(2);
    // n1 is full: refused there, and w is not touched (it was given back).
    await expect(
      limiter.consumeAll([
        ["n1", narrow],
        ["w", wide],
      ]),
    ).rejects.toMatchObject({ code: "rate_limited" });
    expect((await counter.peek("w")).count).toBe(2);
    // Other narrow keys fill w up; the refusal by w gives their narrow counts back.
    await limiter.consumeAll([
      ["n2", narrow],
      ["w", wide],
    ]);
    await limiter.consumeAll([
      ["n2", narrow],
      ["w", wide],
    ]);
    await limiter.consumeAll([
      ["n3", narrow],
      ["w", wide],
    ]);
    await expect(
      limiter.consumeAll([
        ["n3", narrow],
        ["w", wide],
      ]),
    ).rejects.toMatchObject({ code: "rate_limited" });
    expect((await counter.peek("n3")).count).toBe(1);
  });
});

describe("addressKey", () => {
  it("keeps IPv4 addresses and non-addresses as they are", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("local")).toBe("local");
    expect(addressKey("unknown")).toBe("unknown");
  });

  it("counts an IPv6 address by its /64, however it is written", () => {
    const key = "2001:db8:a:b::/64";
    for (const ip of ["2001:db8:a:b::1", "2001:0DB8:000A:000B:ffff:ffff:ffff:ffff", "2001:db8:a:b:1:2:3:4", "2001:db8:a:b::5%eth0", "2001:db8:a:b:0:0:1.2.3.4"]) {
      expect(addressKey(ip), ip).toBe(key);
    }
    expect(addressKey("2001:db8:a:c::1")).toBe("2001:db8:a:c::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("fe80::1")).toBe("fe80:0:0:0::/64");
  });

  it("counts an IPv4-mapped IPv6 address as the IPv4 address", () => {
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::FFFF:cb00:7107")).toBe("203.0.113.7");
  });
});
