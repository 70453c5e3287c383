// A fresh database per test file, made from a template the run migrated once
// (tests/kit/database-template.ts): on PGlite a copy of the template's data directory (PGlite's
// initdb alone costs seconds of WebAssembly per file), on PostgreSQL `create database … template`
// on the local server. Dropped when the file is done.
import { accessSync, constants, cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { openDatabase, type Database, type DatabaseOptions } from "../../db/client.ts";

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
};

export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const migrated = options.migrated ?? true;
  if (process.env.TEST_DATABASE !== "postgres") {
    // A folder, not memory://: the database outlives a restart of the shop on it.
    const dir = mkdtempSync(path.join(scratchDir(), "shop-test-pglite-"));
    const template = migrated ? inject("pgliteTemplate") : undefined;
    if (template) cpSync(template, dir, { recursive: true });
    return { url: `file:${dir}`, kind: "pglite", drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `shop_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const template = migrated ? inject("postgresTemplate") : undefined;
  await adminQuery(template ? `create database ${name} template ${template}` : `create database ${name}`);
  return {
    url: postgresDatabaseUrl(name),
    kind: "postgres",
    drop: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
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
