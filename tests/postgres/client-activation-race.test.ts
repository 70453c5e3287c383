// 200 parallel activations of one licence from 200 devices (issue 11): exactly one device is bound,
// every other call is refused with 409 device_limit (the licence's row lock counts the bound
// devices one activation at a time) or 429 rate_limited (30 activations an hour per key), and the
// heartbeat of the one bound device is entitled. PostgreSQL only: real parallel connections (a pool
// of 10) racing for the row, which PGlite's single connection cannot show.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { licenceDevices, subscriptions } from "../../db/schema/index.ts";
import { GAMES, PRODUCTS, registerUser, subscriptionOf, useShop } from "../kit/shop.ts";

const PARALLEL = 200;
const shop = useShop({ env: { RATE_CLIENT_ADDRESS: "100000/1m", RATE_CLIENT_ACTIVATE_KEY: "30/1h", DEVICE_LIMIT: "1" } });
/** The same race with the key's limit out of reach: all 200 meet at the lock. */
const unlimited = useShop({ env: { RATE_CLIENT_ADDRESS: "100000/1m", RATE_CLIENT_ACTIVATE_KEY: "100000/1h", DEVICE_LIMIT: "1" } });

async function licenceOf(target: typeof shop): Promise<string> {
  const user = await registerUser(target, { balance: 5000 });
  const bought = await target.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: PRODUCTS.dota2.days30.id } });
  expect(bought.status, bought.text).toBe(200);
  return subscriptionOf(bought, GAMES.dota2.id)!.licence_key;
}

async function race(target: typeof shop, key: string) {
  const started = performance.now();
  const replies = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => target.call("POST", "/v2/client/activate", { json: { key, hwid: `RACE-DEVICE-${i}`, client_version: "1.0.0" } })));
  const ms = performance.now() - started;
  const byStatus = new Map<number, number>();
  for (const reply of replies) byStatus.set(reply.status, (byStatus.get(reply.status) ?? 0) + 1);
  console.log(`${PARALLEL} parallel activations in ${Math.round(ms)} ms: ${JSON.stringify(Object.fromEntries(byStatus))}`);
  return { replies, byStatus };
}

async function boundDevices(target: typeof shop, key: string) {
  const [pass] = await target.services.db.select().from(subscriptions).where(eq(subscriptions.licenceKey, key));
  return target.services.db.select().from(licenceDevices).where(eq(licenceDevices.subscriptionId, pass!.id));
}

describe("parallel activations of one licence", () => {
  it(`${PARALLEL} devices at once: one bound, the rest 409 device_limit or 429 rate_limited`, async () => {
    const key = await licenceOf(shop);
    const { replies, byStatus } = await race(shop, key);
    expect(byStatus.get(200)).toBe(1);
    expect([...byStatus.keys()].sort()).toEqual([200, 409, 429]);
    // The key's limit let 30 through to the lock: one bound, 29 refused by the count.
    expect(byStatus.get(409)).toBe(29);
    for (const reply of replies.filter((r) => r.status === 409)) expect(reply.body.code).toBe("device_limit");
    for (const reply of replies.filter((r) => r.status === 429)) {
      expect(reply.body.code).toBe("rate_limited");
      expect(Number(reply.headers.get("retry-after"))).toBeGreaterThan(0);
    }

    const bound = await boundDevices(shop, key);
    expect(bound).toHaveLength(1);
    const winner = replies.find((r) => r.status === 200)!;
    const beat = await shop.call("POST", "/v2/client/heartbeat", { headers: { authorization: `Bearer ${winner.body.token}` } });
    expect(beat.status, beat.text).toBe(200);
    expect(JSON.parse(beat.body.entitlement.payload)).toMatchObject({ entitled: true, hwid: bound[0]!.hwidHash });
  });

  it(`${PARALLEL} devices at the lock (no key limit): one bound, ${PARALLEL - 1} device_limit`, async () => {
    const key = await licenceOf(unlimited);
    const { byStatus } = await race(unlimited, key);
    expect(Object.fromEntries(byStatus)).toEqual({ 200: 1, 409: PARALLEL - 1 });
    expect(await boundDevices(unlimited, key)).toHaveLength(1);
  });
});
