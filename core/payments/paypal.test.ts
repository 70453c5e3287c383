// The PayPal REST client against the loopback PayPal: OAuth token caching and renewal, orders with
// PayPal-Request-Id, captures (twice, unapproved), webhook signatures, errors and timeouts.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startPayPalKit, type PayPalKit } from "../../tests/kit/paypal.ts";
import { createPayPal } from "./paypal.ts";
import { ProviderError, type CreateOrderInput, type PaymentProvider } from "./provider.ts";

let kit: PayPalKit;
let time = 1_000_000;
let paypal: PaymentProvider;

const input = (requestId: string, value = "19.99"): CreateOrderInput => ({
  requestId,
  referenceId: "42",
  amount: { value, currency: "USD" },
  description: "Dota 2 · 30d",
  returnUrl: "http://shop.test/en/payment/paypal",
  cancelUrl: "http://shop.test/en/payment/paypal?cancel=1",
});

beforeAll(async () => {
  kit = await startPayPalKit();
});
afterAll(async () => {
  await kit.stop();
});
beforeEach(() => {
  kit.reset();
  kit.tokenLifetime = 32_400;
  paypal = createPayPal({ clientId: kit.clientId, clientSecret: kit.clientSecret, apiBase: `${kit.url}/`, webhookId: kit.webhookId, timeoutMs: 1000, now: () => time });
});

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe("OAuth token", () => {
  it("is fetched once with Basic auth and reused until a minute before it expires", async () => {
    kit.tokenLifetime = 300;
    const before = kit.tokenCalls;
    await paypal.createOrder(input("tok-1"));
    await paypal.createOrder(input("tok-2"));
    const orderId = (await paypal.createOrder(input("tok-3"))).id;
    await paypal.getOrder(orderId);
    expect(kit.tokenCalls).toBe(before + 1);
    const tokenCall = kit.requestsTo(/oauth2\/token/).at(-1)!;
    expect(tokenCall.headers.authorization).toBe(`Basic ${Buffer.from(`${kit.clientId}:${kit.clientSecret}`).toString("base64")}`);
    expect(tokenCall.body).toBe("grant_type=client_credentials");
    time += 239_000; // 300 s lifetime, renewed 60 s early
    await paypal.getOrder(orderId);
    expect(kit.tokenCalls).toBe(before + 1);
    time += 2_000;
    await paypal.getOrder(orderId);
    expect(kit.tokenCalls).toBe(before + 2);
  });

  it("a token PayPal no longer accepts is dropped: that call fails, the next gets a new token", async () => {
    const { id } = await paypal.createOrder(input("revoke-1"));
    const before = kit.tokenCalls;
    kit.revokeTokens();
    const error = await rejection(paypal.getOrder(id));
    expect(error.status).toBe(401);
    expect((await paypal.getOrder(id)).orderId).toBe(id);
    expect(kit.tokenCalls).toBe(before + 1);
  });

  it("wrong credentials → ProviderError", async () => {
    const wrong = createPayPal({ clientId: kit.clientId, clientSecret: "nope", apiBase: kit.url, timeoutMs: 2000 });
    const error = await rejection(wrong.createOrder(input("wrong-1")));
    expect(error.status).toBe(401);
    expect(error.message).toContain("token");
  });
});

describe("orders", () => {
  it("creates an order with the PayPal-Request-Id: the same id is the same order; the approve link is taken from either rel", async () => {
    const first = await paypal.createOrder(input("same-id"));
    expect(first.status).toBe("CREATED");
    expect(first.approveUrl).toBe(`https://www.sandbox.paypal.com/checkoutnow?token=${first.id}`);
    const sent = kit.requestsTo(/^POST \/v2\/checkout\/orders$/).at(-1)!;
    expect(sent.requestId).toBe("same-id");
    expect(sent.body).toMatchObject({
      intent: "CAPTURE",
      purchase_units: [{ reference_id: "42", custom_id: "42", amount: { currency_code: "USD", value: "19.99" } }],
      payment_source: { paypal: { experience_context: { return_url: "http://shop.test/en/payment/paypal" } } },
    });
    expect((await paypal.createOrder(input("same-id"))).id).toBe(first.id);
    kit.approveRel = "approve";
    expect((await paypal.createOrder(input("other-id"))).approveUrl).toContain("checkoutnow");
  });

  it("captures an approved order once; a second capture reads the order and reports the same capture", async () => {
    const { id } = await paypal.createOrder(input("cap-1", "7.99"));
    const early = await rejection(paypal.captureOrder(id, "cap-1-capture"));
    expect(early.issue).toBe("ORDER_NOT_APPROVED");
    expect(early.status).toBe(422);
    kit.approve(id, { payerId: "PAYERKIT0001" });
    const capture = await paypal.captureOrder(id, "cap-1-capture");
    expect(capture).toEqual({
      orderId: id,
      status: "COMPLETED",
      captureId: kit.orders.get(id)!.capture!.id,
      amount: { value: "7.99", currency: "USD" },
      referenceId: "42",
      payerId: "PAYERKIT0001",
    });
    expect(kit.requestsTo(/capture$/).at(-1)!.requestId).toBe("cap-1-capture");
    const again = await paypal.captureOrder(id, "cap-1-capture");
    expect(again).toEqual(capture);
    expect(kit.requestsTo(/capture$/).at(-1)!.answered).toBe(422);
  });

  it("an unknown order → ProviderError 404", async () => {
    const error = await rejection(paypal.getOrder("NOPE"));
    expect(error.status).toBe(404);
    expect(error.issue).toBe("INVALID_RESOURCE_ID");
  });

  it("a 500 → ProviderError with the status; no answer → ProviderError after the timeout", async () => {
    kit.failNext(1, /^POST \/v2\/checkout\/orders$/);
    const failed = await rejection(paypal.createOrder(input("err-1")));
    expect(failed.status).toBe(500);
    kit.hangNext(1, /^POST \/v2\/checkout\/orders$/);
    const started = Date.now();
    const silent = await rejection(paypal.createOrder(input("err-2")));
    expect(silent.message).toBe("PayPal did not answer in time");
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await paypal.createOrder(input("err-2"))).id).toBeTruthy();
  });

  it("an unreachable PayPal → ProviderError", async () => {
    const gone = createPayPal({ clientId: "a", clientSecret: "b", apiBase: "http://127.0.0.1:9", timeoutMs: 2000 });
    const error = await rejection(gone.createOrder(input("gone-1")));
    expect(error.message).toMatch(/unreachable|in time/);
  });
});

describe("webhook signatures, checked here (issue 7, point 13)", () => {
  const body = JSON.stringify({ id: "WH-1", event_type: "PAYMENT.CAPTURE.COMPLETED", resource: { id: "CAP-1" } });
  const certCalls = () => kit.requestsTo(/^GET \/v1\/notifications\/certs\//).length;
  const apiCalls = () => kit.requests.filter((r) => !r.path.startsWith("/v1/notifications/certs/")).length;

  it("accepts PayPal's signature over the raw body with the certificate fetched once, and never calls PayPal's API", async () => {
    const api = apiCalls();
    const certs = certCalls();
    expect(await paypal.verifyWebhook(kit.webhookHeaders(body), body)).toBe(true);
    expect(await paypal.verifyWebhook(kit.webhookHeaders(body), body)).toBe(true);
    expect(certCalls()).toBe(certs + 1);
    expect(apiCalls()).toBe(api);
    expect(kit.requestsTo(/verify-webhook-signature/)).toHaveLength(0);
  });

  it("refuses a forged signature, another body, or another webhook id", async () => {
    const headers = kit.webhookHeaders(body);
    expect(await paypal.verifyWebhook(headers, body.replace("CAP-1", "CAP-2"))).toBe(false);
    expect(await paypal.verifyWebhook(headers, `${body} `)).toBe(false);
    const other = createPayPal({ clientId: kit.clientId, clientSecret: kit.clientSecret, apiBase: kit.url, webhookId: "WH-OTHER", timeoutMs: 1000 });
    expect(await other.verifyWebhook(headers, body)).toBe(false);
    kit.verification = "FAILURE";
    expect(await paypal.verifyWebhook(kit.webhookHeaders(body), body)).toBe(false);
    expect(await paypal.verifyWebhook({ ...headers, "paypal-transmission-sig": Buffer.alloc(256, 7).toString("base64") }, body)).toBe(false);
  });

  it("refuses without any call: missing or malformed headers, no webhook id, a certificate URL off PayPal's hosts", async () => {
    const stranger = createServer((_req, res) => res.end("-----BEGIN CERTIFICATE-----"));
    await new Promise<void>((resolve) => stranger.listen(0, "127.0.0.1", resolve));
    let strangerCalls = 0;
    stranger.on("request", () => strangerCalls++);
    const strangerUrl = `http://127.0.0.1:${(stranger.address() as AddressInfo).port}`;
    try {
      const before = kit.requests.length;
      const good = kit.webhookHeaders(body);
      const variants: Record<string, string | undefined>[] = [
        { ...good, "paypal-transmission-sig": undefined },
        { ...good, "paypal-auth-algo": "SHA1withRSA" },
        { ...good, "paypal-transmission-time": "yesterday" },
        { ...good, "paypal-transmission-id": "x".repeat(200) },
        { ...good, "paypal-transmission-sig": "not base64 !" },
        { ...good, "paypal-cert-url": `${strangerUrl}/v1/notifications/certs/CERT-KIT` },
        { ...good, "paypal-cert-url": "http://api.paypal.com/v1/notifications/certs/CERT-1" },
        { ...good, "paypal-cert-url": "https://api.paypal.com.evil.test/v1/notifications/certs/CERT-1" },
        { ...good, "paypal-cert-url": "https://api.paypal.com:8443/v1/notifications/certs/CERT-1" },
        { ...good, "paypal-cert-url": "https://user@api.paypal.com/v1/notifications/certs/CERT-1" },
        { ...good, "paypal-cert-url": `${kit.url}/v1/oauth2/token` },
        { ...good, "paypal-cert-url": `${kit.url}/v1/notifications/certs/CERT-KIT?x=1` },
        { ...good, "paypal-cert-url": "not a url" },
      ];
      for (const headers of variants) expect(await paypal.verifyWebhook(headers, body), JSON.stringify(headers)).toBe(false);
      const noId = createPayPal({ clientId: kit.clientId, clientSecret: kit.clientSecret, apiBase: kit.url, timeoutMs: 1000 });
      expect(await noId.verifyWebhook(good, body)).toBe(false);
      expect(kit.requests.length).toBe(before);
      expect(strangerCalls).toBe(0);
    } finally {
      await new Promise<void>((resolve) => stranger.close(() => resolve()));
    }
  });

  it("a certificate PayPal fails to serve is an error, not a verdict, and is fetched again; one that is not there stays refused", async () => {
    kit.failNext(1, /CERT-KIT-FLAKY/);
    const flaky = kit.webhookHeaders(body, { certId: "CERT-KIT-FLAKY" });
    expect((await rejection(paypal.verifyWebhook(flaky, body))).status).toBe(500);
    expect(await paypal.verifyWebhook(flaky, body)).toBe(true);
    const missing = { ...kit.webhookHeaders(body), "paypal-cert-url": `${kit.url}/v1/notifications/certs/NOPE-1` };
    expect((await rejection(paypal.verifyWebhook(missing, body))).status).toBe(404);
    await rejection(paypal.verifyWebhook(missing, body));
    expect(kit.requestsTo(/NOPE-1$/)).toHaveLength(1);
  });

  it("fetches at most five new certificates in ten minutes, however many events name new ones", async () => {
    const before = certCalls();
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) => paypal.verifyWebhook(kit.webhookHeaders(body, { certId: `CERT-FLOOD-${i % 20}` }), body)),
    );
    expect(certCalls() - before).toBe(5);
    expect(results.filter((r) => r.status === "rejected").length).toBeGreaterThan(0);
    // Known certificates still verify meanwhile.
    expect(await paypal.verifyWebhook(kit.webhookHeaders(body, { certId: "CERT-FLOOD-0" }), body)).toBe(true);
    time += 10 * 60_000 + 1;
    expect(await paypal.verifyWebhook(kit.webhookHeaders(body, { certId: "CERT-FLOOD-19" }), body)).toBe(true);
    expect(certCalls() - before).toBe(6);
  });
});
