// `npm run bench -- --weights`: only the JavaScript budget of the hydrated pages (./hydrated.mjs),
// against the server of the current build on a fresh memory:// PGlite, without the load runs that
// need a quiet machine. Page weights are byte counts of the build, not timings: the figures are
// those of the full bench, on a busy machine too.
import { root } from "../build-state.mjs";
import { ensureBuild } from "../ensure-build.mjs";
import { hydratedBudget } from "./hydrated.mjs";
import { freePort, startNode, stopAll, waitForOk } from "./processes.mjs";
import { SERVER_ENV } from "./targets.mjs";

/**
 * Runs `check` against the server of the current build on a fresh memory:// PGlite with the bench's
 * settings, and stops the server after it (the `--weights` and `--lighthouse` modes).
 */
export async function onFreshServer(check) {
  ensureBuild();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = startNode("server", ["scripts/start.mjs"], {
    cwd: root,
    env: { ...process.env, ...SERVER_ENV, PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: "memory://", WEB_CONCURRENCY: "1", LOG_LEVEL: "warn", NODE_ENV: "development" },
  });
  try {
    await waitForOk(server, `${url}/healthz`);
    return await check(url);
  } finally {
    await stopAll();
  }
}

/** Prints the floor and every hydrated page's PASS/FAIL line with `out`; true when all pass. */
export function weights(out) {
  return onFreshServer((url) => hydratedBudget(out, url));
}
