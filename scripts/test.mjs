// `npm test`: every test. Builds the app if needed (the in-process and browser tests use the
// build), finds or sets up what the tests need besides Node — Chromium and its fonts, Redis,
// PostgreSQL (scripts/test-services.mjs) — hands them to the three Vitest projects (PGlite,
// PostgreSQL, Chromium) through CHROMIUM_PATH, TEST_REDIS_URL, TEST_REDIS_SERVER and
// TEST_POSTGRES_URL, and stops what it started when the run ends.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";
import { root } from "./build-state.mjs";
import { ensureChromium, ensurePostgres, ensureRedis, ensureRedisServer } from "./test-services.mjs";

ensureBuild();

const stops = [];
let status = 1;
try {
  const chromium = ensureChromium();
  const redisServer = ensureRedisServer();
  const redis = await ensureRedis({ binary: redisServer });
  stops.push(redis.stop);
  const postgres = await ensurePostgres();
  stops.push(postgres.stop);

  mkdirSync(path.join(root, "test-results"), { recursive: true });
  const report = path.join(root, "test-results", "vitest.json");
  const child = spawn(
    process.execPath,
    [path.join(root, "node_modules/vitest/vitest.mjs"), "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)],
    {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, CHROMIUM_PATH: chromium, TEST_REDIS_URL: redis.url, TEST_REDIS_SERVER: redisServer, TEST_POSTGRES_URL: postgres.url },
    },
  );
  // Ctrl-C reaches Vitest too; this process waits for it, then stops the services.
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  status = await new Promise((resolve) => child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
  if (existsSync(report)) {
    const { numPassedTests, numFailedTests, numPendingTests } = JSON.parse(readFileSync(report, "utf8"));
    console.log(`\n${numPassedTests} passed, ${numFailedTests} failed${numPendingTests ? `, ${numPendingTests} skipped` : ""}`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  for (const stop of stops.reverse()) await stop();
}
process.exit(status);
