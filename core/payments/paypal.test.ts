// The PayPal REST client against the loopback PayPal: OAuth token caching and renewal, orders with
// PayPal-Request-Id, captures (twice, unapproved), webhook signatures, errors and timeouts.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startPayPalKit, type PayPalKit } from "../../tests/kit/paypal.ts";
import { createPayPal } from "./paypal.ts";
import { ProviderError, WebhookRefused, type CreateOrderInput, type PaymentProvider } from "./provider.ts";

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

/** The signature check, through the provider's one webhook entry: refused as not PayPal's → false. */
async function verified(provider: PaymentProvider, headers: Record<string, string | undefined>, body: string): Promise<boolean> {
  try {
    await provider.parseWebhook(headers, body);
    return true;
  } catch (error) {
    if (error instanceof WebhookRefused && error.why === "unverified") return false;
    throw error;
  }
}

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
      completed: true,
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
    expect(await verified(paypal, kit.webhookHeaders(body), body)).toBe(true);
    expect(await verified(paypal, kit.webhookHeaders(body), body)).toBe(true);
    expect(certCalls()).toBe(certs + 1);
    expect(apiCalls()).toBe(api);
    expect(kit.requestsTo(/verify-webhook-signature/)).toHaveLength(0);
  });

  it("refuses a forged signature, another body, or another webhook id", async () => {
    const headers = kit.webhookHeaders(body);
    expect(await verified(paypal, headers, body.replace("CAP-1", "CAP-2"))).toBe(false);
    expect(await verified(paypal, headers, `${body} `)).toBe(false);
    const other = createPayPal({ clientId: kit.clientId, clientSecret: kit.clientSecret, apiBase: kit.url, webhookId: "WH-OTHER", timeoutMs: 1000 });
    expect(await verified(other, headers, body)).toBe(false);
    kit.verification = "FAILURE";
    expect(await verified(paypal, kit.webhookHeaders(body), body)).toBe(false);
    expect(await verified(paypal, { ...headers, "paypal-transmission-sig": Buffer.alloc(256, 7).toString("base64") }, body)).toBe(false);
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
      for (const headers of variants) expect(await verified(paypal, headers, body), JSON.stringify(headers)).toBe(false);
      const noId = createPayPal({ clientId: kit.clientId, clientSecret: kit.clientSecret, apiBase: kit.url, timeoutMs: 1000 });
      expect(await verified(noId, good, body)).toBe(false);
      expect(kit.requests.length).toBe(before);
      expect(strangerCalls).toBe(0);
    } finally {
      await new Promise<void>((resolve) => stranger.close(() => resolve()));
    }
  });

  it("a certificate PayPal fails to serve is an error, not a verdict, and is fetched again; one that is not there stays refused", async () => {
    kit.failNext(1, /CERT-KIT-FLAKY/);
    const flaky = kit.webhookHeaders(body, { certId: "CERT-KIT-FLAKY" });
    expect((await rejection(verified(paypal, flaky, body))).status).toBe(500);
    expect(await verified(paypal, flaky, body)).toBe(true);
    const missing = { ...kit.webhookHeaders(body), "paypal-cert-url": `${kit.url}/v1/notifications/certs/NOPE-1` };
    expect((await rejection(verified(paypal, missing, body))).status).toBe(404);
    await rejection(verified(paypal, missing, body));
    expect(kit.requestsTo(/NOPE-1$/)).toHaveLength(1);
  });

  it("fetches at most five new certificates in ten minutes, however many events name new ones", async () => {
    const before = certCalls();
    const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => verified(paypal, kit.webhookHeaders(body, { certId: `CERT-FLOOD-${i % 20}` }), body)));
    expect(certCalls() - before).toBe(5);
    expect(results.filter((r) => r.status === "rejected").length).toBeGreaterThan(0);
    // Known certificates still verify meanwhile.
    expect(await verified(paypal, kit.webhookHeaders(body, { certId: "CERT-FLOOD-0" }), body)).toBe(true);
    time += 10 * 60_000 + 1;
    expect(await verified(paypal, kit.webhookHeaders(body, { certId: "CERT-FLOOD-19" }), body)).toBe(true);
    expect(certCalls() - before).toBe(6);
  });
});

describe("webhook events, read into neutral actions (parseWebhook)", () => {
  const read = (event: unknown, headers?: Record<string, string | undefined>) => {
    const body = typeof event === "string" ? event : JSON.stringify(event);
    return paypal.parseWebhook(headers ?? kit.webhookHeaders(body), body);
  };
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WebhookRefused);
    return (error as WebhookRefused).why;
  };
  const amount = { value: "19.99", currency_code: "USD" };
  const captureLink = "https://api.paypal.com/v2/payments/captures/CAP-1";
  const capture = (resource: Record<string, unknown>) => ({ id: "WH-C", event_type: "PAYMENT.CAPTURE.COMPLETED", resource });

  it("PAYMENT.CAPTURE.COMPLETED → captured: the order, whether the money is taken, the capture id, amount and our reference", async () => {
    const resource = { id: "CAP-1", status: "COMPLETED", amount, custom_id: "42", supplementary_data: { related_ids: { order_id: "ORDER-1" } } };
    expect(await read(capture(resource))).toEqual({
      kind: "captured",
      capture: { orderId: "ORDER-1", completed: true, captureId: "CAP-1", amount: { value: "19.99", currency: "USD" }, referenceId: "42" },
    });
    // A capture still pending is no payment yet; a field of another shape is as good as absent (the
    // core then refuses the capture as not matching the order, and PayPal sends it again).
    expect(await read(capture({ ...resource, status: "PENDING" }))).toMatchObject({ kind: "captured", capture: { completed: false } });
    const odd = await read(capture({ ...resource, amount: { value: 19.99, currency_code: "USD" }, custom_id: 42 }));
    expect(odd).toMatchObject({ kind: "captured", capture: { orderId: "ORDER-1", captureId: "CAP-1" } });
    expect(odd.kind === "captured" && [odd.capture.amount, odd.capture.referenceId]).toEqual([undefined, undefined]);
    // Without the order it belongs to there is nothing to book.
    expect(await read(capture({ ...resource, supplementary_data: {} }))).toMatchObject({ kind: "ignored" });
  });

  it("PAYMENT.CAPTURE.REFUNDED and .REVERSED → refunded and reversed: the capture from the up link, the event id, the amount", async () => {
    const refund = (type: string, resource: Record<string, unknown>) => ({ id: "WH-R", event_type: type, resource });
    const links = [
      { rel: "self", href: "https://api.paypal.com/v2/payments/refunds/REF-1" },
      { rel: "up", href: captureLink },
    ];
    expect(await read(refund("PAYMENT.CAPTURE.REFUNDED", { id: "REF-1", status: "COMPLETED", amount: { value: "5.00", currency_code: "USD" }, custom_id: "42", links }))).toEqual({
      kind: "refunded",
      captureId: "CAP-1",
      eventId: "REF-1",
      amount: { value: "5.00", currency: "USD" },
      orderRef: "42",
    });
    expect(await read(refund("PAYMENT.CAPTURE.REVERSED", { id: "REV-1", amount, links }))).toEqual({
      kind: "reversed",
      captureId: "CAP-1",
      eventId: "REV-1",
      amount: { value: "19.99", currency: "USD" },
      orderRef: undefined,
    });
    for (const broken of [
      { id: "REF-1", amount },
      { id: "REF-1", links },
      { amount, links },
      { id: "REF-1", amount, links: "up" },
    ]) {
      expect(await read(refund("PAYMENT.CAPTURE.REFUNDED", broken)), JSON.stringify(broken)).toMatchObject({ kind: "ignored" });
    }
  });

  it("CUSTOMER.DISPUTE.CREATED → disputed: the dispute and the captures it is about", async () => {
    const dispute = (resource: Record<string, unknown>) => ({ id: "WH-D", event_type: "CUSTOMER.DISPUTE.CREATED", resource });
    const transactions = [
      { seller_transaction_id: "CAP-1" },
      { seller_transaction_id: "" },
      { seller_transaction_id: "x".repeat(65) },
      { buyer_transaction_id: "B-1" },
      { seller_transaction_id: "CAP-2" },
    ];
    expect(await read(dispute({ dispute_id: "PP-D-1", disputed_transactions: transactions }))).toEqual({ kind: "disputed", disputeId: "PP-D-1", captureIds: ["CAP-1", "CAP-2"] });
    expect(await read(dispute({ dispute_id: "PP-D-1", disputed_transactions: [] }))).toMatchObject({ kind: "ignored" });
    expect(await read(dispute({ disputed_transactions: transactions }))).toMatchObject({ kind: "ignored" });
  });

  it("anything else PayPal signs is ignored: other event types, events without a resource, JSON that is no event", async () => {
    for (const event of [
      { id: "WH-O", event_type: "CHECKOUT.ORDER.APPROVED", resource: { id: "ORDER-1" } },
      { id: "WH-O", event_type: "PAYMENT.CAPTURE.COMPLETED" },
      { id: "WH-O", event_type: "PAYMENT.CAPTURE.COMPLETED", resource: "CAP-1" },
      { id: "WH-O", event_type: 7, resource: {} },
      [],
      "a string",
      null,
    ]) {
      expect(await read(JSON.stringify(event)), JSON.stringify(event)).toMatchObject({ kind: "ignored" });
    }
  });

  it("a body that is not JSON is malformed, refused before any certificate is fetched", async () => {
    const certs = kit.requestsTo(/^GET \/v1\/notifications\/certs\//).length;
    const body = "{nope";
    expect(await refusal(paypal.parseWebhook(kit.webhookHeaders(body, { certId: "CERT-NEVER-FETCHED" }), body))).toBe("malformed");
    expect(await refusal(paypal.parseWebhook({}, ""))).toBe("malformed");
    expect(kit.requestsTo(/^GET \/v1\/notifications\/certs\//)).toHaveLength(certs);
  });

  it("a forged event is unverified: another signer, another body, no headers, no webhook id configured", async () => {
    const event = capture({ id: "CAP-1", status: "COMPLETED", amount, supplementary_data: { related_ids: { order_id: "ORDER-1" } } });
    const body = JSON.stringify(event);
    kit.verification = "FAILURE";
    expect(await refusal(read(event))).toBe("unverified");
    kit.verification = "SUCCESS";
    const genuine = kit.webhookHeaders(body);
    expect(await refusal(paypal.parseWebhook(genuine, body.replace("19.99", "1999.00")))).toBe("unverified");
    expect(await refusal(paypal.parseWebhook({}, body))).toBe("unverified");
    const noId = createPayPal({ clientId: kit.clientId, clientSecret: kit.clientSecret, apiBase: kit.url, timeoutMs: 1000 });
    expect(await refusal(noId.parseWebhook(genuine, body))).toBe("unverified");
    expect((await paypal.parseWebhook(genuine, body)).kind).toBe("captured");
  });
});

describe("PayPal's answers are read through schemas, not casts", () => {
  /** A PayPal that issues tokens and answers every other call with `answer`. */
  async function oddPayPal(answer: (path: string) => unknown): Promise<{ url: string; close(): Promise<void> }> {
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        const path = (req.url ?? "/").split("?")[0]!;
        const json = path === "/v1/oauth2/token" ? { access_token: "A21AA-ODD", expires_in: 3600 } : answer(path);
        res.writeHead(path === "/v1/oauth2/token" ? 200 : 201, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  it.each([
    ["an order without an id", { status: "CREATED" }],
    ["a capture whose amount is a number", { id: "O-1", status: "COMPLETED", purchase_units: [{ payments: { captures: [{ id: "C-1", status: "COMPLETED", amount: 19.99 }] } }] }],
    ["no object at all", ["O-1"]],
  ])("%s → ProviderError (the buyer is told the provider failed; nothing is booked)", async (_name, odd) => {
    const stub = await oddPayPal(() => odd);
    try {
      const client = createPayPal({ clientId: "a", clientSecret: "b", apiBase: stub.url, timeoutMs: 1000 });
      const error = await rejection(client.getOrder("O-1"));
      expect(error.message).toContain("shape");
      await rejection(client.createOrder(input("odd-1")));
    } finally {
      await stub.close();
    }
  });

  it("a token answer without a token → ProviderError", async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ token_type: "Bearer" })));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const client = createPayPal({ clientId: "a", clientSecret: "b", apiBase: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, timeoutMs: 1000 });
      expect((await rejection(client.getOrder("O-1"))).message).toContain("access_token");
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("the payer id a capture names is kept (at most 64 characters); an odd payer is no payer", async () => {
    const amount = { value: "19.99", currency_code: "USD" };
    const order = (payer: unknown) => ({ id: "O-1", status: "COMPLETED", payer, purchase_units: [{ reference_id: "42", payments: { captures: [{ id: "C-1", status: "COMPLETED", amount }] } }] });
    let payer: unknown = { payer_id: "P".repeat(80) };
    const stub = await oddPayPal(() => order(payer));
    try {
      const client = createPayPal({ clientId: "a", clientSecret: "b", apiBase: stub.url, timeoutMs: 1000 });
      expect(await client.getOrder("O-1")).toEqual({ orderId: "O-1", completed: true, captureId: "C-1", amount: { value: "19.99", currency: "USD" }, referenceId: "42", payerId: "P".repeat(64) });
      payer = { payer_id: 12345 };
      expect((await client.getOrder("O-1")).payerId).toBeUndefined();
    } finally {
      await stub.close();
    }
  });
});
