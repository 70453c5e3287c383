// Opens the database named by DATABASE_URL: embedded PGlite (a directory or memory://) or a
// PostgreSQL server (postgres://). Both speak the same dialect, schema and migration history.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import * as schema from "./schema/index.ts";
import type { PGlite } from "@electric-sql/pglite";
import { useNamedStatements } from "./pglite-statements.ts";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle: the same query API as Db. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /** The pool's connections now (PostgreSQL; PGlite has one, always "in use" by this process). */
  pool(): { size: number; max: number; idle: number; waiting: number };
  /** Cheap round trip, for health checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
};

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

export type DatabaseOptions = {
  /**
   * Longest one query may take (DB_STATEMENT_TIMEOUT_MS, docs/product/operations.md#database). PostgreSQL cancels it then
   * (statement_timeout); a server that is frozen cancels nothing, so the client gives up too, a
   * little later, and drops that connection: its state is unknown (it may be inside a COMMIT).
   */
  statementTimeoutMs?: number;
  /** Connections of the pool at most (DB_POOL_SIZE, PostgreSQL only). */
  poolSize?: number;
  /**
   * Start-up work after the migrations (the demo catalogue, …). On PostgreSQL the migrations and
   * this run under one advisory lock, so several processes and hosts starting at once take turns
   * (docs/product/operations.md#several-processes-and-hosts).
   */
  startup?: (db: Db) => Promise<void>;
};

/** An arbitrary constant naming the advisory lock of the start-up (migrations and seeding). */
export const STARTUP_LOCK = 7_461_180_013;

/** The client's own deadline past the server's statement_timeout: the server's cancel comes first. */
const CLIENT_GRACE_MS = 500;

export async function openDatabase(url: string, options: DatabaseOptions = {}): Promise<Database> {
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, options);
  return openPglite(url, options);
}

/** Whether an error is pg's client-side query timeout. */
function isClientTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === "Query read timeout";
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  // BIGINT (int8) as a JS number: money in minor units stays far below 2^53.
  pg.types.setTypeParser(20, (v) => Number(v));
  const timeout = options.statementTimeoutMs;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: timeout ? Math.min(5000, timeout + CLIENT_GRACE_MS) : 5000,
    ...(timeout ? { statement_timeout: timeout, query_timeout: timeout + CLIENT_GRACE_MS } : {}),
  });
  // An idle client's error (server restart) must not crash the process; the next query reports it.
  pool.on("error", () => {});
  if (timeout) {
    // A client whose query timed out on our side still waits for the server's answer, and every
    // query given to it would queue behind that: it is closed, so the pool replaces it.
    pool.on("connect", (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      const drop = (error: unknown) => {
        if (isClientTimeout(error)) client.end().catch(() => {});
      };
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const callback = args.at(-1);
        if (typeof callback === "function") {
          args[args.length - 1] = (error: unknown, result: unknown) => {
            drop(error);
            (callback as (e: unknown, r: unknown) => void)(error, result);
          };
          return query(...args);
        }
        const result = query(...args);
        if (result instanceof Promise) {
          return result.catch((error: unknown) => {
            drop(error);
            throw error;
          });
        }
        return result;
      };
    });
  }
  const db = drizzle(pool, { schema }) as unknown as Db;
  // The start-up lock is held by a connection of its own, without the statement timeout: waiting for
  // another process's migrations may take longer than one query may.
  const lockClient = new pg.Client({ connectionString: url });
  await lockClient.connect();
  try {
    await lockClient.query("select pg_advisory_lock($1)", [STARTUP_LOCK]);
    await migrate(db as never, { migrationsFolder });
    await options.startup?.(db);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  } finally {
    await lockClient.end().catch(() => {});
  }
  return {
    db,
    kind: "postgres",
    pool: () => ({ size: pool.totalCount, max: pool.options.max, idle: pool.idleCount, waiting: pool.waitingCount }),
    ping: async () => {
      await pool.query("select 1");
    },
    close: () => pool.end(),
  };
}

/**
 * Embedded databases this process already holds open, by URL (`shareEmbedded`). PGlite is one
 * instance per data directory: a second one on the same folder would corrupt it.
 */
const sharedEmbedded = new Map<string, PGlite>();

/**
 * Lets `openDatabase(url)` use `client`, open already, instead of starting a PGlite of its own on
 * the URL's folder, until the returned function is called. What is opened on it this way closes
 * only its own use: its `close()` leaves `client` running, and every later call through it fails,
 * as on a closed database. The test suite hands one kept-open database to its files this way,
 * emptied between them: PGlite's own start is about a second of CPU
 * (docs/decisions/0073-one-test-database-per-worker.md).
 */
export function shareEmbedded(url: string, client: PGlite): () => void {
  sharedEmbedded.set(url, client);
  return () => {
    if (sharedEmbedded.get(url) === client) sharedEmbedded.delete(url);
  };
}

/** `client` as seen by one opening of it: every method fails once `closed()` says so. */
function closable(client: PGlite, closed: () => boolean): PGlite {
  return new Proxy(client, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== "function" || key === "constructor") return value;
      return (...args: unknown[]) => {
        if (closed()) throw new Error("PGlite is closed");
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

async function openPglite(url: string, options: DatabaseOptions): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  let closed = false;
  const shared = sharedEmbedded.get(url);
  let client: PGlite;
  if (shared) {
    client = closable(shared, () => closed);
  } else {
    let dataDir: string | undefined;
    if (!url.startsWith("memory://")) {
      dataDir = path.resolve(url.replace(/^file:/, ""));
      mkdirSync(dataDir, { recursive: true });
    }
    client = new PGlite(dataDir);
    await client.waitReady;
  }
  const db = drizzle(client, { schema }) as unknown as Db;
  // The hot paths' prepared statements parsed and planned once, as node-postgres does on PostgreSQL
  // (docs/decisions/0062-pglite-named-statements.md).
  useNamedStatements(client, db);
  // Those statements planned once, for every execution. Under PostgreSQL's default ("auto") some
  // runs planned frontend/data's statement anew on every execution, its custom plan looking cheaper
  // than the generic one: 0.70 ms of CPU against 0.25 in a micro-benchmark
  // (docs/decisions/0075-pglite-generic-plans.md). The named statements are key lookups, whose plan
  // no parameter value changes; unnamed ones are planned once per run whatever this says.
  await client.exec("set plan_cache_mode = force_generic_plan");
  await migrate(db as never, { migrationsFolder });
  await options.startup?.(db);
  const stopAnalyzing = analyzeLikeAutovacuum(client, () => closed);
  return {
    db,
    kind: "pglite",
    pool: () => ({ size: 1, max: 1, idle: 0, waiting: 0 }),
    ping: async () => {
      if (closed) throw new Error("database closed");
      await db.execute(sql`select 1`);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await stopAnalyzing();
      if (!shared) await client.close();
    },
  };
}

/** How often the embedded database's tables are checked for statistics gone stale. */
const ANALYZE_CHECK_MS = 10_000;

/**
 * PGlite has no autovacuum, so nothing runs ANALYZE: the planner keeps believing a table is as
 * empty as at its creation, and reads all of a user's 1,000 transactions to sort them where the
 * (user_id, id) index hands over the latest 10 (frontend/data's statement: 2.0 ms of execution
 * before, 0.2 after). This does autoanalyze's part: everything once now, then every
 * ANALYZE_CHECK_MS the tables changed past PostgreSQL's own default threshold (50 rows + 10 %).
 * Returns a stop function that waits for a run under way.
 */
function analyzeLikeAutovacuum(client: { exec(query: string): Promise<unknown>; query<T>(query: string): Promise<{ rows: T[] }> }, closed: () => boolean): () => Promise<void> {
  let running: Promise<void> = client.exec("analyze").then(
    () => {},
    () => {},
  );
  const timer = setInterval(() => {
    running = running
      .then(async () => {
        if (closed()) return;
        const { rows } = await client.query<{ name: string }>(
          "select quote_ident(schemaname) || '.' || quote_ident(relname) as name from pg_stat_user_tables where n_mod_since_analyze > 50 + 0.1 * n_live_tup",
        );
        if (rows.length && !closed()) await client.exec(`analyze ${rows.map((r) => r.name).join(", ")}`);
      })
      .catch(() => {});
  }, ANALYZE_CHECK_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
