// `npm run bench -- --soak`: the shop under a fixed mixed rate for a long time (issue 13): guest
// pages (landing and a game page from the page cache), signed-in `frontend/data` and purchases
// by many users who have the balance for them, at BENCH_SOAK_RATE requests a second overall
// (300) for BENCH_SOAK_SECONDS (600), on BENCH_DATABASE_URL (a fresh memory:// PGlite when unset)
// with BENCH_WORKERS processes. Prints the RSS of the server (its workers included) every
// BENCH_SOAK_SAMPLE_SECONDS (10), the p99, the 5xx and transport errors; passes when there are none,
// at least 95 % of the offered rate was served, and the RSS grew at most 10 % after the first minute (the first sample for runs shorter than
// two minutes, e.g. the short variant `BENCH_SOAK_SECONDS=20`).
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { root } from "../build-state.mjs";
import { ensureBuild } from "../ensure-build.mjs";
import { freePort, startNode, stopAll, waitForOk } from "./processes.mjs";
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
    for (let i = 0; i < userCount; i++) {
      const user = await registerBenchUser(ctx);
      await topUp(ctx, user.token, perUser * 199);
      users.push(user.token);
    }
    out(`  ${userCount} buyers registered and topped up through the demo provider (${perUser} purchases' worth each)`);
    let turn = 0;
    const signed = (request) => ({ ...request, headers: { ...request.headers, Authorization: `Bearer ${users[turn++ % users.length]}` } });
    const api = { Accept: "application/json", "Accept-Language": "en" };
    const samples = [];
    const started = Date.now();
    const timer = setInterval(() => samples.push({ at: (Date.now() - started) / 1000, rss: rssMiB(server.child.pid) }), sampleSeconds * 1000);
    const result = await autocannon({
      url,
      // Enough connections that a slow answer does not hold the offered rate down (autocannon is a
      // closed loop: 20 connections at 150 ms each can carry only ~130 req/s).
      connections: Math.max(20, Math.ceil(rate / 5)),
      overallRate: rate,
      duration: seconds,
      requests: [
        { method: "GET", path: "/", headers: GUEST_PAGE_HEADERS },
        { method: "GET", path: "/v2/web/frontend/data", headers: api, setupRequest: signed },
        { method: "GET", path: "/en/dota2", headers: GUEST_PAGE_HEADERS },
        { method: "POST", path: "/v2/web/user/purchase", headers: { ...api, "Content-Type": "application/json" }, body: JSON.stringify({ product_id: DEMO_PRODUCT_ID }), setupRequest: signed },
      ],
    });
    clearInterval(timer);
    for (const s of samples) out(`  RSS at ${String(Math.round(s.at)).padStart(4)} s: ${s.rss.toFixed(1)} MiB`);
    const codes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, Number(s.count)]));
    const serverErrors = Object.entries(codes).reduce((n, [code, count]) => n + (Number(code) >= 500 ? count : 0), 0);
    const base = samples.find((s) => s.at >= 60) ?? samples[0];
    const last = samples.at(-1);
    const growth = base && last ? last.rss / base.rss - 1 : NaN;
    out(`  ${result.requests.total} requests, ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, status ${JSON.stringify(codes)}`);
    // The rate served, against the rate offered: a soak that only reached part of it proves less.
    const served = result.requests.total / seconds;
    const rateOk = served >= rate * 0.95;
    out(`  ${rateOk ? "PASS" : "FAIL"}  soak rate: ${served.toFixed(0)} req/s served of ${rate} offered = ${((served / rate) * 100).toFixed(0)} % (≥ 95 %)`);
    const ok = rateOk && serverErrors === 0 && result.errors === 0 && result.timeouts === 0 && growth <= 0.1;
    out(
      `  ${ok ? "PASS" : "FAIL"}  soak: 5xx ${serverErrors}, transport errors ${result.errors} (timeouts ${result.timeouts}); RSS ${base?.rss.toFixed(1)} MiB at ${Math.round(base?.at ?? 0)} s → ` +
        `${last?.rss.toFixed(1)} MiB at the end = ${(growth * 100).toFixed(1)} % (≤ 10 %)`,
    );
    return ok;
  } finally {
    await stopAll(15_000);
  }
}
