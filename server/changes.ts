// The change bus (docs/product/operations.md#change-bus, docs/decisions/0050-change-bus.md): a
// change of the catalogue, the site pages or the route rules made on one app process reaches every
// process within 2 s, which reloads what it holds in memory and drops its page cache.
//
// - On PostgreSQL: `pg_notify` on the channel `nova_changes`, heard by one LISTEN connection per
//   process (reconnected after a loss; every kind is reloaded then, since notices sent meanwhile
//   are gone).
// - On the embedded database with REDIS_URL: Redis pub/sub (one subscriber connection).
// - On the embedded database alone: the process is the only one; the change applies in it.
//
// `publish` applies the change in this process first (awaited, so that the answer of the call that
// made it already reads the new state) and then tells the others; a process ignores its own notices.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Client as PgClient } from "pg";
import type { Redis } from "ioredis";
import type { ChangeKind } from "../core/catalog/manage.ts";
import type { Db } from "../db/client.ts";

export type { ChangeKind };

export const CHANGE_CHANNEL = "nova_changes";
const KINDS: readonly ChangeKind[] = ["catalog", "content", "route_rules"];

type Logger = { warn(obj: object, msg?: string): void; info(obj: object | string, msg?: string): void };

/** What a change drops or reloads in this process. */
export type ChangeTargets = {
  catalog: { reload(): Promise<void> };
  content: { reload(): Promise<void> };
  routeRules: { changed(): void };
};

export type ChangeBus = {
  /** How the changes travel between processes. */
  readonly transport: "postgres" | "redis" | "local";
  /** Applies the change here, then tells the other processes. */
  publish(kind: ChangeKind): Promise<void>;
  /** Starts hearing the other processes (at boot). */
  start(): Promise<void>;
  close(): Promise<void>;
};

type Transport = { send(message: string): Promise<void>; listen(onMessage: (message: string) => void, onReconnect: () => void): Promise<void>; close(): Promise<void> };

export function createChangeBus(deps: { db: Db; databaseUrl: string; databaseKind: "pglite" | "postgres"; redis?: Redis; targets: ChangeTargets; logger: Logger }): ChangeBus {
  const { targets, logger } = deps;
  const origin = randomUUID();

  async function apply(kind: ChangeKind): Promise<void> {
    if (kind === "catalog") await targets.catalog.reload();
    else if (kind === "content") await targets.content.reload();
    else targets.routeRules.changed();
  }

  const transport: Transport | undefined = deps.databaseKind === "postgres" ? postgresTransport(deps.db, deps.databaseUrl, logger) : deps.redis ? redisTransport(deps.redis, logger) : undefined;

  function heard(message: string) {
    let parsed: { origin?: unknown; kind?: unknown };
    try {
      parsed = JSON.parse(message) as typeof parsed;
    } catch {
      return;
    }
    if (parsed.origin === origin || !KINDS.includes(parsed.kind as ChangeKind)) return;
    apply(parsed.kind as ChangeKind).catch((err: unknown) => logger.warn({ err, kind: parsed.kind }, "applying a change from another process failed"));
  }

  function reloadAll() {
    for (const kind of KINDS) apply(kind).catch((err: unknown) => logger.warn({ err, kind }, "reloading after the change bus reconnected failed"));
  }

  return {
    transport: deps.databaseKind === "postgres" ? "postgres" : deps.redis ? "redis" : "local",
    async publish(kind) {
      await apply(kind);
      // The change is committed and applied here; a lost notice must not fail the operator's call
      // (the other processes reload everything when their listener reconnects).
      await transport?.send(JSON.stringify({ origin, kind })).catch((err: unknown) => logger.warn({ err, kind }, "telling the other processes of a change failed"));
    },
    async start() {
      await transport?.listen(heard, reloadAll);
    },
    async close() {
      await transport?.close();
    },
  };
}

/** LISTEN on a connection of its own (outside the pool), NOTIFY through the pool. */
function postgresTransport(db: Db, url: string, logger: Logger): Transport {
  let client: PgClient | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  async function connect(onMessage: (message: string) => void, onReconnect: () => void, again: boolean): Promise<void> {
    const { default: pg } = await import("pg");
    const next = new pg.Client({ connectionString: url });
    const lost = () => {
      if (closed || client !== next) return;
      client = undefined;
      next.end().catch(() => {});
      logger.warn({}, "the change bus lost its PostgreSQL connection; reconnecting");
      retry = setTimeout(() => void connect(onMessage, onReconnect, true).catch(() => lost()), 1000);
    };
    next.on("error", lost);
    next.on("end", lost);
    next.on("notification", (n) => {
      if (n.channel === CHANGE_CHANNEL && n.payload) onMessage(n.payload);
    });
    client = next;
    try {
      await next.connect();
      await next.query(`listen ${CHANGE_CHANNEL}`);
    } catch (error) {
      if (!again) throw error;
      lost();
      return;
    }
    if (again) onReconnect();
  }

  return {
    async send(message) {
      await db.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${message})`);
    },
    listen: (onMessage, onReconnect) => connect(onMessage, onReconnect, false),
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}

/** Redis pub/sub: publishing on the shop's connection, hearing on a duplicate of it. */
function redisTransport(redis: Redis, logger: Logger): Transport {
  let subscriber: Redis | undefined;
  return {
    async send(message) {
      await redis.publish(CHANGE_CHANNEL, message);
    },
    async listen(onMessage, onReconnect) {
      // A subscriber connection may queue its commands while it connects (the shop's own may not),
      // and waits for Redis as long as it takes (no command timeout, no retry limit). It subscribes
      // itself after every reconnect, where ioredis's own renewal is a command nobody awaits, whose
      // failure would be an unhandled rejection, and an unhandled rejection ends the process.
      const sub = redis.duplicate({ enableOfflineQueue: true, commandTimeout: undefined, maxRetriesPerRequest: null, autoResubscribe: false });
      subscriber = sub;
      /** Subscribes; a failure is logged (unless the bus was closed meanwhile) and answers false. */
      const subscribe = (failure: string) =>
        sub.subscribe(CHANGE_CHANNEL).then(
          () => true,
          (err: unknown) => {
            if (subscriber === sub) logger.warn({ err }, failure);
            return false;
          },
        );
      let connected = false;
      sub.on("message", (channel: string, message: string) => {
        if (channel === CHANGE_CHANNEL) onMessage(message);
      });
      sub.on("ready", () => {
        if (!connected) {
          connected = true;
          return;
        }
        // Subscribed first, then everything reloaded: a change made in between is heard, not lost.
        void subscribe("the change bus could not subscribe in Redis again").then((subscribed) => subscribed && onReconnect());
      });
      sub.on("error", (err: Error) => logger.warn({ err }, "the change bus's Redis connection failed"));
      // Not awaited: a Redis that is down at the start must not hold the start (docs/decisions/0006-redis-down.md);
      // the subscription is made when it answers.
      void subscribe("the change bus could not subscribe in Redis");
    },
    async close() {
      // Disconnected, not QUIT: a QUIT would wait in the offline queue, as long as Redis is away.
      subscriber?.disconnect();
      subscriber = undefined;
    },
  };
}
