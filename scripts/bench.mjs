// `npm run bench`: the shop against two baselines, side by side in one run (see shared/design/
// performance.md). Starts the real server (scripts/start.mjs, fresh memory:// PGlite with demo
// data) and, in another process, (a) the landing page's final HTML from memory and (b) the
// landing page's React tree rendered with renderToString per request (scripts/bench/baselines.mjs
// says exactly what). Loads every target with autocannon from this process, the targets
// alternating within each round (each verdict's target right after its baseline); prints medians, the verdicts (a ratio: the median of the rounds' ratios) and the gzip weight of the JS and
// CSS the landing page loads; writes the same report to test-results/bench.txt.
//
// Settings (environment): BENCH_DURATION seconds per measurement (5), BENCH_ROUNDS (5),
// BENCH_CONNECTIONS (50), BENCH_WARMUP seconds before each measurement (1), BENCH_TARGETS
// (comma-separated ids: only those, e.g. for a CPU profile), BENCH_PIN=0 (no CPU pinning),
// BENCH_CPU_PROF=1 (the server writes a V8 CPU profile to test-results/cpu-prof/ when it stops),
// BENCH_LOGIN_CONNECTIONS (the sign-in target's connections, 4), BENCH_DATA_CONNECTIONS (the two
// frontend/data targets', 10), BENCH_DATABASE_URL (postgres://…: the server on that database
// instead of a fresh memory:// PGlite; the bench adds its users to it), BENCH_WORKERS (the server's
// WEB_CONCURRENCY, 1), BENCH_COMPARE_WORKERS=0 (no 1-vs-2-worker comparison; on PostgreSQL it
// runs by default: a second server with the other number of workers on the same database,
// WORKERS_TARGET measured on both, alternating). Every acceptance figure of issue 13 ends as one
// PASS/FAIL line with its baseline; the JavaScript of every hydrated page is weighed against the
// framework's floor of the same build (scripts/bench/hydrated.mjs), and no client chunk may hold a
// server-grade library (scripts/client-bundle.mjs). `npm run bench -- --soak` runs the soak of
// scripts/bench/soak.mjs instead (BENCH_SOAK_SECONDS=20 for a short one), `--weights` only
// the hydrated pages' JavaScript budget (scripts/bench/weights.mjs: byte counts, no load), `--lighthouse`
// only Lighthouse's performance score of the sign-in page (scripts/bench/lighthouse.mjs: the median
// of BENCH_LIGHTHOUSE_RUNS runs, 5; also part of the full run, before its load rounds). The server runs with SERVER_ENV of scripts/bench/targets.mjs
// (limiters out of reach, a larger TOPUP_MAX), printed in the report's header.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { ensureBuild } from "./ensure-build.mjs";
import { root } from "./build-state.mjs";
import { assertRunning, cpuSeconds, firstMessage, freePort, killAllNow, pinning, pinSelf, startNode, stopAll, waitForOk } from "./bench/processes.mjs";
import { LANDING_TEXTS, SERVER_ENV, targets as allTargets, verdicts, weighedPages, WORKERS_TARGET } from "./bench/targets.mjs";
import { GZIP_LEVEL, kib, pageWeight } from "./bench/page-weight.mjs";
import { hydratedBudget } from "./bench/hydrated.mjs";

/* global fetch */

const positive = (name, fallback) => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not ${JSON.stringify(raw)}`);
  return value;
};
const settings = {
  // Five short rounds rather than three long ones (decision 0074): each ratio verdict is the median
  // of the rounds' paired ratios, and with five a single round disturbed by other work on the
  // machine cannot be the median. 5 × 12 targets × (1 + 5) s of load ≈ 6 min, as 3 × (1 + 10) s was.
  duration: positive("BENCH_DURATION", 5),
  rounds: Math.round(positive("BENCH_ROUNDS", 5)),
  connections: Math.round(positive("BENCH_CONNECTIONS", 50)),
  warmup: process.env.BENCH_WARMUP === "0" ? 0 : positive("BENCH_WARMUP", 1),
};
const only = process.env.BENCH_TARGETS ? new Set(process.env.BENCH_TARGETS.split(",").map((s) => s.trim())) : null;
const targets = only ? allTargets.filter((t) => only.has(t.id)) : allTargets;
const REPORT = path.join(root, "test-results", "bench.txt");

const lines = [];
function out(line = "") {
  console.log(line);
  lines.push(line);
}
function writeReport() {
  mkdirSync(path.dirname(REPORT), { recursive: true });
  writeFileSync(REPORT, lines.join("\n") + "\n");
}

// ---- cleanup: every child process goes, however this process ends -------------------------------
let interrupted = false;
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
]) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    out(`\n${signal}: stopping the servers`);
    stopAll().finally(() => {
      writeReport();
      process.exit(code);
    });
  });
}
process.on("exit", killAllNow);

// ---- helpers ------------------------------------------------------------------------------------
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const int = (n) => Math.round(n).toLocaleString("en-US");
const ms = (n) => (n < 10 ? n.toFixed(1) : String(Math.round(n)));
const cpuMs = (n) => (Number.isFinite(n) ? n.toFixed(n < 1 ? 3 : 2) : "–");
const pct = (n) => (Number.isFinite(n) ? `${(n * 100).toFixed(n < 0.1 ? 1 : 0)}%` : "–");
/** A verdict's own figure: one decimal, so that 49.7 % does not read as the 50 % it failed. */
const pctExact = (n) => (Number.isFinite(n) ? `${(n * 100).toFixed(1)}%` : "–");

function table(header, rows, rightAligned) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (cells) => cells.map((c, i) => (rightAligned[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ");
  out(fmt(header));
  out(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) out(fmt(row));
}

function git(...args) {
  const result = spawnSync("git", args, { cwd: root, encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim() : "";
}

/**
 * Runs setup, then one request: status 200 and the target's expectations, or an error. A setup
 * may skip its target: then { skip: reason }.
 */
async function prepare(target, urls) {
  const base = urls[target.base];
  const request = { method: target.method ?? "GET", path: target.path, headers: { ...target.headers }, body: target.body, connections: target.connections };
  if (target.setup) {
    const { note, skip, ...extra } = (await target.setup({ urls, fetch })) ?? {};
    if (note) out(`  ${note}`);
    if (skip) return { skip };
    Object.assign(request, { ...extra, headers: { ...request.headers, ...extra.headers } });
  }
  request.url = base + request.path;
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, redirect: "manual" });
  const text = await response.text();
  const problems = [];
  if (response.status !== 200) problems.push(`status ${response.status}${response.headers.get("location") ? ` → ${response.headers.get("location")}` : ""}`);
  const expect = target.expect ?? {};
  for (const needle of expect.contains ?? []) if (!text.includes(needle)) problems.push(`body lacks ${JSON.stringify(needle)}`);
  if (expect.noSetCookie && response.headers.has("set-cookie")) problems.push(`Set-Cookie: ${response.headers.get("set-cookie")}`);
  if (expect.contentType && !(response.headers.get("content-type") ?? "").startsWith(expect.contentType)) {
    problems.push(`Content-Type ${response.headers.get("content-type")}`);
  }
  if (problems.length) throw new Error(`${target.name} (${request.method} ${request.url}): ${problems.join("; ")}`);
  request.bodyBytes = Buffer.byteLength(text);
  return request;
}

/** One measurement: warm-up, then `duration` seconds; `pid` is the process that answers. */
async function measure(request, pid) {
  const options = {
    url: request.url,
    method: request.method,
    headers: request.headers,
    body: request.body,
    connections: request.connections ?? settings.connections,
  };
  if (request.sessions?.length > 1) {
    // Each connection signed in by a session of its own (targets.mjs `sessions`), in turn.
    let next = 0;
    options.setupClient = (client) => client.setHeaders({ ...request.headers, Authorization: `Bearer ${request.sessions[next++ % request.sessions.length]}` });
  }
  if (settings.warmup) await autocannon({ ...options, duration: settings.warmup });
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({ ...options, duration: settings.duration });
  const cpuAfter = cpuSeconds(pid);
  const responses = result.requests.total;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytesPerResponse: responses ? result.throughput.total / responses : 0,
    cpuMsPerResponse: cpuBefore !== null && cpuAfter !== null && responses ? ((cpuAfter - cpuBefore) * 1000) / responses : NaN,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, Number(s.count)])),
  };
}

function printWeight(label, weight, budgetKiB) {
  const files = (bucket) => `${bucket.files.length} file${bucket.files.length === 1 ? "" : "s"}`;
  out(
    `${label}: JS ${kib(weight.js.gzipBytes).toFixed(1)} KiB gzip (${files(weight.js)}, ${kib(weight.js.rawBytes).toFixed(1)} KiB raw), ` +
      `CSS ${kib(weight.css.gzipBytes).toFixed(1)} KiB gzip (${files(weight.css)}, ${kib(weight.css.rawBytes).toFixed(1)} KiB raw), ` +
      `HTML ${kib(weight.html.gzipBytes).toFixed(1)} KiB gzip`,
  );
  for (const file of [...weight.js.files, ...weight.css.files]) {
    out(`    ${file.url}  ${kib(file.gzipBytes).toFixed(1)} KiB gzip`);
  }
  if (budgetKiB !== undefined) {
    const ok = kib(weight.js.gzipBytes) <= budgetKiB;
    out(`  ${ok ? "PASS" : "FAIL"}  ${label} JS ≤ ${budgetKiB} KiB gzip: ${kib(weight.js.gzipBytes).toFixed(1)} KiB`);
    return ok;
  }
  return true;
}

/**
 * Issue 13's 1-vs-2-worker figure: a second server on the same PostgreSQL with the other number of
 * workers (2 when the bench server has 1), not pinned, so that two workers can use both CPUs (which
 * the load generator and PostgreSQL share: no clean scaling on this machine, only a report); the
 * WORKERS_TARGET request measured on both, alternating, settings.rounds times. Returns the verdict
 * line, or null when the target is not in the run.
 */
async function compareWorkers({ requests, serverUrl, server, serverEnv, workers, databaseKind }) {
  const label = "2 workers vs 1 on the signed-in frontend/data";
  if (!requests.has(WORKERS_TARGET)) return null;
  if (process.env.BENCH_COMPARE_WORKERS === "0") return { verdict: "----", line: `${label}: not measured (BENCH_COMPARE_WORKERS=0)` };
  if (databaseKind !== "postgres") {
    return { verdict: "----", line: `${label}: not measured — the embedded database serves one process (decision 0045); set BENCH_DATABASE_URL=postgres://…` };
  }
  const otherWorkers = workers === "1" ? "2" : "1";
  const port = await freePort();
  const otherUrl = `http://127.0.0.1:${port}`;
  const other = startNode(`server (${otherWorkers} worker${otherWorkers === "1" ? "" : "s"})`, ["scripts/start.mjs"], {
    cwd: root,
    env: { ...serverEnv, PORT: String(port), WEB_CONCURRENCY: otherWorkers },
  });
  try {
    await waitForOk(other, `${otherUrl}/healthz`);
    const request = requests.get(WORKERS_TARGET);
    const otherRequest = { ...request, url: request.url.replace(serverUrl, otherUrl) };
    const runs = { [workers]: [], [otherWorkers]: [] };
    out();
    out(`1 vs 2 workers: a second server on ${otherUrl} with WEB_CONCURRENCY=${otherWorkers} (not pinned), the same database, the same bench user`);
    // The bench server is warm from its rounds; each new worker compiles its hot paths on its own first.
    const warmup = Math.max(5, settings.duration);
    await autocannon({ url: otherRequest.url, method: otherRequest.method, headers: otherRequest.headers, connections: otherRequest.connections ?? settings.connections, duration: warmup });
    out(`  the second server warmed up for ${warmup} s first`);
    for (let round = 1; round <= settings.rounds; round++) {
      for (const [count, req, handle] of [
        [workers, request, server],
        [otherWorkers, otherRequest, other],
      ]) {
        assertRunning(server, other);
        const m = await measure(req, handle.child.pid);
        runs[count].push(m);
        out(
          `round ${round}/${settings.rounds}  WEB_CONCURRENCY=${count}  ${int(m.rps).padStart(7)} req/s  p50 ${ms(m.p50).padStart(4)} ms  p99 ${ms(m.p99).padStart(4)} ms  CPU ${cpuMs(m.cpuMsPerResponse)} ms/req` +
            (m.non2xx + m.errors ? `  non-2xx ${m.non2xx}, errors ${m.errors}` : ""),
        );
      }
    }
    const med = (count, key) => median(runs[count].map((m) => m[key]));
    const errors = [...runs["1"], ...runs["2"]].reduce((n, m) => n + m.non2xx + m.errors, 0);
    const line =
      `${label}: ${int(med("2", "rps"))} / ${int(med("1", "rps"))} req/s = ${(med("2", "rps") / med("1", "rps")).toFixed(2)}×; ` +
      `p99 ${ms(med("2", "p99"))} vs ${ms(med("1", "p99"))} ms; CPU ${cpuMs(med("2", "cpuMsPerResponse"))} vs ${cpuMs(med("1", "cpuMsPerResponse"))} ms/req ` +
      `(2 cores shared with the load generator and PostgreSQL: reported, no threshold); errors ${errors}`;
    return { verdict: errors ? "FAIL" : "INFO", line };
  } finally {
    other.child.kill("SIGTERM");
    await other.exited;
  }
}

// ---- the run ------------------------------------------------------------------------------------
async function run() {
  const pin = pinning();
  const commit = git("rev-parse", "--short", "HEAD");
  const dirty = git("status", "--porcelain") ? " (with uncommitted changes)" : "";
  out(`npm run bench — ${new Date().toISOString()}`);
  out(`Node ${process.version}, ${os.cpus()[0]?.model ?? "unknown CPU"} × ${os.availableParallelism()}, commit ${commit}${dirty}`);
  out(
    `load average at start: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} (other work on this machine skews the figures)`,
  );
  out(
    `autocannon: ${settings.connections} connections, ${settings.duration} s per measurement` +
      `${settings.warmup ? ` after ${settings.warmup} s warm-up` : ""}, ${settings.rounds} round${settings.rounds === 1 ? "" : "s"}, targets alternating; medians`,
  );

  ensureBuild();

  if (pin && pinSelf(pin.loadCpu)) {
    out(`CPU pinning: load generator on CPU ${pin.loadCpu}, servers on CPU ${pin.serverCpu} (BENCH_PIN=0 turns it off)`);
  } else {
    if (pin) pin.serverCpu = undefined;
    out("CPU pinning: none (one CPU, no taskset, or BENCH_PIN=0)");
  }
  const serverCpu = pin?.serverCpu;

  const port = await freePort();
  const serverUrl = `http://127.0.0.1:${port}`;
  const cpuProf = process.env.BENCH_CPU_PROF === "1" ? path.join(root, "test-results", "cpu-prof") : null;
  const databaseUrl = process.env.BENCH_DATABASE_URL || "memory://";
  const workers = process.env.BENCH_WORKERS || "1";
  const databaseKind = /^postgres(ql)?:/.test(databaseUrl) ? "postgres" : "pglite";
  const serverEnv = {
    ...process.env,
    ...SERVER_ENV,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    WEB_CONCURRENCY: workers,
    LOG_LEVEL: "warn",
    NODE_ENV: "development",
  };
  const server = startNode("server", [...(cpuProf ? ["--cpu-prof", "--cpu-prof-dir", cpuProf] : []), "scripts/start.mjs"], {
    cwd: root,
    env: serverEnv,
    cpu: serverCpu,
  });
  await waitForOk(server, `${serverUrl}/healthz`);
  out(
    `server: node scripts/start.mjs on ${serverUrl} (DATABASE_URL=${databaseUrl.replace(/\/\/[^@/]*@/, "//…@")}, WEB_CONCURRENCY=${workers}, NODE_ENV=development, LOG_LEVEL=warn)` +
      `${cpuProf ? `, CPU profile to ${path.relative(root, cpuProf)}/` : ""}`,
  );
  if (workers !== "1") out("  CPU ms/req of the server: the primary and its workers together");
  out(
    `  and ${Object.entries(SERVER_ENV)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ")}: the limiters out of reach, so sign-in measures`,
  );
  out("  Argon2, not the limiter, and the 1,000 transactions can be made through the API (one top-up, then purchases)");
  for (const t of targets) if (t.connections) out(`  ${t.name}: ${t.connections} connections — ${t.connectionsWhy ?? "set by the target"}`);

  const baselines = startNode("baselines", ["scripts/bench/baselines.mjs"], {
    cwd: root,
    env: { ...serverEnv, BENCH_SERVER_URL: serverUrl, BENCH_SERVER_PORT: String(port), BENCH_LANDING_TEXTS: JSON.stringify(LANDING_TEXTS) },
    cpu: serverCpu,
    ipc: true,
  });
  const ready = await firstMessage(baselines);
  const urls = { server: serverUrl, ceiling: `http://127.0.0.1:${ready.ceilingPort}`, render: `http://127.0.0.1:${ready.renderPort}` };
  const { check } = ready;
  out(`baselines (scripts/bench/baselines.mjs): (a) ${urls.ceiling}, (b) ${urls.render}`);
  out(
    `  (b) renders ${int(check.renderedBytes)} bytes, the real page is ${int(check.realBytes)}; ` +
      (check.sameAsRealPage
        ? "same HTML as the real page (apart from React Router's empty data-stream Suspense marker)"
        : `DIFFERENT from the real page at char ${check.firstDifference.at}: ${JSON.stringify(check.firstDifference.rendered)} vs ${JSON.stringify(check.firstDifference.real)}`),
  );
  for (const [text, found] of Object.entries(check.texts)) {
    out(`  landing text ${JSON.stringify(text)}: (b) ${found.rendered ? "yes" : "NO"}, real page ${found.real ? "yes" : "NO"}`);
    if (!found.rendered || !found.real) throw new Error(`the landing text ${JSON.stringify(text)} is missing`);
  }

  // Lighthouse before the load: its simulation multiplies the wall time of a real page load, so it
  // needs the machine quiet, and the load rounds leave it busy (load average 3 after them, with
  // scores 0.77 there against 0.79–0.99 alone). Here the servers are up and idle and nothing of the
  // bench runs beside the browser. The browser runs unpinned like in `--lighthouse` (this process's
  // pinning would hold Chromium's processes on the load generator's one CPU); the pinning comes back
  // before the load. Imported here: Lighthouse is a large module tree the other modes need not hold.
  // BENCH_TARGETS picks load targets (say for a CPU profile of the server), which Lighthouse's page
  // loads would only disturb: it runs in the full bench and with `--lighthouse`.
  let lighthouseResult = { ok: true, line: null };
  if (!only) {
    out();
    out("Lighthouse (scripts/bench/lighthouse.mjs), before the load runs");
    const { measureLighthouse } = await import("./bench/lighthouse.mjs");
    if (pin?.serverCpu !== undefined) pinSelf(`0-${os.availableParallelism() - 1}`);
    lighthouseResult = await measureLighthouse(out, serverUrl);
    if (pin?.serverCpu !== undefined && !pinSelf(pin.loadCpu)) throw new Error(`could not pin the load generator to CPU ${pin.loadCpu} again`);
  }
  out();

  const requests = new Map();
  const skipped = [];
  for (const target of targets) {
    const request = await prepare(target, urls);
    if (request.skip) skipped.push([target, request.skip]);
    else requests.set(target.id, request);
  }
  const measured = targets.filter((t) => requests.has(t.id));
  out(`all ${measured.length} targets answer 200 as expected${skipped.length ? `; ${skipped.length} skipped:` : ""}`);
  for (const [target, reason] of skipped) out(`  SKIPPED  ${target.name}: ${reason}`);
  out();

  const results = new Map(measured.map((t) => [t.id, []]));
  for (let round = 1; round <= settings.rounds; round++) {
    for (const target of measured) {
      assertRunning(server, baselines);
      const m = await measure(requests.get(target.id), (target.base === "server" ? server : baselines).child.pid);
      assertRunning(server, baselines);
      results.get(target.id).push(m);
      const bad = m.non2xx + m.errors;
      out(
        `round ${round}/${settings.rounds}  ${target.name.padEnd(52)} ${int(m.rps).padStart(7)} req/s  p50 ${ms(m.p50).padStart(4)} ms  p99 ${ms(m.p99).padStart(4)} ms  CPU ${cpuMs(m.cpuMsPerResponse)} ms/req` +
          (bad ? `  non-2xx ${m.non2xx}, errors ${m.errors} (timeouts ${m.timeouts}), status ${JSON.stringify(m.statusCodes)}` : ""),
      );
    }
  }

  const workerComparison = await compareWorkers({ requests, serverUrl, server, serverEnv, workers, databaseKind });

  const summary = new Map();
  for (const target of measured) {
    const rounds = results.get(target.id);
    summary.set(target.id, {
      rps: median(rounds.map((r) => r.rps)),
      p50: median(rounds.map((r) => r.p50)),
      p99: median(rounds.map((r) => r.p99)),
      bytes: median(rounds.map((r) => r.bytesPerResponse)),
      cpu: median(rounds.map((r) => r.cpuMsPerResponse)),
      non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
      errors: rounds.reduce((n, r) => n + r.errors, 0),
    });
  }
  /**
   * A paired reading of two targets measured back to back in every round: round r's figure of
   * `target` against round r's of `of`, then the median of those ratios, so that one round slowed
   * by other work (which slows both of its sides) does not decide it as it would a ratio of medians.
   * { rps: req/s of target / of `of`, cpu: CPU per request of `of` / of target (both "the target
   * reaches this much of the baseline"), each { median, rounds } }; null when either is missing.
   */
  const paired = (target, of) => {
    const a = results.get(target);
    const b = results.get(of);
    if (!a || !b) return null;
    const reading = (ratio) => {
      const rounds = a.map((m, i) => ratio(m, b[i]));
      return { median: median(rounds), rounds };
    };
    return { rps: reading((m, base) => m.rps / base.rps), cpu: reading((m, base) => base.cpuMsPerResponse / m.cpuMsPerResponse) };
  };
  const rounds = (reading, format = pct) => reading.rounds.map(format).join(", ");
  out();
  out(`Medians of ${settings.rounds} round${settings.rounds === 1 ? "" : "s"}. bytes/resp: headers + body as received. CPU ms/req: CPU time (user + system, all`);
  out("threads) of the answering process during the measurement / responses; 1000 / it = req/s on one whole core. vs (a), vs (b):");
  out("the median of the rounds' req/s ratios (each round's target against the same round's baseline), and in brackets the same by CPU");
  out("per request, which other load on the machine skews less. errors: non-2xx + connection errors, all rounds.");
  const ratio = (target, base) => {
    const p = paired(target, base);
    return p ? `${pct(p.rps.median)} (${pct(p.cpu.median)})` : "–";
  };
  table(
    ["target", "req/s", "p50 ms", "p99 ms", "bytes/resp", "CPU ms/req", "vs (a)", "vs (b)", "errors"],
    measured.map((t) => {
      const s = summary.get(t.id);
      return [t.name, int(s.rps), ms(s.p50), ms(s.p99), int(s.bytes), cpuMs(s.cpu), ratio(t.id, "ceiling"), ratio(t.id, "render"), String(s.non2xx + s.errors)];
    }),
    [false, true, true, true, true, true, true, true, true],
  );
  const failing = measured.filter((t) => summary.get(t.id).non2xx + summary.get(t.id).errors > 0);
  for (const t of failing) {
    const codes = {};
    for (const r of results.get(t.id)) for (const [code, count] of Object.entries(r.statusCodes)) codes[code] = (codes[code] ?? 0) + count;
    out(`  errors of ${t.name}: non-2xx ${summary.get(t.id).non2xx}, connection errors ${summary.get(t.id).errors}, status codes ${JSON.stringify(codes)}`);
  }

  out();
  out("Verdicts");
  let allPass = true;
  for (const v of verdicts) {
    if (v.kind === "compare") {
      const parts = v.pairs.map((p) => {
        const s = summary.get(p.target);
        const of = summary.get(p.of);
        const pair = paired(p.target, p.of);
        return pair
          ? `${p.label} ${int(s.rps)} / ${int(of.rps)}, rounds' median ${pct(pair.rps.median)} (by CPU per request: ${cpuMs(of.cpu)} / ${cpuMs(s.cpu)} ms, rounds' median ${pct(pair.cpu.median)})`
          : `${p.label} not measured`;
      });
      out(`  INFO  ${v.label}: ${parts.join("; ")}`);
      continue;
    }
    const s = summary.get(v.target);
    const of = v.of ? summary.get(v.of) : null;
    if (!s || (v.of && !of)) {
      out(`  ----  ${v.label}: not measured in this run`);
      continue;
    }
    if (v.kind === "info") {
      out(`  INFO  ${v.label}: ${int(s.rps)} req/s, p50 ${ms(s.p50)} ms, p99 ${ms(s.p99)} ms, CPU ${cpuMs(s.cpu)} ms/req`);
      continue;
    }
    let ok;
    let detail;
    if (v.kind === "ratio") {
      const { rps, cpu } = paired(v.target, v.of);
      ok = rps.median >= v.atLeast;
      detail =
        `median of the rounds' req/s ratios ${pctExact(rps.median)} (rounds ${rounds(rps)}; medians ${int(s.rps)} / ${int(of.rps)} req/s); ` +
        `by CPU per request ${pctExact(cpu.median)} (rounds ${rounds(cpu)}; medians ${cpuMs(of.cpu)} / ${cpuMs(s.cpu)} ms)`;
    } else if (v.kind === "cpu-ratio") {
      const limit = v.atMost[databaseKind];
      // paired() reads CPU as baseline / target; this verdict is target / baseline, the inverse.
      const times = paired(v.target, v.of).cpu.rounds.map((r) => 1 / r);
      const timesMedian = median(times);
      const factor = (n) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : "–");
      ok = timesMedian <= limit;
      detail =
        `median of the rounds' ratios ${factor(timesMedian)} (≤ ${limit}× on ${databaseKind}; rounds ${times.map(factor).join(", ")}; medians ${cpuMs(s.cpu)} / ${cpuMs(of.cpu)} ms); ` +
        `p99 ${ms(s.p99)} vs ${ms(of.p99)} ms, ${int(s.rps)} vs ${int(of.rps)} req/s`;
    } else {
      ok = s.p99 <= v.atMostMs;
      detail = `p99 ${ms(s.p99)} ms`;
    }
    allPass &&= ok;
    out(`  ${ok ? "PASS" : "FAIL"}  ${v.label}: ${detail}`);
  }

  if (workerComparison) {
    out(`  ${workerComparison.verdict}  ${workerComparison.line}`);
    allPass &&= workerComparison.verdict !== "FAIL";
  }
  if (lighthouseResult.line) out(`  ${lighthouseResult.ok ? "PASS" : "FAIL"}  ${lighthouseResult.line}`);
  else out("  ----  Lighthouse performance of the sign-in page: not measured (BENCH_TARGETS; `npm run bench -- --lighthouse` measures it)");
  allPass &&= lighthouseResult.ok;

  out();
  out(`Page weight (assets fetched from the server, gzip level ${GZIP_LEVEL}; KiB = 1024 bytes)`);
  for (const page of weighedPages) {
    allPass = printWeight(page.name, await pageWeight(serverUrl, page.path, page.headers), page.jsBudgetKiB) && allPass;
  }
  allPass = (await hydratedBudget(out, serverUrl)) && allPass;

  out();
  out(
    `load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  out(`${allPass ? "All verdicts pass." : "Some verdicts FAIL."}`);
  const serverLines = server.tail.filter((l) => !/^Building the app/.test(l));
  if (serverLines.length) {
    out(`server output (warn and above), last ${serverLines.length} lines:`);
    for (const l of serverLines) out(`  ${l.slice(0, 300)}`);
  }
  return allPass;
}

let exitCode = 0;
try {
  if (process.argv.includes("--soak")) {
    const { soak } = await import("./bench/soak.mjs");
    if (!(await soak(out))) exitCode = 1;
  } else if (process.argv.includes("--lighthouse")) {
    const [{ onFreshServer }, { lighthouseVerdict }] = await Promise.all([import("./bench/weights.mjs"), import("./bench/lighthouse.mjs")]);
    if (!(await onFreshServer((url) => lighthouseVerdict(out, url)))) exitCode = 1;
  } else if (process.argv.includes("--weights")) {
    const { weights } = await import("./bench/weights.mjs");
    if (!(await weights(out))) exitCode = 1;
  } else await run();
} catch (error) {
  out(`\nbench failed: ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
} finally {
  if (!interrupted) {
    await stopAll(15_000);
    writeReport();
    console.log(`\nreport written to ${path.relative(root, REPORT)}`);
  }
}
if (!interrupted) process.exit(exitCode);
