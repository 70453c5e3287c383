// A stuck database (issue 7, point 12): no request hangs on it. A purchase blocked behind a row
// lock is cancelled by DB_STATEMENT_TIMEOUT_MS and answers 503; a server that freezes while the
// purchase commits (a proxy stops passing bytes) is given up by the client and answers 503 too.
// Either way the retry with the same Idempotency-Key returns the answer of whatever did commit:
// the purchase runs once, the balance is charged once. PostgreSQL only (PGlite is in-process and
// cannot freeze apart from the app): tests/postgres/ runs in the postgres project alone.
import pg from "pg";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transactions, users } from "../../db/schema/index.ts";
import { DEMO } from "../../db/seed.ts";
import { startTestApp, type TestApp } from "../kit/app.ts";
import { startFreezeProxy, type FreezeProxy } from "../kit/freeze-proxy.ts";

const TIMEOUT_MS = 1000;

describe("a stuck PostgreSQL", () => {
  let shop: TestApp & { stop(): Promise<void> };
  let proxy: FreezeProxy;
  let directUrl = "";

  beforeAll(async () => {
    shop = await startTestApp({
      pages: false,
      env: { DB_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS), RATE_WRITE_USER: "10000/1m", RATE_WRITE_IP: "10000/1m", RATE_REGISTER_IP: "10000/1h" },
      databaseUrl: async (url) => {
        directUrl = url;
        proxy = await startFreezeProxy(url);
        return proxy.url;
      },
    });
  });

  afterAll(async () => {
    proxy?.thaw();
    await shop?.stop();
    await proxy?.stop();
  });

  let serial = 0;
  async function buyer(balance: number) {
    const email = `stuck-${process.pid}-${Date.now()}-${++serial}@example.com`;
    const res = await shop.request("/v2/web/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password: "Quartz-Lantern-42" }) });
    expect(res.status).toBe(200);
    const token = ((await res.json()) as { token: string }).token;
    const [user] = await shop.services.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    await shop.services.db.transaction((tx) => shop.services.ledger.post(tx, { userId: user!.id, type: "topup", amount: balance, paid: balance, source: "system" }, new Date()));
    return { id: user!.id, token };
  }

  const purchase = async (token: string, key: string) => {
    const res = await shop.request("/v2/web/user/purchase", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "idempotency-key": key, "accept-language": "en" },
      body: JSON.stringify({ product_id: DEMO.products.dota2.days1.id }),
    });
    return { status: res.status, replayed: res.headers.get("idempotent-replayed"), body: (await res.json()) as Record<string, unknown> };
  };

  const purchasesOf = async (userId: number) => (await shop.services.db.select().from(transactions).where(eq(transactions.userId, userId))).filter((t) => t.type === "purchase");
  const balanceOf = async (userId: number) => (await shop.services.db.select({ balance: users.balance }).from(users).where(eq(users.id, userId)))[0]!.balance;

  it("answers 503 when a purchase waits on a row lock past the timeout; the retry after the lock goes runs it once", async () => {
    const user = await buyer(1000);
    const locker = new pg.Client({ connectionString: directUrl });
    await locker.connect();
    try {
      await locker.query("begin");
      await locker.query("select id from users where id = $1 for update", [user.id]);
      const blocked = await purchase(user.token, "lock-1");
      expect(blocked.status).toBe(503);
      expect(blocked.body).toMatchObject({ status: false, code: "unavailable" });
      expect(await purchasesOf(user.id)).toHaveLength(0);
    } finally {
      await locker.query("rollback");
      await locker.end();
    }
    const retry = await purchase(user.token, "lock-1");
    expect(retry.status).toBe(200);
    expect(retry.replayed).toBeNull();
    const again = await purchase(user.token, "lock-1");
    expect(again.status).toBe(200);
    expect(again.replayed).toBe("true");
    expect(again.body).toEqual(retry.body);
    expect(await purchasesOf(user.id)).toHaveLength(1);
    expect(await balanceOf(user.id)).toBe(1000 - 199);
  });

  it("answers 503 when the server freezes while the purchase commits; the retry returns the committed answer", async () => {
    const user = await buyer(1000);
    proxy.freezeAfter(/\bcommit\b/i);
    const frozen = await purchase(user.token, "freeze-1");
    expect(proxy.frozenByCommand).toBe(true);
    expect(frozen.status).toBe(503);
    expect(frozen.body).toMatchObject({ status: false, code: "unavailable" });
    proxy.thaw();

    const retry = await purchase(user.token, "freeze-1");
    expect(retry.status).toBe(200);
    expect(retry.replayed).toBe("true");
    expect(retry.body).toMatchObject({ status: true, balance: 1000 - 199, transaction: { type: "purchase", amount: -199 } });
    expect(await purchasesOf(user.id)).toHaveLength(1);
    expect(await balanceOf(user.id)).toBe(1000 - 199);
    // The shop serves again on fresh connections.
    expect((await shop.request("/healthz")).status).toBe(200);
  });
});
