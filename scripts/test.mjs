// `npm test`: every test. Builds the app if needed (the in-process and browser tests use the
// build), finds or sets up what the tests need besides Node — Chromium and its fonts, Redis,
// PostgreSQL (scripts/test-services.mjs) — hands them to the three Vitest projects (PGlite,
// PostgreSQL, Chromium) through CHROMIUM_PATH, TEST_REDIS_URL, TEST_REDIS_SERVER and
// TEST_POSTGRES_URL, and stops what it started when the run ends.
//
// The whole suite runs as two Vitest processes side by side: the PGlite and PostgreSQL projects
// in one, the browser journeys (one file after another, against one server) in the other. One
// Vitest process runs its groups one after the other, so the browser files would otherwise wait
// for every other file; side by side, the journeys' waits for Chromium and the server overlap the
// in-process tests (docs/product/operations.md#tests). With arguments (a project, a file) it is one
// Vitest process with those arguments.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";
import { root } from "./build-state.mjs";
import { ensureChromium, ensurePostgres, ensureRedis, ensureRedisServer } from "./test-services.mjs";

ensureBuild();

const args = process.argv.slice(2);
/** What each Vitest process runs: its arguments and its JSON report. */
const runs =
  args.length > 0
    ? [{ args, report: "vitest.json" }]
    : [
        { args: ["--project", "pglite", "--project", "postgres"], report: "vitest-node.json" },
        { args: ["--project", "browser"], report: "vitest-browser.json" },
      ];

const stops = [];
const children = [];
let status = 1;
try {
  const chromium = ensureChromium();
  const redisServer = ensureRedisServer();
  const redis = await ensureRedis({ binary: redisServer });
  stops.push(redis.stop);
  const postgres = await ensurePostgres();
  stops.push(postgres.stop);

  const results = path.join(root, "test-results");
  mkdirSync(results, { recursive: true });
  const env = { ...process.env, CHROMIUM_PATH: chromium, TEST_REDIS_URL: redis.url, TEST_REDIS_SERVER: redisServer, TEST_POSTGRES_URL: postgres.url };
  // Ctrl-C reaches Vitest too; this process waits for it, then stops the services.
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => children.forEach((child) => child.kill(signal)));
  const codes = await Promise.all(
    runs.map(({ args: runArgs, report }) => {
      rmSync(path.join(results, report), { force: true });
      const child = spawn(
        process.execPath,
        [path.join(root, "node_modules/vitest/vitest.mjs"), "run", "--reporter=default", "--reporter=json", `--outputFile.json=${path.join(results, report)}`, ...runArgs],
        { cwd: root, stdio: "inherit", env },
      );
      children.push(child);
      return new Promise((resolve) => child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
    }),
  );
  status = codes.find((code) => code !== 0) ?? 0;
  const totals = { passed: 0, failed: 0, skipped: 0, missing: [] };
  for (const { report } of runs) {
    const file = path.join(results, report);
    if (!existsSync(file)) {
      totals.missing.push(report);
      continue;
    }
    const { numPassedTests, numFailedTests, numPendingTests } = JSON.parse(readFileSync(file, "utf8"));
    totals.passed += numPassedTests;
    totals.failed += numFailedTests;
    totals.skipped += numPendingTests;
  }
  console.log(
    `\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}` + (totals.missing.length ? ` (no report: ${totals.missing.join(", ")})` : ""),
  );
  if (totals.missing.length && status === 0) status = 1;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  for (const stop of stops.reverse()) await stop();
}
process.exit(status);
