// Lighthouse's performance score of the sign-in page (issue 13: ≥ 0.9), measured by the full bench
// after its load runs and by `npm run bench -- --lighthouse` alone. Lighthouse 12 (13 needs Node
// 22) with its default configuration: a phone on a slow 4G network and a 4× slower CPU, simulated
// from one real load in headless Chromium (scripts/chromium.mjs: CHROMIUM_PATH, else the system's,
// with the flags the browser tests use), so the score does not depend on how busy this machine is
// as much as the timings do. The bench's server has no reCAPTCHA key, so the page is measured
// without Google's widget script, which a shop with a key loads from Google's servers
// (docs/product/accounts.md#recaptcha).
import os from "node:os";
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../chromium.mjs";

/** The page and the score it must reach. */
export const LIGHTHOUSE_PAGE = { path: "/auth", name: "sign-in page /auth", atLeast: 0.9 };

/** Runs Lighthouse on the sign-in page of `serverUrl`, prints its PASS/FAIL line with `out`; true when it passes. */
export async function lighthouseVerdict(out, serverUrl) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: [...CHROMIUM_ARGS] });
  try {
    const result = await lighthouse(`${serverUrl}${LIGHTHOUSE_PAGE.path}`, { port: chrome.port, onlyCategories: ["performance"], logLevel: "error", output: "json" });
    const lhr = result?.lhr;
    const score = lhr?.categories.performance.score;
    if (typeof score !== "number") {
      out(`  FAIL  Lighthouse performance of the ${LIGHTHOUSE_PAGE.name}: no score (${lhr?.runtimeError?.message ?? "Lighthouse gave no result"})`);
      return false;
    }
    const metric = (id) => lhr.audits[id]?.displayValue?.replace(/\s+/g, " ") ?? "–";
    const ok = score >= LIGHTHOUSE_PAGE.atLeast;
    out(
      `  ${ok ? "PASS" : "FAIL"}  Lighthouse performance of the ${LIGHTHOUSE_PAGE.name} ≥ ${LIGHTHOUSE_PAGE.atLeast}: ${score.toFixed(2)} ` +
        `(Lighthouse ${lhr.lighthouseVersion}, ${lhr.configSettings.formFactor}, simulated throttling; FCP ${metric("first-contentful-paint")}, ` +
        `LCP ${metric("largest-contentful-paint")}, TBT ${metric("total-blocking-time")}, CLS ${metric("cumulative-layout-shift")}, SI ${metric("speed-index")}; ` +
        // Lighthouse simulates the phone from the wall times of the real load: on a busy machine the
        // page's tasks wait for a core, which the simulation multiplies by 4 as if it were work.
        `load average ${os.loadavg()[0].toFixed(2)})`,
    );
    return ok;
  } finally {
    await chrome.kill();
  }
}
