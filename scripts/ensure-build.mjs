// Builds the app when ./build is missing or older than its sources.
import { spawnSync } from "node:child_process";
import { buildIsCurrent, markBuilt, root } from "./build-state.mjs";

export function ensureBuild({ quiet = false } = {}) {
  if (buildIsCurrent()) return;
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
}

if (import.meta.url === `file://${process.argv[1]}`) ensureBuild();
