// The client API's limits (docs/product/delivery.md#client-api), on a manual clock with small numbers:
// activations per licence key (a guessed key counts too), heartbeats per client token, and every
// client call per client address (TRUST_PROXY: X-Forwarded-For names it), each answered 429
// rate_limited with Retry-After, each ending with its window; the web's write limit does not count
// the client's calls.
import { describe, expect, it } from "vitest";
import { manualClock } from "../../core/shared/clock.ts";
import { GAMES, PRODUCTS, registerUser, subscriptionOf, useShop, type Reply } from "../kit/shop.ts";

const clock = manualClock(new Date("2026-06-01T12:00:00.000Z"));
const shop = useShop({
  clock,
  env: {
    TRUST_PROXY: "1",
    RATE_CLIENT_ACTIVATE_KEY: "3/1h",
    RATE_CLIENT_HEARTBEAT_TOKEN: "4/1h",
    RATE_CLIENT_ADDRESS: "12/1m",
    // The web's own write limit, smaller than the client's: client calls must not count against it.
    RATE_WRITE_IP: "5/1m",
  },
});

let address = 0;
/** A client address of its own for each test, so that the per-address counter starts at zero. */
const nextAddress = () => `198.51.100.${++address}`;

function client(ip: string, method: "GET" | "POST", path: string, o: { json?: unknown; token?: string } = {}): Promise<Reply> {
  return shop.call(method, path, { json: o.json, headers: { "x-forwarded-for": ip, ...(o.token ? { authorization: `Bearer ${o.token}` } : {}) } });
}

async function licence(ip: string): Promise<string> {
  const user = await registerUser(shop, { balance: 5000, ip });
  const bought = await shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: PRODUCTS.dota2.days7.id }, headers: { "x-forwarded-for": ip } });
  expect(bought.status, bought.text).toBe(200);
  return subscriptionOf(bought, GAMES.dota2.id)!.licence_key;
}

function expectLimited(reply: Reply) {
  expect(reply.status, reply.text).toBe(429);
  expect(reply.body.code).toBe("rate_limited");
  expect(Number(reply.headers.get("retry-after"))).toBeGreaterThan(0);
}

describe("client limits", () => {
  it("activations per key: the fourth within the hour is refused, another key is not, and the hour ends", async () => {
    const key = await licence(nextAddress());
    const other = await licence(nextAddress());
    const ip = nextAddress();
    for (let i = 0; i < 3; i++) expect((await client(ip, "POST", "/v2/client/activate", { json: { key, hwid: "PC-LIMIT" } })).status).toBe(200);
    const refused = await client(ip, "POST", "/v2/client/activate", { json: { key, hwid: "PC-LIMIT" } });
    expectLimited(refused);
    expect(Number(refused.headers.get("retry-after"))).toBe(3600);
    expect((await client(ip, "POST", "/v2/client/activate", { json: { key: other, hwid: "PC-LIMIT" } })).status).toBe(200);
    // A guessed key is counted like any other: guessing one key again and again meets the same wall.
    const guess = "11111111-2222-4333-8444-555555555555";
    for (let i = 0; i < 3; i++) expect((await client(nextAddress(), "POST", "/v2/client/activate", { json: { key: guess, hwid: "PC-GUESS" } })).body.code).toBe("invalid_key");
    expectLimited(await client(nextAddress(), "POST", "/v2/client/activate", { json: { key: guess, hwid: "PC-GUESS" } }));
    clock.advance(3600_000);
    expect((await client(nextAddress(), "POST", "/v2/client/activate", { json: { key, hwid: "PC-LIMIT" } })).status).toBe(200);
  });

  it("heartbeats per token: the fifth within the hour is refused, another device's token is not", async () => {
    const key = await licence(nextAddress());
    const other = await licence(nextAddress());
    const first = await client(nextAddress(), "POST", "/v2/client/activate", { json: { key, hwid: "PC-BEAT" } });
    const second = await client(nextAddress(), "POST", "/v2/client/activate", { json: { key: other, hwid: "PC-BEAT" } });
    const ip = nextAddress();
    for (let i = 0; i < 4; i++) expect((await client(ip, "POST", "/v2/client/heartbeat", { token: first.body.token })).status).toBe(200);
    expectLimited(await client(ip, "POST", "/v2/client/heartbeat", { token: first.body.token }));
    expect((await client(ip, "POST", "/v2/client/heartbeat", { token: second.body.token })).status).toBe(200);
  });

  it("every client call per address: the thirteenth within the minute is refused, whatever it is; another address is not", async () => {
    const ip = nextAddress();
    for (let i = 0; i < 12; i++) {
      const reply = i % 2 ? await client(ip, "GET", "/v2/client/public-key") : await client(ip, "POST", "/v2/client/activate", { json: { key: `nope-${i}`, hwid: "x" } });
      expect(reply.status).not.toBe(429);
    }
    expectLimited(await client(ip, "GET", "/v2/client/public-key"));
    expectLimited(await client(ip, "POST", "/v2/client/heartbeat", { token: "A".repeat(43) }));
    expect((await client(nextAddress(), "GET", "/v2/client/public-key")).status).toBe(200);
    clock.advance(60_000);
    expect((await client(ip, "GET", "/v2/client/public-key")).status).toBe(200);
  });
});
