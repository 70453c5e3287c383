// The headless Chromium every tool of this repository launches: the browser journeys
// (e2e/fixtures/browser.ts), the screenshots (scripts/screenshots.mjs) and Lighthouse
// (scripts/bench/lighthouse.mjs). One list of flags, so that what the tests see and what the
// bench measures is the same browser.

/** The executable: CHROMIUM_PATH, else the system's. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/**
 * Headless, no sandbox (containers run as root), no GPU, and none of Chromium's own background
 * traffic (QUIC probes, component and sync updates), which would otherwise share the network and
 * the CPU with the page.
 */
export const CHROMIUM_ARGS = Object.freeze([
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
]);
