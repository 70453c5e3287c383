// Global setup of the "pglite" and "postgres" projects: migrates one template database for the
// whole run, which every test file's database is copied from (tests/kit/database.ts). Applying the
// migrations once instead of per file, and on PGlite skipping its initdb per file, is most of the
// set-up time of an integration test file.
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../db/client.ts";
import pg from "pg";
import { adminQuery, POSTGRES_ADMIN_URL, postgresDatabaseUrl, scratchDir, testDatabasePrefix } from "./database.ts";

export default async function setup(project: TestProject) {
  if (project.config.env.TEST_DATABASE === "postgres") {
    const name = `shop_template_${process.pid}`;
    await adminQuery(`drop database if exists ${name} with (force)`);
    await adminQuery(`create database ${name}`);
    const database = await openDatabase(postgresDatabaseUrl(name));
    await database.close();
    project.provide("postgresTemplate", name);
    return async () => {
      // The files' databases are dropped without waiting (tests/kit/database.ts): what is left of this
      // run's goes now, then the template.
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      try {
        const { rows } = await admin.query<{ datname: string }>("select datname from pg_database where starts_with(datname, $1)", [testDatabasePrefix(name)]);
        for (const datname of [...rows.map((row) => row.datname), name]) await admin.query(`drop database if exists ${datname} with (force)`);
      } finally {
        await admin.end();
      }
    };
  }
  const root = mkdtempSync(path.join(scratchDir(), "shop-test-template-"));
  const dir = path.join(root, "pglite");
  const database = await openDatabase(`file:${dir}`);
  await database.close();
  project.provide("pgliteTemplate", dir);
  return () => rmSync(root, { recursive: true, force: true });
}
