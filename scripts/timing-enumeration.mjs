// `node scripts/timing-enumeration.mjs`: does the time of an answer tell whether an e-mail address
// is registered? (issue 7, point 9.) Starts the real server (scripts/start.mjs) on a fresh
// PostgreSQL database with every rate limit lifted, registers some accounts, then times, one
// request at a time and alternating the two kinds, 200 tries each of
//   POST /v2/web/login                 wrong password for an existing account vs an unknown address
//   POST /auth/reset                   an existing vs an unknown address
//   POST /auth/validateResetCode       a wrong code for an existing address (which asked for a code)
//                                      vs an unknown address
// and prints the medians. Exits 1 when the medians of a call differ by 10 % or more.
//
// Settings (environment): TIMING_DATABASE_URL, a PostgreSQL server URL whose user may create
// databases (default postgres://postgres@127.0.0.1:5432/postgres; a database of its own is created
// and dropped); TIMING_TRIES (200); TIMING_WARMUP (20 of each kind, not counted); TIMING_PAUSE_MS
// between requests (15: the reset request's work after the answer settles before the next try).
// A measurement, not a test: run it on a quiet machine.
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { ensureBuild } from "./ensure-build.mjs";
import { root } from "./build-state.mjs";
import { freePort, killAllNow, startNode, stopAll, waitForOk } from "./bench/processes.mjs";

/* global fetch */

const count = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number`);
  return value;
};
const TRIES = count("TIMING_TRIES", 200);
const WARMUP = count("TIMING_WARMUP", 20);
const PAUSE_MS = count("TIMING_PAUSE_MS", 15);
const ADMIN_URL = process.env.TIMING_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ACCOUNTS = 10;
const PASSWORD = "Quartz-Lantern-42";
const LIFTED = "1000000/1m";

for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));
process.on("exit", killAllNow);

const database = `shop_timing_${process.pid}_${randomBytes(3).toString("hex")}`;
async function admin(statement) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

ensureBuild();
await admin(`create database ${database}`);
let server;
try {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  server = startNode("server", ["scripts/start.mjs"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: base,
      DATABASE_URL: url.toString(),
      LOG_LEVEL: "silent",
      REDIS_URL: "",
      SMTP_URL: "",
      RECAPTCHA_SECRET: "",
      JOBS_INTERVAL_SECONDS: "0",
      RATE_LOGIN_ACCOUNT: LIFTED,
      RATE_LOGIN_ACCOUNT_GLOBAL: LIFTED,
      RATE_LOGIN_IP: LIFTED,
      RATE_RESET_ACCOUNT: LIFTED,
      RATE_RESET_IP: LIFTED,
      RATE_REGISTER_IP: LIFTED,
      RATE_WRITE_USER: LIFTED,
      RATE_WRITE_IP: LIFTED,
      RATE_MAIL_USER: LIFTED,
    },
  });
  await waitForOk(server, `${base}/healthz`);

  const post = async (path, body) => {
    const started = performance.now();
    const response = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", "accept-language": "en" }, body: JSON.stringify(body) });
    await response.arrayBuffer();
    return { ms: performance.now() - started, status: response.status };
  };

  const run = randomBytes(3).toString("hex");
  const existing = Array.from({ length: ACCOUNTS }, (_, i) => `timing-${run}-${i}@example.com`);
  const unknown = Array.from({ length: ACCOUNTS }, (_, i) => `nobody-${run}-${i}@example.com`);
  for (const email of existing) {
    const { status } = await post("/v2/web/register", { email, password: PASSWORD });
    if (status !== 200) throw new Error(`registering ${email} answered ${status}`);
  }

  /** Times `tries` of each kind, alternating; both kinds must get the same status every time. */
  async function measure(name, request, expected) {
    const times = { existing: [], unknown: [] };
    for (let i = 0; i < WARMUP + TRIES; i++) {
      // Alternate which kind goes first, so that neither always follows the other.
      const order = i % 2 ? ["existing", "unknown"] : ["unknown", "existing"];
      for (const kind of order) {
        const email = (kind === "existing" ? existing : unknown)[i % ACCOUNTS];
        const { ms, status } = await request(email);
        if (status !== expected) throw new Error(`${name} for an ${kind} address answered ${status}, not ${expected}`);
        if (i >= WARMUP) times[kind].push(ms);
        await sleep(PAUSE_MS);
      }
    }
    const a = median(times.existing);
    const b = median(times.unknown);
    return { name, existing: a, unknown: b, difference: Math.abs(a - b) / Math.min(a, b) };
  }

  const results = [];
  results.push(await measure("login (wrong password)", (email) => post("/v2/web/login", { login: email, password: "Wrong-Password-1" }), 401));
  results.push(await measure("reset request", (email) => post("/auth/reset", { email }), 200));
  // Every existing address has asked for a code (which dies after five wrong tries, as in an attack).
  for (const email of existing) await post("/auth/reset", { email });
  await sleep(500);
  results.push(await measure("validateResetCode (wrong code)", (email) => post("/auth/validateResetCode", { email, resetCode: "000000" }), 400));

  const pad = (s, n) => String(s).padEnd(n);
  console.log(`\nMedians of ${TRIES} tries each (after ${WARMUP} warm-up tries), PostgreSQL, limits lifted:\n`);
  console.log(`${pad("call", 34)}${pad("existing", 12)}${pad("unknown", 12)}difference`);
  for (const r of results) {
    console.log(`${pad(r.name, 34)}${pad(`${r.existing.toFixed(2)} ms`, 12)}${pad(`${r.unknown.toFixed(2)} ms`, 12)}${(r.difference * 100).toFixed(1)} %`);
  }
  const failed = results.filter((r) => r.difference >= 0.1);
  console.log(failed.length ? `\nFAIL: ${failed.map((r) => r.name).join(", ")} differ by 10 % or more.` : "\nOK: every difference is under 10 %.");
  process.exitCode = failed.length ? 1 : 0;
} finally {
  await stopAll();
  await admin(`drop database if exists ${database} with (force)`).catch((error) => console.error(`dropping ${database}: ${error.message}`));
}
