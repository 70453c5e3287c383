// `npm test`: every test. Builds the app if needed (the in-process and browser tests use the
// build), then runs the three Vitest projects: PGlite, PostgreSQL, Chromium.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";
import { root } from "./build-state.mjs";

ensureBuild();
if (!existsSync(process.env.CHROMIUM_PATH ?? "/usr/bin/chromium")) {
  console.error("Chromium is missing: install it with `apt-get install -y chromium` (the browser tests need it).");
  process.exit(1);
}
mkdirSync(path.join(root, "test-results"), { recursive: true });
const report = path.join(root, "test-results", "vitest.json");
const result = spawnSync(
  process.execPath,
  [path.join(root, "node_modules/vitest/vitest.mjs"), "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { cwd: root, stdio: "inherit" },
);
if (existsSync(report)) {
  const { numPassedTests, numFailedTests, numPendingTests } = JSON.parse(readFileSync(report, "utf8"));
  console.log(`\n${numPassedTests} passed, ${numFailedTests} failed${numPendingTests ? `, ${numPendingTests} skipped` : ""}`);
}
process.exit(result.status ?? 1);
