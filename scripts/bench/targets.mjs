// What `npm run bench` measures. Add a target by adding an entry:
//   id       short unique name (verdicts refer to it)
//   name     the label in the table
//   base     "server" (the real shop), "ceiling" (baseline a) or "render" (baseline b)
//   path     request path (and query) on that base
//   method, headers, body   the request autocannon repeats (GET, {}, none by default)
//   connections   optional: autocannon connections for this target (else BENCH_CONNECTIONS);
//            connectionsWhy says why (printed in the report's header)
//   setup    optional async (ctx) => ({ headers?, body?, method?, path?, sessions?, note?, skip? }), run once
//            before the first round, e.g. to sign in and send the session cookie; ctx = { urls,
//            fetch }. `note` is printed; `skip` (a reason) leaves the target out of the run and
//            says why in the report; `sessions` (Bearer tokens): connection i sends session i mod
//            their number.
//   expect   checks of the answer before measuring (status 200 is always required):
//            { contains?: string[], noSetCookie?: boolean, contentType?: string }
import { tsImport } from "tsx/esm/api";

/** The demo data by name (db/seed.ts): the demo user and the catalogue's fixed products. */
const { DEMO } = await tsImport("../../db/seed.ts", import.meta.url);

/**
 * Settings of the bench server (and the baselines' services), on top of the environment. The
 * limiters stay on but out of reach, so the sign-in target measures Argon2 and the seeding of the
 * 1,000 transactions is not refused: every sign-in attempt counts against the client address
 * (a success gives it back, but 50 in flight are counted), RATE_WRITE_* count the purchases and
 * the top-up, and one top-up of TOPUP_MAX covers all the purchases.
 */
export const SERVER_ENV = {
  RATE_LOGIN_IP: "1000000/1m",
  RATE_LOGIN_ACCOUNT: "1000000/1m",
  RATE_LOGIN_ACCOUNT_GLOBAL: "1000000/1m",
  RATE_WRITE_USER: "1000000/1m",
  RATE_WRITE_IP: "1000000/1m",
  // The soak registers its buyers (BENCH_SOAK_USERS) from one address, and on a PostgreSQL database
  // that outlives a run the counter remembers the earlier runs' buyers too.
  RATE_REGISTER_IP: "1000000/1h",
  TOPUP_MAX: "100000000",
  // The client API's own limits (docs/product/delivery.md#client-api): the heartbeat target is one token from one address.
  RATE_CLIENT_ACTIVATE_KEY: "1000000/1m",
  RATE_CLIENT_HEARTBEAT_TOKEN: "1000000/1s",
  RATE_CLIENT_ADDRESS: "1000000/1s",
};

/** A returning guest: locale chosen (no redirect from "/"), visitor id set (no Set-Cookie). */
export const GUEST_PAGE_HEADERS = { Cookie: "locale=ru; t=AAAAAAAAAAAAAAAA", Accept: "text/html" };

/** Texts of the landing page that every landing target must contain. */
export const LANDING_TEXTS = ["Играйте увереннее"];

/** The demo user of db/seed.ts (development data; no 2FA). */
const DEMO_LOGIN = { login: DEMO.user.email, password: DEMO.user.password };

/**
 * Sign-in costs one Argon2 verification (~60 ms of CPU) on the libuv thread pool. With 50
 * connections the server (one CPU when pinned) only queues them: p99 would be about
 * 50 × the service time, a figure of the load generator rather than of the shop.
 */
const LOGIN_CONNECTIONS = (() => {
  const raw = process.env.BENCH_LOGIN_CONNECTIONS;
  const value = raw ? Number(raw) : 4;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`BENCH_LOGIN_CONNECTIONS must be a positive integer, not ${JSON.stringify(raw)}`);
  return value;
})();

/**
 * Issue 13 compares the signed-in and the guest `frontend/data` at 10 connections (its p99 is at
 * 10): more only lengthens the queue in front of one process. BENCH_DATA_CONNECTIONS sets it.
 */
const DATA_CONNECTIONS = (() => {
  const raw = process.env.BENCH_DATA_CONNECTIONS;
  const value = raw ? Number(raw) : 10;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`BENCH_DATA_CONNECTIONS must be a positive integer, not ${JSON.stringify(raw)}`);
  return value;
})();
const DATA_CONNECTIONS_WHY = "issue 13 reports the signed-in answer's p99 at 10 connections, the guest answer alike for its CPU ratio. BENCH_DATA_CONNECTIONS sets it";

// ---- a signed-in user with 1,000 transactions ---------------------------------------------------
// There is no bulk API and the bench does not touch the database behind the server's back: the
// rows are made through the API, as a user would. Register → one top-up through the demo payment
// provider (order → its approval page /payment/demo, form intent=pay → capture) → purchases from
// the balance of a cheap product until the ledger holds TRANSACTIONS rows.

export const TRANSACTIONS = 1000;
const BENCH_PASSWORD = "bench horse battery 42";
const CHEAP_PRODUCT_ID = DEMO.products.minecraft.days1.id;
/** The cheap product the soak buys. */
export const DEMO_PRODUCT_ID = CHEAP_PRODUCT_ID;
const PAGE = 10;
const PAGE_50_SKIP = 49 * PAGE; // rows before page 50
const SEED_CONCURRENCY = 4;

class Skip extends Error {}

/** A JSON API call; anything but 200 with `status: true` throws. */
async function api(ctx, method, path, { token, body } = {}) {
  const headers = { Accept: "application/json", "Accept-Language": "ru" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await ctx.fetch(ctx.urls.server + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: "manual" });
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // reported below
  }
  if (response.status !== 200 || json?.status !== true) throw new Error(`${method} ${path}: HTTP ${response.status} ${text.slice(0, 300)}`);
  return json;
}

/** All of the user's transactions, newest first, 50 a call. */
async function allTransactions(ctx, token) {
  const rows = [];
  for (;;) {
    const { data } = await api(ctx, "GET", `/v2/web/user/transactions?limit=50&skip=${rows.length}`, { token });
    rows.push(...data);
    if (data.length < 50) return rows;
  }
}

/** A new user of the bench: registered through the API; { email, token }. */
export async function registerBenchUser(ctx) {
  const email = `bench-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const { token } = await api(ctx, "POST", "/v2/web/register", { body: { email, password: BENCH_PASSWORD } });
  return { email, token };
}

/** A top-up of `amount` through the demo provider: the order, approved on its page as the buyer would, then captured. */
export async function topUp(ctx, token, amount) {
  const order = await api(ctx, "POST", "/v2/web/payment/paypal/order", { token, body: { amount } });
  const approve = new URL(order.approve_url);
  if (approve.pathname !== "/payment/demo") {
    throw new Skip(`the top-up's approval page is ${approve.origin}${approve.pathname}, not the demo provider's /payment/demo (PayPal configured?)`);
  }
  const pageUrl = ctx.urls.server + approve.pathname + approve.search;
  // Pages sign in by the cookie only (docs/decisions/0004-pages-sign-in-by-cookie.md).
  const cookie = `access_token=${token}`;
  const page = await ctx.fetch(pageUrl, { headers: { Accept: "text/html", Cookie: cookie }, redirect: "manual" });
  const html = await page.text();
  if (page.status === 404) throw new Skip(`GET ${approve.pathname}${approve.search} answers 404: no demo approval page (app/routes/payment/demo.tsx) or the demo provider is off`);
  if (page.status !== 200) throw new Error(`GET ${pageUrl}: HTTP ${page.status}`);
  if (!/name="intent"[^>]*value="pay"|value="pay"[^>]*name="intent"/.test(html)) throw new Error(`GET ${pageUrl}: no button intent=pay in the page`);
  const approval = await ctx.fetch(pageUrl, {
    method: "POST",
    headers: { Cookie: cookie, Origin: ctx.urls.server, "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" },
    body: "intent=pay",
    redirect: "manual",
  });
  await approval.arrayBuffer();
  const location = approval.headers.get("location") ?? "";
  if (approval.status < 300 || approval.status > 399 || !location.includes("/payment/paypal?") || location.includes("cancel=1")) {
    throw new Error(`POST ${pageUrl} intent=pay: HTTP ${approval.status}${location ? ` → ${location}` : ""}, not the redirect to the return page`);
  }
  const captured = await api(ctx, "POST", "/v2/web/payment/paypal/capture", { token, body: { order_id: order.order_id } });
  if (captured.balance < amount) throw new Error(`after the top-up of ${amount} the balance is ${captured.balance}`);
}

async function seedUser(ctx) {
  const started = Date.now();
  const { email, token } = await registerBenchUser(ctx);

  const { products } = await api(ctx, "GET", "/v2/web/frontend/data", { token });
  const product = products.find((p) => p.id === CHEAP_PRODUCT_ID);
  if (!product) throw new Error(`product ${CHEAP_PRODUCT_ID} is not on sale in the bench client's shopping area`);
  const before = (await allTransactions(ctx, token)).length;
  const purchases = TRANSACTIONS - before - 1; // the top-up is a row too
  const amount = product.price * purchases;

  await topUp(ctx, token, amount);

  // The purchases, a few in flight at a time.
  let next = 0;
  const buyer = async () => {
    while (next < purchases) {
      next++;
      await api(ctx, "POST", "/v2/web/user/purchase", { token, body: { product_id: CHEAP_PRODUCT_ID } });
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, buyer));

  const rows = await allTransactions(ctx, token);
  if (rows.length !== TRANSACTIONS) throw new Error(`the bench user has ${rows.length} transactions, not ${TRANSACTIONS}`);
  // Page 50 by key starts after the 490th newest row; it must be the very page 50 by offset.
  const beforeId = rows[PAGE_50_SKIP - 1].id;
  const byOffset = (await api(ctx, "GET", `/v2/web/user/transactions?limit=${PAGE}&skip=${PAGE_50_SKIP}`, { token })).data.map((r) => r.id);
  const byKey = (await api(ctx, "GET", `/v2/web/user/transactions?limit=${PAGE}&before=${beforeId}`, { token })).data.map((r) => r.id);
  const expected = rows.slice(PAGE_50_SKIP, PAGE_50_SKIP + PAGE).map((r) => r.id);
  if (byOffset.join() !== expected.join() || byKey.join() !== expected.join()) {
    throw new Error(`page 50 differs: by offset [${byOffset}], by key [${byKey}], expected [${expected}]`);
  }
  // A session per connection of the signed-in data target, as that many browsers of the user would
  // have: each request's lookup reads a session row of its own.
  const sessions = [token];
  for (let i = 1; i < DATA_CONNECTIONS; i++) sessions.push((await api(ctx, "POST", "/v2/web/login", { body: { login: email, password: BENCH_PASSWORD } })).token);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return {
    token,
    sessions,
    beforeId,
    note:
      `bench user ${email}: ${TRANSACTIONS.toLocaleString("en-US")} transactions in ${seconds} s through the API (${before} at registration, 1 demo top-up of ${amount} ` +
      `approved on /payment/demo, ${purchases} purchases of product ${CHEAP_PRODUCT_ID} at ${product.price}); page 50 = rows ${PAGE_50_SKIP + 1}–${PAGE_50_SKIP + PAGE}, before=${beforeId}; ` +
      `${sessions.length} sessions of it (sign-ins), connection i of a signed-in target using session i mod ${sessions.length}`,
  };
}

let seeded = null;
/** The user, seeded once for all the targets that use it; { skip } when it cannot be made. */
function benchUser(ctx) {
  seeded ??= seedUser(ctx).catch((error) => {
    if (error instanceof Skip) return { skip: `${TRANSACTIONS}-transaction targets skipped: ${error.message}` };
    throw error;
  });
  return seeded;
}
let noted = false;
/** setup() of a signed-in target: the bearer token, and `extra` built from the user. */
const signedIn =
  (extra = () => ({})) =>
  async (ctx) => {
    const user = await benchUser(ctx);
    if (user.skip) return { skip: user.skip };
    const note = noted ? undefined : user.note;
    noted = true;
    return { headers: { Authorization: `Bearer ${user.token}`, Accept: "application/json", "Accept-Language": "ru" }, sessions: user.sessions, note, ...extra(user) };
  };
/**
 * setup() of the heartbeat target: a new buyer with one pass (a demo top-up, one purchase), its licence activated on one
 * device by the client API as a game client does; then every request is that client's heartbeat (Bearer client token).
 */
async function clientToken(ctx) {
  const email = `bench-client-${Date.now().toString(36)}@example.com`;
  const { token } = await api(ctx, "POST", "/v2/web/register", { body: { email, password: BENCH_PASSWORD } });
  const { products } = await api(ctx, "GET", "/v2/web/frontend/data", { token });
  const product = products.find((p) => p.id === CHEAP_PRODUCT_ID);
  if (!product) throw new Error(`product ${CHEAP_PRODUCT_ID} is not on sale in the bench client's shopping area`);
  try {
    await topUp(ctx, token, Math.max(product.price, 100));
  } catch (error) {
    if (error instanceof Skip) return { skip: `heartbeat skipped: ${error.message}` };
    throw error;
  }
  const bought = await api(ctx, "POST", "/v2/web/user/purchase", { token, body: { product_id: CHEAP_PRODUCT_ID } });
  const pass = bought.subscriptions.find((s) => s.cheat_id === product.cheat_id);
  if (!pass?.licence_key) throw new Error("the purchase answered no licence_key");
  const activated = await api(ctx, "POST", "/v2/client/activate", { body: { key: pass.licence_key, hwid: "bench-device-1", client_version: "bench" } });
  return {
    headers: { Authorization: `Bearer ${activated.token}`, Accept: "application/json" },
    note: `heartbeat: buyer ${email} with one pass of cheat ${product.cheat_id}, licence activated on one device; each request a signed entitlement`,
  };
}

const TRANSACTIONS_EXPECT = { contains: ['"data":[{"id":'], noSetCookie: true, contentType: "application/json" };

// The order is the order of every round: each verdict's target right after its baseline, so the
// two are measured back to back and a round's ratio compares them under the same load (decision
// 0074).
export const targets = [
  {
    id: "ceiling",
    name: "(a) landing, final HTML from memory (node:http)",
    base: "ceiling",
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
    id: "render",
    name: "(b) landing, renderToString per request (node:http)",
    base: "render",
    path: "/",
    expect: { contains: LANDING_TEXTS },
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
    id: "login",
    name: `server: POST /v2/web/login (demo user, ${LOGIN_CONNECTIONS} conn.)`,
    base: "server",
    path: "/v2/web/login",
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": "ru" },
    body: JSON.stringify(DEMO_LOGIN),
    connections: LOGIN_CONNECTIONS,
    connectionsWhy:
      "Argon2 (~60 ms of CPU a sign-in) runs on the 4 threads of libuv's pool; with 50 connections p99 would only measure the queue (≈ 50 × service time). BENCH_LOGIN_CONNECTIONS sets it",
    expect: { contains: ['"token":'], contentType: "application/json" },
  },
  {
    id: "tx-page1",
    name: "server: transactions page 1 (1,000 rows)",
    base: "server",
    path: `/v2/web/user/transactions?limit=${PAGE}`,
    setup: signedIn(),
    expect: TRANSACTIONS_EXPECT,
  },
  {
    id: "tx-page50-offset",
    name: "server: transactions page 50 by offset (skip=490)",
    base: "server",
    path: `/v2/web/user/transactions?limit=${PAGE}&skip=${PAGE_50_SKIP}`,
    setup: signedIn(),
    expect: TRANSACTIONS_EXPECT,
  },
  {
    id: "tx-page50-key",
    name: "server: transactions page 50 by key (before=id)",
    base: "server",
    setup: signedIn((user) => ({ path: `/v2/web/user/transactions?limit=${PAGE}&before=${user.beforeId}` })),
    expect: TRANSACTIONS_EXPECT,
  },
  {
    id: "frontend-data-guest",
    name: `server: GET /v2/web/frontend/data (guest, ${DATA_CONNECTIONS} conn.)`,
    base: "server",
    path: "/v2/web/frontend/data",
    connections: DATA_CONNECTIONS,
    connectionsWhy: DATA_CONNECTIONS_WHY,
    headers: { Accept: "application/json", "Accept-Language": "ru" },
    expect: { contains: ['"cheats"'], noSetCookie: true, contentType: "application/json" },
  },
  {
    id: "frontend-data-user",
    name: `server: GET /v2/web/frontend/data (signed in, ${DATA_CONNECTIONS} conn.)`,
    base: "server",
    path: "/v2/web/frontend/data",
    connections: DATA_CONNECTIONS,
    connectionsWhy: DATA_CONNECTIONS_WHY,
    setup: signedIn(),
    expect: { contains: ['"transactions":[{"id":', '"cheats"'], noSetCookie: true, contentType: "application/json" },
  },
  {
    id: "heartbeat",
    name: "server: POST /v2/client/heartbeat (signed entitlement)",
    base: "server",
    path: "/v2/client/heartbeat",
    method: "POST",
    setup: clientToken,
    expect: { contains: ['"entitled\\":true', '"signature":'], noSetCookie: true, contentType: "application/json" },
  },
];

/**
 * The verdicts of issue 13 (and issue 6's before it); `of` is the baseline target. Kinds: "ratio"
 * (req/s of target / req/s of `of` ≥ atLeast, the ratio by CPU per request beside it), "cpu-ratio"
 * (CPU per request of target / of `of` ≤ atMost, by database kind: the signed-in answer against the
 * guest one), "p99" (≤ atMostMs), "info" and "compare" (printed, no threshold). A ratio is the
 * median of the rounds' ratios (round r's target against round r's baseline), not a ratio of
 * medians: one round slowed by other work on the machine moves both of its sides.
 */
export const verdicts = [
  { kind: "ratio", target: "landing-fresh", of: "render", atLeast: 0.5, label: "landing rendered fresh ≥ 50% of (b) renderToString" },
  { kind: "ratio", target: "landing-cached", of: "ceiling", atLeast: 0.85, label: "landing from page cache ≥ 85% of (a) from memory" },
  { kind: "p99", target: "landing-cached", atMostMs: 50, label: "landing from page cache p99 ≤ 50 ms" },
  {
    kind: "cpu-ratio",
    target: "frontend-data-user",
    of: "frontend-data-guest",
    atMost: { postgres: 2.2, pglite: 5 },
    label: "signed-in frontend/data CPU per request vs the guest answer's",
  },
  { kind: "info", target: "frontend-data-user", label: "signed-in frontend/data (its p99 at these connections)" },
  // Informational (no threshold in the issue): printed as INFO, never FAIL.
  { kind: "info", target: "login", label: "sign-in of the demo user (Argon2)" },
  { kind: "info", target: "heartbeat", label: "client heartbeat (Ed25519-signed entitlement, docs/product/delivery.md#client-api)" },
  {
    kind: "compare",
    label: `transactions page 50 vs page 1 (${TRANSACTIONS.toLocaleString("en-US")} rows), req/s`,
    pairs: [
      { label: "by offset", target: "tx-page50-offset", of: "tx-page1" },
      { label: "by key", target: "tx-page50-key", of: "tx-page1" },
    ],
  },
];

/** The target measured against a second server with the other number of workers (1 vs 2), on PostgreSQL only. */
export const WORKERS_TARGET = "frontend-data-user";

/** Pages whose JavaScript and CSS are weighed (gzip); `jsBudgetKiB` makes a verdict. */
export const weighedPages = [{ name: "landing /", path: "/", headers: GUEST_PAGE_HEADERS, jsBudgetKiB: 100 }];

/**
 * Every page that hydrates, by its route id in the default language (scripts/bench/hydrated.mjs
 * finds them in the build; one missing here fails the bench): weighed against the framework's
 * floor + 10 KiB gzip. `signedIn`: with the session cookie of a new bench user. `optional`: a 404
 * skips it, for that reason. `extraKiB`: what the page may add on top (a chart library on its own
 * pages only; none hydrates today).
 */
export const HYDRATED_PAGES = [
  { route: "ru/profile", path: "/dota2/profile", signedIn: true },
  { route: "ru/subscription", path: "/dota2/profile/subscription", signedIn: true },
  { route: "ru/balance", path: "/dota2/profile/balance", signedIn: true },
  { route: "ru/referral", path: "/dota2/profile/referral", signedIn: true },
  { route: "ru/payment-paypal", path: "/payment/paypal", signedIn: true },
  { route: "ru/payment-btcpay", path: "/payment/btcpay", signedIn: true, optional: "BTCPay Server is not configured (BTCPAY_URL)" },
];

/** Hydrating routes that are never a page, and why. */
export const NOT_WEIGHED = {
  "ru/profile-redirect": "/profile only redirects to a game's profile (and takes the inbox's form post): never a page",
};
