// /metrics (docs/product/operations.md#metrics): Prometheus text behind METRICS_TOKEN, requests counted by route
// pattern rather than raw path, payments by provider and result, the database pool.
import { describe, expect, it } from "vitest";
import { PRODUCTS, registerUser, useShop } from "../kit/shop.ts";

const TOKEN = "a-metrics-token-of-test";
const shop = useShop({ pages: true, env: { METRICS_TOKEN: TOKEN } });
const bare = useShop();

const scrape = (token = TOKEN) => shop.app.fetch(new Request("http://localhost/metrics", { headers: { Authorization: `Bearer ${token}` } }));

describe("/metrics", () => {
  it("is refused without the token, and absent without the setting", async () => {
    const refused = await scrape("not-the-token-at-all");
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await shop.app.fetch(new Request("http://localhost/metrics"))).status).toBe(401);
    expect((await bare.call("GET", "/metrics", { token: TOKEN })).status).toBe(404);
  });

  it("counts requests by route pattern, never by raw path, with latency histograms", async () => {
    const user = await registerUser(shop, { balance: 5000 });
    expect((await shop.call("GET", "/v2/web/frontend/data", { token: user.token })).status).toBe(200);
    for (const path of ["/en/dota2", "/en/minecraft", "/cs2"]) expect((await shop.app.fetch(new Request(`http://localhost${path}`))).status).toBe(200);
    const bought = await shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: PRODUCTS.cs2.days1.id } });
    expect(bought.status).toBe(200);
    const response = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(/shop_http_requests_total\{method="GET",route="\/v2\/web\/frontend\/data",status="200"\} 1\b/);
    expect(text).toMatch(/shop_http_requests_total\{method="GET",route="\/:game",status="200"\} 3\b/);
    expect(text).toMatch(/shop_http_requests_total\{method="POST",route="\/v2\/web\/user\/purchase",status="200"\} 1\b/);
    expect(text).toMatch(/shop_http_request_duration_seconds_bucket\{le="10",method="GET",route="\/:game"\} 3\b/);
    expect(text).not.toContain('route="/en/dota2"');
    expect(text).not.toContain('route="/dota2"');
    expect(text).toMatch(/shop_db_pool_connections\{state="max"\} \d+/);
  });

  it("counts payments at the provider by provider, operation and result", async () => {
    const user = await registerUser(shop);
    const order = await shop.call("POST", "/v2/web/payment/paypal/order", { token: user.token, json: { amount: 1000 } });
    expect(order.status, order.text).toBe(200);
    const text = await (await scrape()).text();
    expect(text).toMatch(/shop_payments_total\{provider="demo",operation="create",result="ok"\} 1\b/);
  });
});
