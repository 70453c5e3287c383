// A loopback PayPal for tests: the REST subset the shop's client speaks (OAuth client credentials,
// Orders v2 create / get / capture, Payments v2 capture refunds, the webhook signing certificate,
// and the verify API the shop no longer calls) on 127.0.0.1, with knobs to approve an order as the
// buyer would, to make calls fail (500) or hang, to tamper with what a capture reports, to refuse a
// refund or leave it pending, and builders for the webhook events PayPal sends, signed as PayPal
// signs them.
import { randomBytes, sign } from "node:crypto";
import { crc32 } from "node:zlib";
import { startLoopback, type Answer, type KitRequest, type Match } from "./loopback.ts";
import { KIT_CERTIFICATE, KIT_SIGNING_KEY } from "./paypal-signing.ts";

export type { KitRequest, Match } from "./loopback.ts";

export type KitRefund = {
  id: string;
  amount: { value: string; currency_code: string };
  status?: "COMPLETED" | "PENDING";
  /** The PayPal-Request-Id of the API call that made it (a retry with it is the same refund). */
  requestId?: string;
  /** The merchant's invoice id sent with the refund, carried by its event. */
  invoiceId?: string;
};

export type KitCapture = { id: string; status: string; amount: { value: string; currency_code: string }; custom_id?: string };

export type KitOrder = {
  id: string;
  requestId?: string;
  status: "CREATED" | "APPROVED" | "COMPLETED";
  referenceId?: string;
  customId?: string;
  amount: { value: string; currency_code: string };
  /** The purchase unit's reference_id and the capture's custom_id as reported after the capture (tampering may change them). */
  reportedReferenceId?: string;
  capture?: KitCapture;
  /** Refunds made at PayPal: by the merchant's dashboard (`refund`) or through the refund API. */
  refunds: KitRefund[];
  /** Chargebacks: PayPal takes the money back from the merchant (PAYMENT.CAPTURE.REVERSED). */
  reversals: KitRefund[];
  /** The buyer's PayPal account, shown in the order once approved. */
  payerId: string;
};

export type Tamper = { amount?: string; currency?: string; referenceId?: string };

export type PayPalKit = {
  url: string;
  clientId: string;
  clientSecret: string;
  webhookId: string;
  /** Settings that point the shop at this kit (timeout 1500 ms unless given). */
  env(timeoutMs?: number): Record<string, string>;
  requests: KitRequest[];
  /** How many access tokens were issued. */
  readonly tokenCalls: number;
  /** PayPal forgets every token issued so far (they expired early or were revoked): calls get 401. */
  revokeTokens(): void;
  orders: Map<string, KitOrder>;
  /** The buyer approves the order at PayPal (with this PayPal account, when given). */
  approve(orderId: string, options?: { payerId?: string }): void;
  /** PayPal captures the order without the shop asking (its answer to the shop got lost, say). */
  captureAtProvider(orderId: string): KitCapture;
  /** The merchant refunds (part of) a captured order at PayPal; returns the refund id. */
  refund(orderId: string, value?: string): string;
  /** How the refund API answers new refunds: at once (COMPLETED, the default) or later (PENDING). */
  refundStatus: "COMPLETED" | "PENDING";
  /** The next refund API call is refused with 422 and this issue (e.g. "REFUND_NOT_ALLOWED"). */
  refuseNextRefund(issue: string): void;
  /** A pending refund completes (its REFUNDED event is then the test's to send). */
  completeRefund(refundId: string): void;
  /** The buyer's bank takes (part of) a captured payment back (a chargeback); returns its id. */
  reverse(orderId: string, value?: string): string;
  /** The next n calls matching answer 500. */
  failNext(n: number, match?: Match): void;
  /** The next n calls matching take effect at once but are answered only after `ms`. */
  delayNext(n: number, ms: number, match?: Match): void;
  /** The next n calls matching get no answer at all; with process: true the call still takes effect. */
  hangNext(n: number, match?: Match, options?: { process?: boolean }): void;
  /** The next capture reports these values instead of the true ones (and keeps them). */
  tamperNextCapture(tamper: Tamper): void;
  /** "FAILURE": webhook headers carry a signature that does not verify (as a forger's would). */
  verification: "SUCCESS" | "FAILURE";
  /** The link rel of the approve URL in create answers: PayPal's current "payer-action" or the older "approve". */
  approveRel: "payer-action" | "approve";
  /** Token lifetime (seconds) in token answers. */
  tokenLifetime: number;
  webhookEvent(
    type: "PAYMENT.CAPTURE.COMPLETED" | "PAYMENT.CAPTURE.REFUNDED" | "PAYMENT.CAPTURE.REVERSED" | "CUSTOMER.DISPUTE.CREATED",
    order: KitOrder | string,
    options?: { refundId?: string; reversalId?: string },
  ): WebhookEvent;
  /**
   * The transmission headers PayPal sends with a webhook, signed over the body the shop receives
   * (JSON.stringify(event), or the text itself). `certId` names another certificate URL of the kit.
   */
  webhookHeaders(event: unknown, options?: { certId?: string }): Record<string, string>;
  /** Requests to a path (regex on "METHOD /path"). */
  requestsTo(match: RegExp): KitRequest[];
  reset(): void;
  stop(): Promise<void>;
};

export type WebhookEvent = {
  id: string;
  event_version: string;
  create_time: string;
  resource_type: string;
  event_type: string;
  summary: string;
  resource: Record<string, unknown>;
};

const token = (prefix: string, n = 8) => `${prefix}${randomBytes(n).toString("hex").toUpperCase()}`;

export async function startPayPalKit(): Promise<PayPalKit> {
  const clientId = "kit-client";
  const clientSecret = "kit-secret";
  const webhookId = "WH-KIT-1";
  const orders = new Map<string, KitOrder>();
  const byRequestId = new Map<string, string>();
  const tokens = new Set<string>();
  let tokenCalls = 0;
  let tamper: Tamper | undefined;
  let refundRefusal: string | undefined;
  let url = "";

  const orderJson = (o: KitOrder) => ({
    id: o.id,
    status: o.status,
    intent: "CAPTURE",
    ...(o.status === "CREATED" ? {} : { payer: { payer_id: o.payerId, email_address: `${o.payerId.toLowerCase()}@buyer.example` } }),
    purchase_units: [
      {
        reference_id: o.capture ? o.reportedReferenceId : o.referenceId,
        custom_id: o.customId,
        amount: o.amount,
        ...(o.capture ? { payments: { captures: [{ ...o.capture, custom_id: o.capture.custom_id, final_capture: true }] } } : {}),
      },
    ],
    links: [
      { href: `${url}/v2/checkout/orders/${o.id}`, rel: "self", method: "GET" },
      ...(o.status === "COMPLETED" ? [] : [{ href: `https://www.sandbox.paypal.com/checkoutnow?token=${o.id}`, rel: kit.approveRel, method: "GET" }]),
    ],
  });

  const refundJson = (o: KitOrder, r: KitRefund) => ({
    id: r.id,
    amount: r.amount,
    status: r.status ?? "COMPLETED",
    ...(o.customId ? { custom_id: o.customId } : {}),
    ...(r.invoiceId ? { invoice_id: r.invoiceId } : {}),
    links: [
      { href: `${url}/v2/payments/refunds/${r.id}`, rel: "self", method: "GET" },
      { href: `${url}/v2/payments/captures/${o.capture!.id}`, rel: "up", method: "GET" },
    ],
  });

  const doCapture = (o: KitOrder): KitCapture => {
    const t = tamper;
    tamper = undefined;
    o.status = "COMPLETED";
    o.capture = {
      id: token("CAP", 6),
      status: "COMPLETED",
      amount: { value: t?.amount ?? o.amount.value, currency_code: t?.currency ?? o.amount.currency_code },
      custom_id: t?.referenceId ?? o.customId,
    };
    o.reportedReferenceId = t?.referenceId ?? o.referenceId;
    return o.capture;
  };

  const error = (status: number, name: string, issue?: string) => ({
    status,
    json: { name, message: name, debug_id: token("", 4).toLowerCase(), ...(issue ? { details: [{ issue, description: issue }] } : {}) },
  });

  function handle(req: KitRequest): Answer {
    const { method, path, headers } = req;
    // The signing certificate is public: any "CERT-…" id of the kit serves it.
    if (method === "GET" && path.startsWith("/v1/notifications/certs/")) {
      return /^\/v1\/notifications\/certs\/CERT-[A-Za-z0-9-]+$/.test(path) ? { status: 200, json: KIT_CERTIFICATE, contentType: "application/x-pem-file" } : error(404, "RESOURCE_NOT_FOUND");
    }
    if (method === "POST" && path === "/v1/oauth2/token") {
      const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
      if (headers.authorization !== expected) return { status: 401, json: { error: "invalid_client", error_description: "Client Authentication failed" } };
      if (!String(req.body).includes("grant_type=client_credentials")) return { status: 400, json: { error: "unsupported_grant_type" } };
      tokenCalls++;
      const value = token("A21AA", 16);
      tokens.add(value);
      return {
        status: 200,
        json: { scope: "https://uri.paypal.com/services/payments/payment", access_token: value, token_type: "Bearer", app_id: "APP-KIT", expires_in: kit.tokenLifetime, nonce: token("n") },
      };
    }
    const bearer = headers.authorization?.replace(/^Bearer /, "");
    if (!bearer || !tokens.has(bearer)) return error(401, "AUTHENTICATION_FAILURE");
    if (method === "POST" && path === "/v2/checkout/orders") {
      const known = req.requestId ? byRequestId.get(req.requestId) : undefined;
      if (known) return { status: 200, json: orderJson(orders.get(known)!) };
      const unit = (req.body as { purchase_units?: { reference_id?: string; custom_id?: string; amount?: { value?: string; currency_code?: string } }[] })?.purchase_units?.[0];
      if (!unit?.amount?.value || !unit.amount.currency_code) return error(400, "INVALID_REQUEST", "MISSING_REQUIRED_PARAMETER");
      const order: KitOrder = {
        id: token("", 8).slice(0, 17),
        requestId: req.requestId,
        status: "CREATED",
        referenceId: unit.reference_id,
        customId: unit.custom_id,
        amount: { value: unit.amount.value, currency_code: unit.amount.currency_code },
        refunds: [],
        reversals: [],
        payerId: token("PAYER", 5),
      };
      orders.set(order.id, order);
      if (req.requestId) byRequestId.set(req.requestId, order.id);
      return { status: 201, json: orderJson(order) };
    }
    const orderPath = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(path);
    if (orderPath) {
      const order = orders.get(decodeURIComponent(orderPath[1]!));
      if (!order) return error(404, "RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID");
      if (method === "GET" && !orderPath[2]) return { status: 200, json: orderJson(order) };
      if (method === "POST" && orderPath[2]) {
        if (order.status === "COMPLETED") return error(422, "UNPROCESSABLE_ENTITY", "ORDER_ALREADY_CAPTURED");
        if (order.status !== "APPROVED") return error(422, "UNPROCESSABLE_ENTITY", "ORDER_NOT_APPROVED");
        doCapture(order);
        return { status: 201, json: orderJson(order) };
      }
    }
    const refundPath = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(path);
    if (method === "POST" && refundPath) {
      const captureId = decodeURIComponent(refundPath[1]!);
      const order = [...orders.values()].find((o) => o.capture?.id === captureId);
      if (!order?.capture) return error(404, "RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID");
      const same = req.requestId ? order.refunds.find((r) => r.requestId === req.requestId) : undefined;
      if (same) return { status: 200, json: refundJson(order, same) };
      if (refundRefusal) {
        const issue = refundRefusal;
        refundRefusal = undefined;
        return error(422, "UNPROCESSABLE_ENTITY", issue);
      }
      const cents = (value: string) => Math.round(Number(value) * 100);
      const captured = cents(order.capture.amount.value);
      const refunded = order.refunds.reduce((sum, r) => sum + cents(r.amount.value), 0);
      if (refunded >= captured) return error(422, "UNPROCESSABLE_ENTITY", "CAPTURE_FULLY_REFUNDED");
      const body = req.body as { amount?: { value?: string; currency_code?: string }; invoice_id?: string } | undefined;
      const asked = body?.amount;
      if (asked?.currency_code && asked.currency_code !== order.capture.amount.currency_code) return error(422, "UNPROCESSABLE_ENTITY", "REFUND_CURRENCY_MISMATCH");
      const value = asked?.value ?? ((captured - refunded) / 100).toFixed(2);
      if (!/^\d+(\.\d{1,2})?$/.test(value) || cents(value) <= 0) return error(400, "INVALID_REQUEST", "INVALID_PARAMETER_VALUE");
      if (refunded + cents(value) > captured) return error(422, "UNPROCESSABLE_ENTITY", "REFUND_AMOUNT_EXCEEDED");
      const refund: KitRefund = {
        id: token("REF", 6),
        amount: { value, currency_code: order.capture.amount.currency_code },
        status: kit.refundStatus,
        requestId: req.requestId,
        invoiceId: body?.invoice_id,
      };
      order.refunds.push(refund);
      return { status: 201, json: refundJson(order, refund) };
    }
    if (method === "POST" && path === "/v1/notifications/verify-webhook-signature") {
      const body = req.body as Record<string, unknown>;
      const complete = ["auth_algo", "cert_url", "transmission_id", "transmission_sig", "transmission_time", "webhook_event"].every((k) => body?.[k]);
      if (!complete) return error(400, "VALIDATION_ERROR", "MISSING_REQUIRED_PARAMETER");
      const ok = body.webhook_id === webhookId && kit.verification === "SUCCESS";
      return { status: 200, json: { verification_status: ok ? "SUCCESS" : "FAILURE" } };
    }
    return error(404, "NOT_FOUND");
  }

  const loop = await startLoopback({ handle, failure: () => error(500, "INTERNAL_SERVER_ERROR"), headers: { "paypal-debug-id": "kit" }, requestIdHeader: "paypal-request-id" });
  url = loop.url;

  const orderOf = (o: KitOrder | string) => {
    const order = typeof o === "string" ? orders.get(o) : o;
    if (!order) throw new Error(`kit: no order ${String(o)}`);
    return order;
  };

  const kit: PayPalKit = {
    url,
    clientId,
    clientSecret,
    webhookId,
    env: (timeoutMs = 1500) => ({
      PAYPAL_CLIENT_ID: clientId,
      PAYPAL_CLIENT_SECRET: clientSecret,
      PAYPAL_API_BASE: url,
      PAYPAL_WEBHOOK_ID: webhookId,
      PAYPAL_TIMEOUT_MS: String(timeoutMs),
    }),
    requests: loop.requests,
    get tokenCalls() {
      return tokenCalls;
    },
    revokeTokens() {
      tokens.clear();
    },
    orders,
    approve(orderId, options = {}) {
      const order = orderOf(orderId);
      if (options.payerId) order.payerId = options.payerId;
      if (order.status === "CREATED") order.status = "APPROVED";
    },
    captureAtProvider(orderId) {
      const order = orderOf(orderId);
      if (order.status === "CREATED") order.status = "APPROVED";
      return order.capture ?? doCapture(order);
    },
    refund(orderId, value) {
      const order = orderOf(orderId);
      if (!order.capture) throw new Error("kit: refund of an order not captured");
      const id = token("REF", 6);
      order.refunds.push({ id, amount: { value: value ?? order.capture.amount.value, currency_code: order.capture.amount.currency_code } });
      return id;
    },
    reverse(orderId, value) {
      const order = orderOf(orderId);
      if (!order.capture) throw new Error("kit: reversal of an order not captured");
      const id = token("REV", 6);
      order.reversals.push({ id, amount: { value: value ?? order.capture.amount.value, currency_code: order.capture.amount.currency_code } });
      return id;
    },
    refundStatus: "COMPLETED",
    refuseNextRefund(issue) {
      refundRefusal = issue;
    },
    completeRefund(refundId) {
      const refund = [...orders.values()].flatMap((o) => o.refunds).find((r) => r.id === refundId);
      if (!refund) throw new Error(`kit: no refund ${refundId}`);
      refund.status = "COMPLETED";
    },
    failNext: loop.failNext,
    delayNext: loop.delayNext,
    hangNext: loop.hangNext,
    tamperNextCapture(t) {
      tamper = t;
    },
    verification: "SUCCESS",
    approveRel: "payer-action",
    tokenLifetime: 32_400,
    webhookEvent(type, o, options = {}) {
      const order = orderOf(o);
      const capture = order.capture;
      if (!capture) throw new Error("kit: webhook for an order not captured");
      const base = { id: token("WH-", 8), event_version: "1.0", create_time: new Date().toISOString(), event_type: type };
      if (type === "PAYMENT.CAPTURE.COMPLETED") {
        return {
          ...base,
          resource_type: "capture",
          summary: `Payment completed for ${capture.amount.value} ${capture.amount.currency_code}`,
          resource: {
            id: capture.id,
            status: capture.status,
            amount: capture.amount,
            final_capture: true,
            custom_id: capture.custom_id,
            supplementary_data: { related_ids: { order_id: order.id } },
            links: [
              { href: `${url}/v2/payments/captures/${capture.id}`, rel: "self", method: "GET" },
              { href: `${url}/v2/payments/captures/${capture.id}/refund`, rel: "refund", method: "POST" },
              { href: `${url}/v2/checkout/orders/${order.id}`, rel: "up", method: "GET" },
            ],
          },
        };
      }
      if (type === "CUSTOMER.DISPUTE.CREATED") {
        const disputeId = token("PP-D-", 4);
        return {
          ...base,
          resource_type: "dispute",
          summary: "A new dispute opened with Case # " + disputeId,
          resource: {
            dispute_id: disputeId,
            create_time: base.create_time,
            reason: "MERCHANDISE_OR_SERVICE_NOT_RECEIVED",
            status: "OPEN",
            dispute_amount: capture.amount,
            disputed_transactions: [{ seller_transaction_id: capture.id, buyer_transaction_id: token("", 6) }],
            links: [{ href: `${url}/v1/customer/disputes/${disputeId}`, rel: "self", method: "GET" }],
          },
        };
      }
      // A refund and a reversal both carry a refund resource whose "up" link is the capture.
      const reversal = type === "PAYMENT.CAPTURE.REVERSED";
      const list = reversal ? order.reversals : order.refunds;
      const wanted = reversal ? options.reversalId : options.refundId;
      const refund = wanted ? list.find((r) => r.id === wanted) : list.at(-1);
      if (!refund) throw new Error(`kit: no ${reversal ? "reversal" : "refund"} for the webhook`);
      return {
        ...base,
        resource_type: "refund",
        summary: `A ${refund.amount.value} ${refund.amount.currency_code} capture payment was ${reversal ? "reversed" : "refunded"}`,
        resource: {
          id: refund.id,
          status: "COMPLETED",
          amount: refund.amount,
          ...(reversal ? { note_to_payer: "Payment reversed" } : { custom_id: order.customId, ...(refund.invoiceId ? { invoice_id: refund.invoiceId } : {}) }),
          links: [
            { href: `${url}/v2/payments/refunds/${refund.id}`, rel: "self", method: "GET" },
            { href: `${url}/v2/payments/captures/${capture.id}`, rel: "up", method: "GET" },
          ],
        },
      };
    },
    webhookHeaders(event, options = {}) {
      const body = typeof event === "string" ? event : JSON.stringify(event);
      const id = `${randomBytes(4).toString("hex")}-${randomBytes(2).toString("hex")}-11e6-${randomBytes(2).toString("hex")}-${randomBytes(6).toString("hex")}`;
      const time = new Date().toISOString();
      // PayPal's recipe: "<transmission id>|<time>|<webhook id>|<CRC32 of the body>", SHA256withRSA.
      // A forger without the key signs something else.
      const signedFor = kit.verification === "SUCCESS" ? webhookId : "WH-FORGED";
      const message = `${id}|${time}|${signedFor}|${crc32(Buffer.from(body, "utf8")) >>> 0}`;
      return {
        "paypal-auth-algo": "SHA256withRSA",
        "paypal-cert-url": `${url}/v1/notifications/certs/${options.certId ?? "CERT-KIT"}`,
        "paypal-transmission-id": id,
        "paypal-transmission-sig": sign("sha256", Buffer.from(message, "utf8"), KIT_SIGNING_KEY).toString("base64"),
        "paypal-transmission-time": time,
      };
    },
    requestsTo: loop.requestsTo,
    reset() {
      loop.resetKnobs();
      tamper = undefined;
      refundRefusal = undefined;
      kit.refundStatus = "COMPLETED";
      kit.verification = "SUCCESS";
      kit.approveRel = "payer-action";
    },
    stop: loop.stop,
  };
  return kit;
}
