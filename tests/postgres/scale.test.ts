// Several processes and hosts on one PostgreSQL (issue 13, docs/product/operations.md#several-processes-and-hosts): one
// `npm start` with WEB_CONCURRENCY=2 and a second, separate `npm start` begin at once on a fresh
// database (the start-up lock lets one migrate and seed while the other waits); both workers of the
// first answer; a session made on one process is good on the other and ended there; the sign-in
// limiter counts failures of both; an Idempotency-Key replayed on the other process buys nothing twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../kit/database.ts";
import { freePort, startShop, stopShop, waitHealthy, type ShopProcess } from "../kit/process.ts";
import { PRODUCTS } from "../kit/shop.ts";

const TOKEN = "metrics-token-0123456789";
let database: TestDatabase;
let ports: [number, number];
let shops: ShopProcess[] = [];

beforeAll(async () => {
  // Empty: both shops migrate and seed it, one after the other under the start-up lock.
  database = await createTestDatabase({ migrated: false });
  ports = [await freePort(), await freePort()];
  const env = { DATABASE_URL: database.url, METRICS_TOKEN: TOKEN, RATE_LOGIN_ACCOUNT: "3/15m", JOBS_INTERVAL_SECONDS: "2" };
  shops = [startShop({ ...env, PORT: String(ports[0]), WEB_CONCURRENCY: "2" }), startShop({ ...env, PORT: String(ports[1]) })];
  await Promise.all(shops.map((shop, i) => waitHealthy(ports[i]!, shop.exited)));
}, 120_000);

afterAll(async () => {
  const codes = await Promise.all(shops.map((shop) => stopShop(shop.child, shop.exited)));
  await database?.drop();
  expect(codes.map((c) => c.code)).toEqual([0, 0]);
}, 60_000);

const url = (i: 0 | 1, path: string) => `http://127.0.0.1:${ports[i]}${path}`;

async function call(i: 0 | 1, method: string, path: string, options: { token?: string; json?: unknown; headers?: Record<string, string> } = {}) {
  const response = await fetch(url(i, path), {
    method,
    headers: {
      ...(options.json !== undefined ? { "Content-Type": "application/json" } : {}),
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    body: options.json !== undefined ? JSON.stringify(options.json) : undefined,
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

const signIn = (i: 0 | 1, password = "demo12345") => call(i, "POST", "/v2/web/login", { json: { login: "demo@example.com", password } });

describe("two app processes and two hosts on one PostgreSQL", () => {
  it("both workers of WEB_CONCURRENCY=2 answer, each with its own metrics", async () => {
    const pids = new Set<string>();
    const deadline = Date.now() + 30_000;
    while (pids.size < 2 && Date.now() < deadline) {
      // A new connection each time: the primary hands connections to the workers in turn.
      const response = await fetch(url(0, "/metrics"), { headers: { Authorization: `Bearer ${TOKEN}`, Connection: "close" } });
      expect(response.status).toBe(200);
      const pid = /shop_process_info\{pid="(\d+)"\} 1/.exec(await response.text())?.[1];
      if (pid) pids.add(pid);
    }
    expect(pids.size).toBe(2);
    expect(pids.has(String(shops[0]!.child.pid))).toBe(false);
    const refused = await fetch(url(0, "/metrics"), { headers: { Authorization: "Bearer wrong-token-0123456789" } });
    expect(refused.status).toBe(401);
  });

  it("the catalogue was seeded once although both started at once", async () => {
    for (const i of [0, 1] as const) {
      const ready = await call(i, "GET", "/readyz");
      expect(ready.status, ready.text).toBe(200);
    }
    const pg = await import("pg");
    const client = new pg.default.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query("select email, count(*)::int as n from users group by email");
      expect(rows).toEqual([{ email: "demo@example.com", n: 1 }]);
    } finally {
      await client.end();
    }
  });

  it("a session made on one process works on the other, and a sign-out there ends it everywhere", async () => {
    const login = await signIn(1);
    expect(login.status, login.text).toBe(200);
    const token = String(login.json().token);
    const me = await call(0, "GET", "/v2/web/user/me", { token });
    expect(me.status, me.text).toBe(200);
    expect((me.json().user as { email: string }).email).toBe("demo@example.com");
    expect((await call(0, "POST", "/v2/web/logout", { token })).status).toBe(200);
    expect((await call(1, "GET", "/v2/web/user/me", { token })).status).toBe(401);
  });

  it("an Idempotency-Key replayed on the other process answers the first purchase and charges once", async () => {
    const token = String((await signIn(0)).json().token);
    const before = (await call(1, "GET", "/v2/web/user/me", { token })).json().user as { balance: number };
    const key = `scale-${Date.now()}`;
    const purchase = { json: { product_id: PRODUCTS.minecraft.days1.id }, token, headers: { "Idempotency-Key": key } };
    const first = await call(0, "POST", "/v2/web/user/purchase", purchase);
    expect(first.status, first.text).toBe(200);
    const again = await call(1, "POST", "/v2/web/user/purchase", purchase);
    expect(again.status).toBe(200);
    expect(again.json()).toEqual(first.json());
    const after = (await call(0, "GET", "/v2/web/user/me", { token })).json().user as { balance: number };
    expect(before.balance - after.balance).toBe(PRODUCTS.minecraft.days1.price);
  });

  it("the sign-in limiter counts the failures of both processes together", async () => {
    expect((await signIn(0, "wrong-password-1")).status).toBe(401);
    expect((await signIn(1, "wrong-password-2")).status).toBe(401);
    expect((await signIn(0, "wrong-password-3")).status).toBe(401);
    const limited = await signIn(1, "wrong-password-4");
    expect(limited.status, limited.text).toBe(429);
    expect(limited.json().code).toBe("rate_limited");
  });
});
