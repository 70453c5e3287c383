// Builds the app when ./build is missing or a file it holds changed (scripts/build-state.mjs). A
// lock folder keeps two processes (say `npm start` and `npm test`) from building into the same
// folder at once.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { buildIsCurrent, markBuilt, root } from "./build-state.mjs";

const LOCK = path.join(root, ".build.lock");
const STALE_MS = 5 * 60_000;

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function acquireLock() {
  for (;;) {
    try {
      mkdirSync(LOCK);
      return;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_MS) rmSync(LOCK, { recursive: true, force: true });
      } catch {
        /* released meanwhile */
      }
      sleep(250);
    }
  }
}

export function ensureBuild({ quiet = false } = {}) {
  if (buildIsCurrent()) return;
  acquireLock();
  try {
    if (buildIsCurrent()) return; // another process built it while we waited
    if (!quiet) console.log("Building the app (sources changed or no build yet)…");
    const result = spawnSync(process.execPath, [`${root}/node_modules/@react-router/dev/bin.js`, "build"], {
      cwd: root,
      stdio: quiet ? "pipe" : "inherit",
      env: { ...process.env, NODE_ENV: "production" },
    });
    if (result.status !== 0) {
      if (quiet) process.stderr.write(result.stderr ?? "");
      throw new Error("build failed");
    }
    markBuilt();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) ensureBuild();
