// Lighthouse's performance score of the sign-in page (issue 13: ≥ 0.9), measured by the full bench
// before its load runs and by `npm run bench -- --lighthouse` alone. Lighthouse 12 (13 needs Node
// 22) with its default configuration: a phone on a slow 4G network and a 4× slower CPU, simulated
// from one real load in headless Chromium (scripts/chromium.mjs: CHROMIUM_PATH, else the system's,
// with the flags the browser tests use). The simulation multiplies the wall times of that real
// load, so a page task that waits for a busy core counts as work: one run's score scatters with
// the machine's load. Lighthouse's own advice on variance is the median of five runs on a quiet
// machine (the variability guide in Lighthouse's repository), which is what the verdict is: BENCH_LIGHTHOUSE_RUNS runs (5),
// each in a new browser, every run's score and Total Blocking Time printed, the median score
// judged. The bench's server has no reCAPTCHA key, so the page is measured without Google's widget
// script, which a shop with a key loads from Google's servers (docs/product/accounts.md#recaptcha).
import os from "node:os";
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../chromium.mjs";

/* global fetch */

/** The page and the score it must reach. */
export const LIGHTHOUSE_PAGE = { path: "/auth", name: "sign-in page /auth", atLeast: 0.9 };

const RUNS = (() => {
  const raw = process.env.BENCH_LIGHTHOUSE_RUNS;
  const value = raw ? Number(raw) : 5;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`BENCH_LIGHTHOUSE_RUNS must be a positive integer, not ${JSON.stringify(raw)}`);
  return value;
})();

const load = () => os.loadavg()[0].toFixed(2);

/** One Lighthouse run in a new browser: its report (lhr), or throws with Lighthouse's reason. */
async function oneRun(url) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: [...CHROMIUM_ARGS] });
  try {
    const result = await lighthouse(url, { port: chrome.port, onlyCategories: ["performance"], logLevel: "error", output: "json" });
    const lhr = result?.lhr;
    if (typeof lhr?.categories.performance.score !== "number") throw new Error(lhr?.runtimeError?.message ?? "Lighthouse gave no result");
    return lhr;
  } finally {
    await chrome.kill();
  }
}

/** An audit's display value with plain spaces, or "–". */
const shown = (lhr, id) => lhr.audits[id]?.displayValue?.replace(/\s+/g, " ") ?? "–";

/** The main thread's work of a run by Lighthouse's categories, the largest first (ms on the simulated phone). */
function mainThread(lhr) {
  const items = lhr.audits["mainthread-work-breakdown"]?.details?.items ?? [];
  return items
    .slice(0, 5)
    .map((item) => `${item.groupLabel ?? item.group} ${Math.round(item.duration)}`)
    .join(", ");
}

/**
 * Runs Lighthouse RUNS times on the sign-in page of `serverUrl`, printing each run's line with
 * `out` as it ends; returns { ok, line }: the verdict on the median score, for the caller to print
 * where its verdicts go.
 */
export async function measureLighthouse(out, serverUrl) {
  const url = `${serverUrl}${LIGHTHOUSE_PAGE.path}`;
  // The server's first render of the page compiles its code; Lighthouse measures the page, not that.
  await (await fetch(url, { headers: { Accept: "text/html" } })).arrayBuffer();
  const runs = [];
  for (let run = 1; run <= RUNS; run++) {
    let lhr;
    try {
      lhr = await oneRun(url);
    } catch (error) {
      const line = `Lighthouse performance of the ${LIGHTHOUSE_PAGE.name}: run ${run} gave no score (${error instanceof Error ? error.message : String(error)})`;
      return { ok: false, line };
    }
    runs.push(lhr);
    out(
      `  run ${run}/${RUNS}: ${lhr.categories.performance.score.toFixed(2)}  TBT ${shown(lhr, "total-blocking-time")}, FCP ${shown(lhr, "first-contentful-paint")}, ` +
        `LCP ${shown(lhr, "largest-contentful-paint")}; main thread (simulated ms) ${mainThread(lhr)}; load average ${load()}`,
    );
  }
  const scores = runs.map((lhr) => lhr.categories.performance.score).sort((a, b) => a - b);
  // An odd number of runs has a middle one; an even number takes the lower middle, never a score no run had.
  const median = scores[Math.floor((scores.length - 1) / 2)];
  const middle = runs.find((lhr) => lhr.categories.performance.score === median);
  const ok = median >= LIGHTHOUSE_PAGE.atLeast;
  const line =
    `Lighthouse performance of the ${LIGHTHOUSE_PAGE.name} ≥ ${LIGHTHOUSE_PAGE.atLeast}: median ${median.toFixed(2)} of ${RUNS} run${RUNS === 1 ? "" : "s"} ` +
    `(${scores.map((s) => s.toFixed(2)).join(", ")}; Lighthouse ${middle.lighthouseVersion}, ${middle.configSettings.formFactor}, simulated throttling; ` +
    `the median run: FCP ${shown(middle, "first-contentful-paint")}, LCP ${shown(middle, "largest-contentful-paint")}, TBT ${shown(middle, "total-blocking-time")}, ` +
    `CLS ${shown(middle, "cumulative-layout-shift")}, SI ${shown(middle, "speed-index")})`;
  return { ok, line };
}

/** `npm run bench -- --lighthouse`: the runs and the verdict line at once; true when it passes. */
export async function lighthouseVerdict(out, serverUrl) {
  const { ok, line } = await measureLighthouse(out, serverUrl);
  out(`  ${ok ? "PASS" : "FAIL"}  ${line}`);
  return ok;
}
