// `npm run bench -- --soak`: the shop under a fixed mixed rate for a long time (issue 13): guest
// pages (landing and a game page from the page cache), signed-in `frontend/data` and purchases
// by many users who have the balance for them, at BENCH_SOAK_RATE requests a second overall
// (300) for BENCH_SOAK_SECONDS (600), on BENCH_DATABASE_URL (a fresh memory:// PGlite when unset)
// with BENCH_WORKERS processes, by BENCH_SOAK_USERS buyers (20). The rate is offered in an open loop
// (scripts/bench/open-loop.mjs, docs/decisions/0064-soak-open-loop.md). Prints the RSS of the
// server (its workers included) every BENCH_SOAK_SAMPLE_SECONDS (10), each kind of request's p50
// and p99, the p99 overall, the 5xx and transport errors, and the CPU of the server (per answer
// too), of the load generator and of the machine, which say who held the rate down; passes when
// there are no errors, at least 95 % of the offered rate was served, and the RSS grew at most 10 %
// after the first minute (the first sample for runs shorter than two minutes, e.g. the short
// variant `BENCH_SOAK_SECONDS=20`).
import { readFileSync } from "node:fs";
import os from "node:os";
import { openLoop } from "./open-loop.mjs";
import { root } from "../build-state.mjs";
import { ensureBuild } from "../ensure-build.mjs";
import { cpuSeconds, freePort, startNode, stopAll, waitForOk } from "./processes.mjs";
import { DEMO_PRODUCT_ID, GUEST_PAGE_HEADERS, registerBenchUser, SERVER_ENV, topUp } from "./targets.mjs";

/* global fetch, setInterval, clearInterval */

const number = (name, fallback) => {
  const value = Number(process.env[name] || fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};

/** Resident memory of a process and its children (the cluster's workers), in MiB. */
function rssMiB(pid) {
  let kib = 0;
  try {
    kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) kib += rssMiB(Number(child)) * 1024;
  } catch {
    // gone
  }
  return kib / 1024;
}

/** Busy and total jiffies of the whole machine (all CPUs), from /proc/stat. */
function machineTicks() {
  try {
    const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/);
    const values = fields.map(Number);
    const idle = values[3] + (values[4] ?? 0);
    const total = values.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

export async function soak(out) {
  const seconds = number("BENCH_SOAK_SECONDS", 600);
  const rate = number("BENCH_SOAK_RATE", 300);
  const userCount = Math.round(number("BENCH_SOAK_USERS", 20));
  const sampleSeconds = number("BENCH_SOAK_SAMPLE_SECONDS", 10);
  const databaseUrl = process.env.BENCH_DATABASE_URL || "memory://";
  const workers = process.env.BENCH_WORKERS || "1";
  ensureBuild();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = startNode("server", ["scripts/start.mjs"], {
    cwd: root,
    env: { ...process.env, ...SERVER_ENV, PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: databaseUrl, WEB_CONCURRENCY: workers, LOG_LEVEL: "warn", NODE_ENV: "development" },
  });
  try {
    await waitForOk(server, `${url}/healthz`);
    out(`soak: ${seconds} s at ${rate} req/s overall, ${userCount} buyers, DATABASE_URL=${databaseUrl.replace(/\/\/[^@/]*@/, "//…@")}, WEB_CONCURRENCY=${workers}`);
    // Every buyer can pay for every purchase the soak may give them.
    const ctx = { urls: { server: url }, fetch };
    const perUser = Math.ceil((rate * seconds) / 4 / userCount) + 10;
    const users = [];
    // A few at a time: a hundred buyers one by one took a minute before the soak began.
    const buyer = async () => {
      const user = await registerBenchUser(ctx);
      await topUp(ctx, user.token, perUser * 199);
      users.push(user.token);
    };
    for (let i = 0; i < userCount; i += 5) await Promise.all(Array.from({ length: Math.min(5, userCount - i) }, buyer));
    out(`  ${userCount} buyers registered and topped up through the demo provider (${perUser} purchases' worth each)`);
    // Each kind turns through the buyers on its own: one shared turn gave every purchase to every
    // other buyer (the reads took the rest), who then ran out of balance halfway (409).
    const turns = { read: 0, purchase: 0 };
    const signedIn = (headers, kind) => ({ ...headers, Authorization: `Bearer ${users[turns[kind]++ % users.length]}` });
    const api = { Accept: "application/json", "Accept-Language": "en" };
    const kinds = [
      { name: "GET / (page cache)", request: () => ({ method: "GET", path: "/", headers: GUEST_PAGE_HEADERS }) },
      { name: "GET frontend/data (signed in)", request: () => ({ method: "GET", path: "/v2/web/frontend/data", headers: signedIn(api, "read") }) },
      { name: "GET /en/dota2 (page cache)", request: () => ({ method: "GET", path: "/en/dota2", headers: GUEST_PAGE_HEADERS }) },
      {
        name: "POST purchase",
        request: () => ({
          method: "POST",
          path: "/v2/web/user/purchase",
          headers: signedIn({ ...api, "Content-Type": "application/json" }, "purchase"),
          body: JSON.stringify({ product_id: DEMO_PRODUCT_ID }),
        }),
      },
    ];
    const samples = [];
    const started = Date.now();
    const serverCpuBefore = cpuSeconds(server.child.pid);
    const ownCpuBefore = process.cpuUsage();
    const machineBefore = machineTicks();
    const timer = setInterval(() => samples.push({ at: (Date.now() - started) / 1000, rss: rssMiB(server.child.pid) }), sampleSeconds * 1000);
    // An open loop (scripts/bench/open-loop.mjs): the rate is offered whatever the answers do.
    const result = await openLoop({ url, rate, seconds, kinds });
    clearInterval(timer);
    const elapsed = (Date.now() - started) / 1000;
    const serverCpuAfter = cpuSeconds(server.child.pid);
    const ownCpu = process.cpuUsage(ownCpuBefore);
    const machineAfter = machineTicks();
    for (const s of samples) out(`  RSS at ${String(Math.round(s.at)).padStart(4)} s: ${s.rss.toFixed(1)} MiB`);
    for (const k of result.kinds) {
      out(
        `  ${k.name.padEnd(30)} ${String(k.answered).padStart(7)} answers, p50 ${k.p50.toFixed(1)} ms, p99 ${k.p99.toFixed(1)} ms, status ${JSON.stringify(k.statuses)}` +
          (k.errors + k.timeouts ? `, transport errors ${k.errors} ${JSON.stringify(k.errorCodes)}, timeouts ${k.timeouts}` : "") +
          (k.resent ? `, sent again after a reset of a reused keep-alive connection ${k.resent}` : ""),
      );
    }
    // Who held the rate down: the server (its processes near a core each), the load generator (this
    // process near a core), or neither — then waits (the database, locks) or a machine busy with
    // other work, which the machine's own figure shows.
    const serverCores = serverCpuBefore !== null && serverCpuAfter !== null ? (serverCpuAfter - serverCpuBefore) / elapsed : NaN;
    const ownCores = (ownCpu.user + ownCpu.system) / 1e6 / elapsed;
    const machine = machineBefore && machineAfter ? (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total) : NaN;
    // The server's CPU per answer of this mix: 1000 / it is what one worker could serve on a whole core.
    const cpuPerAnswer = (serverCores * elapsed * 1000) / Math.max(1, result.answered);
    out(
      `  CPU during the load: server ${(serverCores * 100).toFixed(0)} % of one core (WEB_CONCURRENCY=${workers}: ${workers} core${workers === "1" ? "" : "s"} at most), ` +
        `${cpuPerAnswer.toFixed(2)} ms per answer (one worker on a whole core: ≈ ${Math.round(1000 / cpuPerAnswer)} req/s of this mix), ` +
        `load generator ${(ownCores * 100).toFixed(0)} % of one core, the whole machine ${(machine * 100).toFixed(0)} % busy of ${os.availableParallelism()} CPUs (PostgreSQL and other work included); ` +
        `load average ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(" ")}`,
    );
    const serverErrors = Object.entries(result.statuses).reduce((n, [code, count]) => n + (Number(code) >= 500 ? count : 0), 0);
    const base = samples.find((s) => s.at >= 60) ?? samples[0];
    const last = samples.at(-1);
    const growth = base && last ? last.rss / base.rss - 1 : NaN;
    out(
      `  ${result.sent} requests sent, ${result.answered} answered in ${result.elapsed.toFixed(1)} s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ` +
        `status ${JSON.stringify(result.statuses)}; at most ${result.maxInFlight} in flight` +
        (result.unanswered ? `; ${result.unanswered} unanswered 10 s after the last was sent (counted as timeouts)` : ""),
    );
    // The rate served: the answers over the time from the first request to the last answer. A
    // server that falls behind answers late, and the soak's time stretches past its length.
    const served = result.answered / result.elapsed;
    const rateOk = served >= rate * 0.95;
    out(`  ${rateOk ? "PASS" : "FAIL"}  soak rate: ${served.toFixed(0)} req/s served of ${rate} offered = ${((served / rate) * 100).toFixed(0)} % (≥ 95 %)`);
    const ok = rateOk && serverErrors === 0 && result.errors === 0 && result.timeouts === 0 && growth <= 0.1;
    out(
      `  ${ok ? "PASS" : "FAIL"}  soak: 5xx ${serverErrors}, transport errors ${result.errors} (timeouts ${result.timeouts}; ` +
        `GETs sent again after a reset of a reused keep-alive connection ${result.kinds.reduce((n, k) => n + k.resent, 0)}); RSS ${base?.rss.toFixed(1)} MiB at ${Math.round(base?.at ?? 0)} s → ` +
        `${last?.rss.toFixed(1)} MiB at the end = ${(growth * 100).toFixed(1)} % (≤ 10 %)`,
    );
    return ok;
  } finally {
    await stopAll(15_000);
  }
}
