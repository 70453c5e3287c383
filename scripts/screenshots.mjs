// Screenshots of every page for a look by eye (issue 9): in ru and en at 1440 and 390 px, in cn and
// hi at 390 px; signed out and signed in (the demo user). Starts its own shop (an in-memory
// database, a free port, the current build: `node scripts/ensure-build.mjs` first) unless
// BASE_URL names a running one, and writes full-page PNGs to test-results/screenshots/pages/
// (not committed). `node scripts/screenshots.mjs [--only ru,en] [--size 390]`
/* global fetch, navigator, document, window -- Node 20 has fetch; the rest run in the page (page.evaluate). */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(root, "test-results", "screenshots", "pages");
const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const only = option("--only")?.split(",");
const onlySize = option("--size");

const GUEST = [
  "/",
  "/presentation",
  "/dota2",
  "/minecraft",
  "/cs2",
  "/terms",
  "/privacy",
  "/refunds",
  "/support",
  "/no-such-page",
  "/auth",
  "/auth/register",
  "/auth/restore-password",
  "/auth/sso",
];
const USER = [
  "/dota2",
  "/dota2/profile",
  "/dota2/profile/subscription",
  "/dota2/profile/balance",
  "/dota2/profile/referral",
  "/dota2/profile/settings",
  "/dota2/profile/payment?product=3",
  "/give/subscription?game=dota2",
  "/payment/paypal?cancel=1",
  "/payment/paypal?token=none",
];
const PLAN = [
  { locale: "ru", sizes: [1440, 390] },
  { locale: "en", sizes: [1440, 390] },
  { locale: "cn", sizes: [390] },
  { locale: "hi", sizes: [390] },
].filter((p) => !only || only.includes(p.locale));

const localized = (locale, p) => (locale === "ru" ? p : p === "/" ? `/${locale}` : `/${locale}${p}`);
const fileName = (locale, state, p, size) => `${locale}-${state}-${p.replace(/^\//, "").replace(/[/?=&]+/g, "_") || "home"}-${size}.png`;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startShop() {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: "memory://", LOG_LEVEL: "warn", PUBLIC_URL: baseUrl, RECAPTCHA_SECRET: "", RECAPTCHA_SITE_KEY: "" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return { baseUrl, stop: () => child.kill("SIGTERM") };
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill("SIGKILL");
  throw new Error("the shop did not start within 2 minutes");
}

const shop = process.env.BASE_URL ? { baseUrl: process.env.BASE_URL, stop() {} } : await startShop();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
mkdirSync(OUT, { recursive: true });
let count = 0;
try {
  const probe = await browser.newPage();
  const userAgent = (await probe.evaluate(() => navigator.userAgent)).replace("HeadlessChrome", "Chrome");
  await probe.close();
  for (const { locale, sizes } of PLAN) {
    for (const size of sizes.filter((s) => !onlySize || String(s) === onlySize)) {
      const viewport = { width: size, height: size > 800 ? 900 : 844 };
      for (const state of ["guest", "user"]) {
        const context = await browser.newContext({ baseURL: shop.baseUrl, viewport, userAgent, isMobile: size < 800, hasTouch: size < 800, locale: locale === "cn" ? "zh-CN" : locale });
        const page = await context.newPage();
        if (state === "user") {
          await page.goto(localized(locale, "/auth"));
          await page.locator('input[name="login"]').fill("demo@example.com");
          await page.locator('input[name="password"]').fill("demo12345");
          await Promise.all([page.waitForURL((u) => u.pathname.endsWith("/profile")), page.locator('form button[type="submit"]').first().click()]);
        }
        for (const p of state === "guest" ? GUEST : USER) {
          await page.goto(localized(locale, p));
          await page.waitForLoadState("networkidle");
          // Lazy images (a game's illustrations) load only near the viewport: scroll through the
          // page first, so that the full-page picture shows them rather than empty frames.
          await page.evaluate(async () => {
            await document.fonts.ready;
            for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight) {
              window.scrollTo(0, y);
              await new Promise((r) => setTimeout(r, 50));
            }
            const pending = [...document.images].filter((img) => !img.complete);
            await Promise.all(pending.map((img) => new Promise((r) => ["load", "error"].forEach((k) => img.addEventListener(k, r, { once: true })))));
            window.scrollTo(0, 0);
          });
          await page.screenshot({ path: path.join(OUT, fileName(locale, state, p, size)), fullPage: true, animations: "disabled" });
          count += 1;
        }
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
  shop.stop();
}
console.log(`${count} screenshots in ${path.relative(process.cwd(), OUT)}`);
