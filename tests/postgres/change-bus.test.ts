// The change bus across processes (docs/product/operations.md#change-bus, issue 10 point 5): two
// app processes on one PostgreSQL — this test's shop, and a second one started as `npm start`
// starts it (scripts/start.mjs) on the same database. A price an owner changes through the API of
// the first is served by the second within 2 s — in its API and in its game page, which it had
// cached — and so are a hidden game and a new route rule. Polled, never slept: at most 2 s each.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../../core/shared/clock.ts";
import { formatMoney } from "../../i18n/format.ts";
import { GAMES, PRODUCTS, useShop } from "../kit/shop.ts";
import { makeOperator, type Operator } from "../integration/admin-kit.ts";

const root = path.resolve(import.meta.dirname, "../..");
const clock = manualClock(new Date("2026-07-01T00:00:00.000Z"));
const shop = useShop({ clock });
/** The time a change has to reach the other process (docs/product/back-office.md#catalogue). */
const WITHIN_MS = 2000;

let owner: Operator;
let port: number;
let stopPeer: () => Promise<void>;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  owner = await makeOperator(shop, clock, "owner");
  port = await freePort();
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: shop.database.url,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://localhost:${port}`,
      LOG_LEVEL: "warn",
      NODE_ENV: "development",
      JOBS_INTERVAL_SECONDS: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  stopPeer = async () => {
    child.kill("SIGTERM");
    await exited;
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the second process exited:\n${output}`);
    if (Date.now() > deadline) throw new Error(`the second process did not answer within 120 s:\n${output}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}, 180_000);

afterAll(async () => {
  await stopPeer?.();
});

const peer = (p: string, init?: RequestInit) => fetch(`http://127.0.0.1:${port}${p}`, { redirect: "manual", ...init });

/** Polls `check` until it holds; how long that took (ms). Fails after WITHIN_MS. */
async function within(check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > WITHIN_MS) throw new Error(`not seen on the other process within ${WITHIN_MS} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const peerPrice = async (productId: number) => {
  const data = (await (await peer("/v2/web/frontend/data")).json()) as { products: { id: number; price: number }[] };
  return data.products.find((p) => p.id === productId)?.price;
};

describe("two app processes on one PostgreSQL", () => {
  it("the other serves a new price within 2 s: its API and its cached game page", async () => {
    const product = PRODUCTS.dota2.days30;
    const newPrice = 1234;
    const shown = formatMoney(newPrice, "USD", "en");
    // The peer has the page in its cache (a guest's second request is a hit).
    for (let i = 0; i < 2; i++) expect(await (await peer("/en/dota2")).text()).not.toContain(shown);
    expect(await peerPrice(product.id)).toBe(product.price);

    const changed = await shop.call("PATCH", `/v2/admin/products/${product.id}`, { token: owner.token, json: { price: newPrice, reason: "price test" } });
    expect(changed.status, changed.text).toBe(200);
    const apiMs = await within(async () => (await peerPrice(product.id)) === newPrice);
    const pageMs = await within(async () => (await (await peer("/en/dota2")).text()).includes(shown));
    console.log(`change bus: price on the other process's API after ${apiMs} ms, on its page after ${pageMs} ms`);
  });

  it("a game hidden on one is gone from the other's pages, and a new route rule redirects there, each within 2 s", async () => {
    expect((await peer("/en/minecraft")).status).toBe(200);
    const hidden = await shop.call("PATCH", `/v2/admin/games/${GAMES.minecraft.id}`, { token: owner.token, json: { visible: false, reason: "hide" } });
    expect(hidden.status, hidden.text).toBe(200);
    await within(async () => (await peer("/en/minecraft")).status === 404);

    expect((await peer("/en/old-dota")).status).toBe(404);
    const rule = await shop.call("POST", "/v2/admin/route-rules", { token: owner.token, json: { from: "/en/old-dota", to: "/en/dota2", status: 301, reason: "old link" } });
    expect(rule.status, rule.text).toBe(200);
    await within(async () => {
      const reply = await peer("/en/old-dota");
      return reply.status === 301 && reply.headers.get("location") === "/en/dota2";
    });
  });
});
