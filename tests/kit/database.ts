// A fresh database per test file, as the template the run migrated once
// (tests/kit/database-template.ts) is. One database per worker is made from the template once and
// kept, and emptied back to the template's state for each file that wants one
// (docs/decisions/0073-one-test-database-per-worker.md): on PGlite a copy of the template's data
// directory, kept open (PGlite's start is about a second of CPU); on PostgreSQL `create database …
// template` on the local server (about half a second, and as long again to drop). A second
// database wanted while a file holds the kept one is made the same way but for itself, and dropped
// when the file is done.
import { accessSync, constants, cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { openDatabase, shareEmbedded, type Database, type DatabaseOptions } from "../../db/client.ts";

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export type TestDatabase = { url: string; kind: "pglite" | "postgres"; drop(): Promise<void> };

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated PGlite data directory that every PGlite test database is copied from. */
    pgliteTemplate: string;
    /** The migrated PostgreSQL database that every PostgreSQL test database is created from. */
    postgresTemplate: string;
  }
}

export type TestDatabaseOptions = {
  /**
   * Whether the database starts with the migrations applied (the default: the template's copy).
   * `false` gives an empty one, for tests of the start-up itself (migrations racing under the lock).
   */
  migrated?: boolean;
  /**
   * The database is for another process (a shop started as `npm start` is): on PGlite a folder
   * nothing here holds open, since one folder takes one PGlite at a time.
   */
  forAnotherProcess?: boolean;
};

export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const migrated = options.migrated ?? true;
  if (options.forAnotherProcess && process.env.TEST_DATABASE !== "postgres") {
    const dir = pgliteFolder(migrated);
    return { url: `file:${dir}`, kind: "pglite", drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  if (migrated && !keptInUse) {
    keptInUse = true;
    try {
      const held = kept;
      const emptied =
        held &&
        (await onDatabase(held, async (sql) => {
          // A file changed the schema (a trigger that makes writes fail, a table renamed): the next
          // one gets a new copy.
          if ((await schemaOf(sql)) !== held.schema) return false;
          await emptyToTemplate(held.kind, sql);
          return true;
        }));
      if (held && !emptied) {
        await discard(held);
        kept = undefined;
      }
      if (!kept) {
        const made = await makeDatabase(true);
        kept = { ...made, schema: await onDatabase(made, schemaOf) };
      }
    } catch (error) {
      keptInUse = false;
      throw error;
    }
    return lend(kept, async () => {
      keptInUse = false;
    });
  }
  const made = await makeDatabase(migrated);
  return lend(made, () => discard(made));
}

/** `made` as a file's database: shared under its URL (PGlite) until dropped, then `release`d. */
function lend(made: MadeDatabase, release: () => Promise<void>): TestDatabase {
  const unshare = made.kind === "pglite" ? shareEmbedded(made.url, made.client) : () => {};
  return {
    url: made.url,
    kind: made.kind,
    drop: async () => {
      unshare();
      await release();
    },
  };
}

async function discard(made: MadeDatabase): Promise<void> {
  if (made.kind === "pglite") {
    await made.client.close();
    rmSync(made.dir, { recursive: true, force: true });
  } else {
    // The server drops it while the next file runs: nothing waits for it. What a worker that ends
    // first leaves behind, the run's global teardown drops (tests/kit/database-template.ts).
    adminQuery(`drop database if exists ${made.name} with (force)`).catch(() => {});
  }
}

/** Statements on a made database: one query's rows, or several statements run in one go. */
type Sql = { rows<T>(statement: string): Promise<T[]>; run(statements: string[]): Promise<void> };

/** `work` on `made`: through its PGlite, or one connection of its own to PostgreSQL. */
async function onDatabase<T>(made: MadeDatabase, work: (sql: Sql) => Promise<T>): Promise<T> {
  if (made.kind === "pglite") {
    const { client } = made;
    return work({
      rows: async <R>(statement: string) => (await client.query<R>(statement)).rows,
      run: async (statements) => void (await client.exec(statements.join(";\n"))),
    });
  }
  const client = new pg.Client({ connectionString: made.url });
  await client.connect();
  try {
    return await work({
      rows: async <R>(statement: string) => (await client.query(statement)).rows as R[],
      run: async (statements) => void (await client.query(statements.join(";\n"))),
    });
  } finally {
    await client.end();
  }
}

/** A digest of the database's schema: its relations, columns, constraints, triggers and functions. */
async function schemaOf(sql: Sql): Promise<string> {
  const [row] = await sql.rows<{ digest: string }>(`
    with objects as (
      select format('r %s %s', c.oid::regclass, c.relkind) as o from pg_class c
        where c.relnamespace::regnamespace::text not in ('pg_catalog', 'information_schema', 'pg_toast')
      union all select format('a %s.%s %s %s', a.attrelid::regclass, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull)
        from pg_attribute a join pg_class c on c.oid = a.attrelid
        where c.relnamespace::regnamespace::text not in ('pg_catalog', 'information_schema', 'pg_toast') and a.attnum > 0 and not a.attisdropped
      union all select format('c %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid)) from pg_constraint
        where connamespace::regnamespace::text not in ('pg_catalog', 'information_schema')
      union all select format('t %s %s %s', tgrelid::regclass, tgname, tgenabled) from pg_trigger where not tgisinternal
      union all select format('f %s %s', p.oid::regprocedure, md5(p.prosrc)) from pg_proc p
        where p.pronamespace::regnamespace::text not in ('pg_catalog', 'information_schema')
    )
    select md5(string_agg(o, E'\\n' order by o)) as digest from objects`);
  return row!.digest;
}

/** A database made for the tests: a PGlite folder (with the instance that has it open) or a PostgreSQL database. */
type MadeDatabase = { kind: "pglite"; url: string; dir: string; client: PGlite } | { kind: "postgres"; url: string; name: string };

/** The worker's kept database, made at its first file (with its schema's digest then), and whether a file holds it now. */
let kept: (MadeDatabase & { schema: string }) | undefined;
let keptInUse = false;

async function makeDatabase(migrated: boolean): Promise<MadeDatabase> {
  if (process.env.TEST_DATABASE !== "postgres") {
    // A folder, not memory://: the database outlives a restart of the shop on it. Kept open here,
    // and shared with what opens its URL (db/client.ts): one PGlite per folder.
    const dir = pgliteFolder(migrated);
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    const client = new PGlite(dir);
    await client.waitReady;
    return { kind: "pglite", url: `file:${dir}`, dir, client };
  }
  const name = `${testDatabasePrefix(inject("postgresTemplate"))}${randomBytes(4).toString("hex")}`;
  const template = migrated ? inject("postgresTemplate") : undefined;
  await adminQuery(template ? `create database ${name} template ${template}` : `create database ${name}`);
  return { kind: "postgres", url: postgresDatabaseUrl(name), name };
}

/** A new PGlite data folder: a copy of the run's template, or empty. */
function pgliteFolder(migrated: boolean): string {
  const dir = mkdtempSync(path.join(scratchDir(), "shop-test-pglite-"));
  if (migrated) cpSync(inject("pgliteTemplate"), dir, { recursive: true });
  return dir;
}

/**
 * Makes the kept database what a fresh copy of the template is: its tables empty (the migrations
 * insert no rows; Drizzle's own journal, in schema "drizzle", stays), every sequence at its start,
 * no planner statistics, and nothing left of the last file's sessions — on PostgreSQL they are ended (as `drop database
 * … with (force)` would), on PGlite, one session, its locks, listeners, temporary tables and
 * settings go. The audit log refuses TRUNCATE by a trigger, which replica mode skips. PGlite's
 * prepared statements stay: an opening prepares its own again under the same names
 * (db/pglite-statements.ts closes a name before parsing it).
 */
async function emptyToTemplate(kind: MadeDatabase["kind"], sql: Sql): Promise<void> {
  // A transaction a file left open (PGlite has one session) ends first; without one, a warning. On
  // PostgreSQL the last file's sessions end.
  if (kind === "pglite") await sql.run(["rollback"]);
  else await sql.rows("select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()");
  const resets = await sql.rows<{ statement: string }>(`
    select 'truncate ' || coalesce(string_agg(format('%I.%I', schemaname, tablename), ', '), '') || ' restart identity cascade' as statement
      from pg_tables where schemaname not in ('pg_catalog', 'information_schema', 'drizzle')
    union all
    select format('alter sequence %I.%I restart', schemaname, sequencename)
      from pg_sequences where schemaname not in ('pg_catalog', 'information_schema', 'drizzle')`);
  // The planner's statistics of the last file's rows would choose other plans (and row orders) than
  // a fresh copy's, which has none.
  const forgetStatistics =
    "delete from pg_statistic where starelid in (select oid from pg_class where relnamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace, 'pg_toast'::regnamespace))";
  const session = kind === "pglite" ? ["reset all", "unlisten *", "select pg_advisory_unlock_all()", "discard temp"] : [];
  await sql.run(["set session_replication_role = replica", ...resets.map((r) => r.statement), forgetStatistics, ...session]);
}

/** How the names of one run's test databases start, from its template's name (one run, one template). */
export function testDatabasePrefix(template: string): string {
  return `${template.replace(/^shop_template_/, "shop_test_")}_`;
}

/** One statement on the server's administrative database (creating and dropping databases). */
export async function adminQuery(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** The URL of the database `name` on the tests' PostgreSQL server. */
export function postgresDatabaseUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A migrated test database opened directly, for core tests without the shop; `close()` drops it too. */
export async function openTestDatabase(options?: DatabaseOptions): Promise<Database> {
  const test = await createTestDatabase();
  const database = await openDatabase(test.url, options);
  return {
    ...database,
    async close() {
      try {
        await database.close();
      } finally {
        await test.drop();
      }
    },
  };
}

/** Where PGlite's copies go: memory (/dev/shm) where the machine has it, else the temporary folder. */
export function scratchDir(): string {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return os.tmpdir();
  }
}
