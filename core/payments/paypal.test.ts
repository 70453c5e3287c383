// The PayPal REST client against the loopback PayPal: OAuth token caching and renewal, orders with
// PayPal-Request-Id, captures (twice, unapproved), webhook verification, errors and timeouts.
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
    kit.approve(id);
    const capture = await paypal.captureOrder(id, "cap-1-capture");
    expect(capture).toEqual({ orderId: id, status: "COMPLETED", captureId: kit.orders.get(id)!.capture!.id, amount: { value: "7.99", currency: "USD" }, referenceId: "42" });
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

describe("webhook verification", () => {
  const headers = () => kit.webhookHeaders();
  const event = { id: "WH-1", event_type: "PAYMENT.CAPTURE.COMPLETED", resource: {} };

  it("asks PayPal with our webhook id and the transmission headers", async () => {
    const h = headers();
    expect(await paypal.verifyWebhook(h, event)).toBe(true);
    expect(kit.requestsTo(/verify-webhook-signature/).at(-1)!.body).toEqual({
      auth_algo: h["paypal-auth-algo"],
      cert_url: h["paypal-cert-url"],
      transmission_id: h["paypal-transmission-id"],
      transmission_sig: h["paypal-transmission-sig"],
      transmission_time: h["paypal-transmission-time"],
      webhook_id: kit.webhookId,
      webhook_event: event,
    });
    kit.verification = "FAILURE";
    expect(await paypal.verifyWebhook(headers(), event)).toBe(false);
  });

  it("is refused without a call when the headers or the webhook id are missing", async () => {
    const calls = kit.requestsTo(/verify-webhook-signature/).length;
    const h: Record<string, string | undefined> = headers();
    delete h["paypal-transmission-sig"];
    expect(await paypal.verifyWebhook(h, event)).toBe(false);
    const noId = createPayPal({ clientId: kit.clientId, clientSecret: kit.clientSecret, apiBase: kit.url, timeoutMs: 2000 });
    expect(await noId.verifyWebhook(headers(), event)).toBe(false);
    expect(kit.requestsTo(/verify-webhook-signature/).length).toBe(calls);
  });

  it("a PayPal failure is an error, not a verdict", async () => {
    kit.failNext(1, /verify-webhook-signature/);
    expect((await rejection(paypal.verifyWebhook(headers(), event))).status).toBe(500);
  });
});
