// What `npm run bench` measures. Add a target by adding an entry:
//   id       short unique name (verdicts refer to it)
//   name     the label in the table
//   base     "server" (the real shop), "ceiling" (baseline a) or "render" (baseline b)
//   path     request path (and query) on that base
//   method, headers, body   the request autocannon repeats (GET, {}, none by default)
//   setup    optional async (ctx) => ({ headers?, body?, method?, path? }), run once before the
//            first round, e.g. to sign in and send the session cookie; ctx = { urls, fetch }
//   expect   checks of the answer before measuring (status 200 is always required):
//            { contains?: string[], noSetCookie?: boolean, contentType?: string }

/** A returning guest: locale chosen (no redirect from "/"), visitor id set (no Set-Cookie). */
export const GUEST_PAGE_HEADERS = { Cookie: "locale=ru; t=AAAAAAAAAAAAAAAA", Accept: "text/html" };

/** Texts of the landing page that every landing target must contain. */
export const LANDING_TEXTS = ["Играйте увереннее"];

export const targets = [
  {
    id: "ceiling",
    name: "(a) landing, final HTML from memory (node:http)",
    base: "ceiling",
    path: "/",
    expect: { contains: LANDING_TEXTS },
  },
  {
    id: "render",
    name: "(b) landing, renderToString per request (node:http)",
    base: "render",
    path: "/",
    expect: { contains: LANDING_TEXTS },
  },
  {
    id: "landing-cached",
    name: "server: landing / (page cache)",
    base: "server",
    path: "/",
    headers: GUEST_PAGE_HEADERS,
    expect: { contains: LANDING_TEXTS, noSetCookie: true, contentType: "text/html" },
  },
  {
    // pages.ts caches only requests without a query string: this one is rendered every time.
    id: "landing-fresh",
    name: "server: landing /?fresh=1 (rendered)",
    base: "server",
    path: "/?fresh=1",
    headers: GUEST_PAGE_HEADERS,
    expect: { contains: LANDING_TEXTS, noSetCookie: true, contentType: "text/html" },
  },
  {
    id: "game-cached",
    name: "server: game /minecraft (page cache)",
    base: "server",
    path: "/minecraft",
    headers: GUEST_PAGE_HEADERS,
    expect: { contains: ["Minecraft"], noSetCookie: true, contentType: "text/html" },
  },
  {
    id: "frontend-data-guest",
    name: "server: GET /v2/web/frontend/data (guest)",
    base: "server",
    path: "/v2/web/frontend/data",
    headers: { Accept: "application/json", "Accept-Language": "ru" },
    expect: { contains: ['"cheats"'], noSetCookie: true, contentType: "application/json" },
  },
];

/** The verdicts of the performance issue; `of` is the target compared with. */
export const verdicts = [
  { kind: "ratio", target: "landing-fresh", of: "render", atLeast: 0.15, label: "landing rendered fresh ≥ 15% of (b) renderToString" },
  { kind: "ratio", target: "landing-cached", of: "ceiling", atLeast: 0.4, label: "landing from page cache ≥ 40% of (a) from memory" },
  { kind: "p99", target: "landing-cached", atMostMs: 50, label: "landing from page cache p99 ≤ 50 ms" },
];

/** Pages whose JavaScript and CSS are weighed (gzip); `jsBudgetKiB` makes a verdict. */
export const weighedPages = [
  { name: "landing /", path: "/", headers: GUEST_PAGE_HEADERS, jsBudgetKiB: 100 },
];

/** A page that hydrates (loads the client bundle), once one exists, e.g. "/user/transactions". */
export const hydratedPage = process.env.BENCH_HYDRATED_PATH
  ? { name: `hydrated ${process.env.BENCH_HYDRATED_PATH}`, path: process.env.BENCH_HYDRATED_PATH, headers: GUEST_PAGE_HEADERS, jsBudgetKiB: 100 }
  : null;
