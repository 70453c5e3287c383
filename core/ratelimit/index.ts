// Fixed-window counters for rate limits (docs/product/api.md#rate-limits). They live in PostgreSQL, or in Redis when
// several app processes should share them without a database round trip; while Redis does not
// answer, the PostgreSQL counters stand in (docs/decisions/0006-redis-down.md).
import { isIP } from "node:net";
import { and, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { rateLimits } from "../../db/schema/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";

export type Rule = { limit: number; windowSeconds: number };

/**
 * What a per-address counter is keyed by (docs/product/api.md#rate-limits): an IPv4 address as it is, an IPv6 address
 * by its /64. A subscriber is handed a whole /64, so counting single IPv6 addresses would give one
 * client 2^64 fresh counters. IPv4-mapped IPv6 (::ffff:a.b.c.d) counts as the IPv4 address;
 * anything that is no address (an in-process request's "local") is kept as it is.
 */
export function addressKey(ip: string): string {
  const address = ip.trim().replace(/%.*$/, "").toLowerCase();
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address ("::" expanded, a trailing IPv4 part split). */
function ipv6Groups(address: string): number[] {
  const parse = (part: string) =>
    part === ""
      ? []
      : part.split(":").flatMap((g) => {
          if (!g.includes(".")) return [parseInt(g, 16)];
          const [a, b, c, d] = g.split(".").map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = "", tail] = address.split("::");
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

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
      const rows = await db
        .select()
        .from(rateLimits)
        .where(sql`${rateLimits.key} = ${key}`);
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
  ping(): Promise<unknown>;
  quit(): Promise<unknown>;
  disconnect(): void;
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

/**
 * Redis counters that fall back to PostgreSQL ones while Redis fails (docs/decisions/0006): a call
 * that fails is counted in the fallback, and for `pauseMs` after a failure Redis is not asked at
 * all, so a frozen Redis costs one command timeout per pause, not one per request. The limits keep
 * holding across processes (PostgreSQL is shared too); only a window's count restarts.
 */
export function failoverCounter(primary: Counter, fallback: Counter, options: { pauseMs?: number; onFailure?: (err: unknown) => void; onRecovery?: () => void } = {}): Counter {
  const pauseMs = options.pauseMs ?? 5000;
  let pausedUntil = 0;
  let failing = false;
  const run = async <T>(call: (counter: Counter) => Promise<T>): Promise<T> => {
    if (Date.now() < pausedUntil) return call(fallback);
    try {
      const result = await call(primary);
      if (failing) {
        failing = false;
        options.onRecovery?.();
      }
      return result;
    } catch (err) {
      pausedUntil = Date.now() + pauseMs;
      if (!failing) {
        failing = true;
        options.onFailure?.(err);
      }
      return call(fallback);
    }
  };
  return {
    hit: (key, windowSeconds) => run((c) => c.hit(key, windowSeconds)),
    peek: (key) => run((c) => c.peek(key)),
    reset: (key) => run((c) => c.reset(key)),
    release: (key) => run((c) => c.release(key)),
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

export function createRateLimiter(counter: Counter, clock: Clock) {
  const retryAfter = (resetAt: number) => Math.max(1, Math.ceil((resetAt - clock.now().getTime()) / 1000));
  /** Counts an event; throws rate_limited once the rule's limit is exceeded. */
  async function consume(key: string, rule: Rule): Promise<void> {
    const { count, resetAt } = await counter.hit(key, rule.windowSeconds);
    if (count > rule.limit) {
      throw new DomainError("rate_limited", "errors.rate_limited", { retryAfterSeconds: retryAfter(resetAt) });
    }
  }
  return {
    consume,
    /**
     * Counts one event against several rules, in order, refusing it past any of them. The counts
     * taken before a refusal are given back, so an event refused by a narrow counter (one account
     * from one address) never uses up a wider one (the account from everywhere).
     */
    async consumeAll(entries: [key: string, rule: Rule][]): Promise<void> {
      const taken: string[] = [];
      try {
        for (const [key, rule] of entries) {
          taken.push(key);
          await consume(key, rule);
        }
      } catch (error) {
        // The refusing counter keeps its count (a refused event still counts there, as with consume).
        taken.pop();
        await Promise.all(taken.map((key) => counter.release(key)));
        throw error;
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
