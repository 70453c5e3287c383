// A fresh database per test file: in-memory PGlite, or (TEST_DATABASE=postgres) a new database on
// the local PostgreSQL server, dropped when the file is done.
import { randomBytes } from "node:crypto";
import pg from "pg";

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export type TestDatabase = { url: string; kind: "pglite" | "postgres"; drop(): Promise<void> };

export async function createTestDatabase(): Promise<TestDatabase> {
  if (process.env.TEST_DATABASE !== "postgres") {
    return { url: "memory://", kind: "pglite", drop: async () => {} };
  }
  const name = `shop_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    kind: "postgres",
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
