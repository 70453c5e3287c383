// Fixed-window counters for rate limits (docs/product/api.md#rate-limits). They live in PostgreSQL, or in Redis when
// several app processes should share them without a database round trip.
import { and, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { rateLimits } from "../../db/schema/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";

export type Rule = { limit: number; windowSeconds: number };

export type Counter = {
  /** Counts one event under `key`; returns the count in the current window and its end. */
  hit(key: string, windowSeconds: number): Promise<{ count: number; resetAt: number }>;
  /** The count in the current window without counting. */
  peek(key: string): Promise<{ count: number; resetAt: number }>;
  reset(key: string): Promise<void>;
  /** Takes one event back out of the current window (never below 0; nothing once it has ended). */
  release(key: string): Promise<void>;
};

export function postgresCounter(db: Db, clock: Clock): Counter {
  return {
    async hit(key, windowSeconds) {
      const now = clock.now();
      const resetAt = new Date(now.getTime() + windowSeconds * 1000);
      // One statement: a new or expired window starts at 1, a live one counts up. Atomic under
      // concurrency because of the row lock the upsert takes.
      const rows = await db
        .insert(rateLimits)
        .values({ key, count: 1, resetAt })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`case when ${rateLimits.resetAt} <= ${now.toISOString()}::timestamptz then 1 else ${rateLimits.count} + 1 end`,
            resetAt: sql`case when ${rateLimits.resetAt} <= ${now.toISOString()}::timestamptz then ${resetAt.toISOString()}::timestamptz else ${rateLimits.resetAt} end`,
          },
        })
        .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt });
      const row = rows[0]!;
      return { count: row.count, resetAt: row.resetAt.getTime() };
    },
    async peek(key) {
      const rows = await db.select().from(rateLimits).where(sql`${rateLimits.key} = ${key}`);
      const row = rows[0];
      if (!row || row.resetAt.getTime() <= clock.now().getTime()) return { count: 0, resetAt: 0 };
      return { count: row.count, resetAt: row.resetAt.getTime() };
    },
    async reset(key) {
      await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`);
    },
    async release(key) {
      await db
        .update(rateLimits)
        .set({ count: sql`${rateLimits.count} - 1` })
        .where(and(sql`${rateLimits.key} = ${key}`, gt(rateLimits.count, 0), gt(rateLimits.resetAt, clock.now())));
    },
  };
}

/** The subset of ioredis used here. */
export type RedisLike = {
  eval(script: string, keys: number, ...args: (string | number)[]): Promise<unknown>;
  del(key: string): Promise<unknown>;
  pttl(key: string): Promise<number>;
  get(key: string): Promise<string | null>;
  quit(): Promise<unknown>;
};

const INCR_WITH_WINDOW = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

const DECR_IF_POSITIVE = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

/** Redis counters. Windows follow Redis's own clock (the injected clock does not apply). */
export function redisCounter(redis: RedisLike, prefix = "shop:rl:"): Counter {
  return {
    async hit(key, windowSeconds) {
      const [count, ttl] = (await redis.eval(INCR_WITH_WINDOW, 1, prefix + key, windowSeconds * 1000)) as [number, number];
      return { count, resetAt: Date.now() + ttl };
    },
    async peek(key) {
      const [value, ttl] = await Promise.all([redis.get(prefix + key), redis.pttl(prefix + key)]);
      return value === null || ttl < 0 ? { count: 0, resetAt: 0 } : { count: Number(value), resetAt: Date.now() + ttl };
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
    async release(key) {
      await redis.eval(DECR_IF_POSITIVE, 1, prefix + key);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

export function createRateLimiter(counter: Counter, clock: Clock) {
  const retryAfter = (resetAt: number) => Math.max(1, Math.ceil((resetAt - clock.now().getTime()) / 1000));
  return {
    /** Counts an event; throws rate_limited once the rule's limit is exceeded. */
    async consume(key: string, rule: Rule): Promise<void> {
      const { count, resetAt } = await counter.hit(key, rule.windowSeconds);
      if (count > rule.limit) {
        throw new DomainError("rate_limited", "errors.rate_limited", { retryAfterSeconds: retryAfter(resetAt) });
      }
    },
    /** Throws rate_limited when the limit is already reached, without counting. */
    async check(key: string, rule: Rule): Promise<void> {
      const { count, resetAt } = await counter.peek(key);
      if (count >= rule.limit) {
        throw new DomainError("rate_limited", "errors.rate_limited", { retryAfterSeconds: retryAfter(resetAt) });
      }
    },
    /** Counts an event without refusing it (e.g. a failure that only blocks the next attempt). */
    async count(key: string, rule: Rule): Promise<void> {
      await counter.hit(key, rule.windowSeconds);
    },
    /** Counts an event and tells the count so far in the window, refusing nothing. */
    countAndRead: (key: string, rule: Rule) => counter.hit(key, rule.windowSeconds),
    reset: (key: string) => counter.reset(key),
    /** Gives back an event counted by consume, e.g. an attempt that turned out not to be a failure. */
    release: (key: string) => counter.release(key),
  };
}
