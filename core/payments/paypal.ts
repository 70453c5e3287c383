// PayPal REST (Orders v2): OAuth client credentials with the token cached until it expires,
// orders created with a PayPal-Request-Id (so a retry is the same order), capture, order lookup,
// and webhooks: signatures verified here, with PayPal's certificate, and events read into the
// neutral actions of provider.ts. Every answer and event is read through a Zod schema, never a
// cast: a shape PayPal did not promise is a ProviderError (an answer) or an ignored event. Every
// call has a timeout.
import { X509Certificate, verify, type KeyObject } from "node:crypto";
import { crc32 } from "node:zlib";
import { z } from "zod";
import { ProviderError, WebhookRefused, noAnswer, type CreateOrderInput, type PaymentProvider, type ProviderCapture, type WebhookAction } from "./provider.ts";

/**
 * Webhook signatures (issue 7, point 13). The webhook endpoint is anonymous, so it must not be a way
 * to make the shop call PayPal: asking PayPal's verify-webhook-signature API cost one outbound call
 * per POST that carried the five transmission headers. Instead the signature is checked here, as
 * PayPal documents it: SHA256withRSA over "<transmission id>|<transmission time>|<webhook id>|<CRC32
 * of the raw body, as an unsigned decimal>", with the public key of the certificate named by
 * PAYPAL-CERT-URL. Cheap checks come first and cost no call (our webhook id is configured, the
 * headers are there and well-formed, the algorithm is SHA256withRSA, the certificate URL is a
 * certificate path on a PayPal host: https://*.paypal.com, or the origin of PAYPAL_API_BASE, where we
 * trust PayPal to be anyway). A certificate is fetched once and kept until it expires (at most a
 * day); a certificate that is missing or invalid is remembered as such for ten minutes; concurrent
 * events share one fetch; and at most
 * CERT_FETCHES_PER_WINDOW certificates not in the cache are fetched in any CERT_WINDOW_MS. So a flood
 * of forged events costs at most that many outbound calls, whatever it carries; beyond it an event
 * with an unknown certificate is answered 5xx (PayPal resends later) until the window passes.
 */
const CERT_PATH = /^\/v1\/notifications\/certs\/[A-Za-z0-9._-]{1,128}$/;
const CERT_WINDOW_MS = 10 * 60_000;
const CERT_FETCHES_PER_WINDOW = 5;
const CERT_KEEP_MS = 24 * 3600_000;
const CERT_FAILURE_KEEP_MS = 10 * 60_000;
const TRANSMISSION_ID = /^[A-Za-z0-9-]{1,64}$/;
const SIGNATURE = /^[A-Za-z0-9+/]{16,1400}={0,2}$/;

export type PayPalOptions = {
  clientId: string;
  clientSecret: string;
  apiBase: string;
  webhookId?: string;
  timeoutMs?: number;
  now?: () => number;
};

// ---- PayPal's answers and events, as far as the shop reads them ----

/** A field PayPal may leave out, or send in a shape we do not read: then it is absent. */
const lenient = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

const PayPalAmount = z.object({ value: z.string(), currency_code: z.string() });

const PayPalToken = z.object({ access_token: z.string().min(1), expires_in: z.number().optional() });

/** An error answer: its first issue (ORDER_NOT_APPROVED, ORDER_ALREADY_CAPTURED…) or its name. */
const PayPalError = z.object({ name: z.string().optional(), details: z.array(z.object({ issue: z.string().optional() })).optional() });

/** An order, as create, capture and get answer it (Orders v2). */
const PayPalOrder = z.object({
  id: z.string().min(1),
  status: z.string(),
  payer: lenient(z.object({ payer_id: lenient(z.string()) })),
  links: lenient(z.array(z.object({ href: z.string(), rel: z.string() }))),
  purchase_units: z
    .array(
      z.object({
        reference_id: z.string().optional(),
        payments: z.object({ captures: z.array(z.object({ id: z.string(), status: z.string(), amount: PayPalAmount })).optional() }).optional(),
      }),
    )
    .optional(),
});
type PayPalOrder = z.infer<typeof PayPalOrder>;

/** The answer of POST /v2/payments/captures/{id}/refund. */
const PayPalRefund = z.object({ id: z.string().min(1).max(64), status: z.string(), amount: lenient(PayPalAmount) });

/** Any event: its type and resource; what a resource holds depends on the type. */
const PayPalEvent = z.object({ event_type: z.string(), resource: z.record(z.string(), z.unknown()) });

/** PAYMENT.CAPTURE.COMPLETED: a capture; the order it belongs to is in supplementary_data. */
const CaptureResource = z.object({
  id: lenient(z.string()),
  status: lenient(z.string()),
  amount: lenient(PayPalAmount),
  custom_id: lenient(z.string()),
  supplementary_data: lenient(z.object({ related_ids: z.object({ order_id: z.string().min(1) }) })),
});

/** PAYMENT.CAPTURE.REFUNDED and .REVERSED: a refund-like resource whose "up" link is the capture. */
const RefundResource = z.object({
  id: lenient(z.string().min(1)),
  amount: lenient(PayPalAmount),
  custom_id: lenient(z.string()),
  invoice_id: lenient(z.string().max(127)),
  links: lenient(z.array(z.object({ rel: lenient(z.string()), href: lenient(z.string()) }))),
});

/** CUSTOMER.DISPUTE.CREATED: the dispute and the captures (seller transactions) it is about. */
const DisputeResource = z.object({
  dispute_id: lenient(z.string().min(1)),
  disputed_transactions: lenient(z.array(z.object({ seller_transaction_id: lenient(z.string()) }))),
});

const amountOf = (amount: z.infer<typeof PayPalAmount>) => ({ value: amount.value, currency: amount.currency_code });

/** The neutral action of a verified PayPal event (docs/product/money.md#paypal: the events handled). */
export function paypalWebhookAction(event: unknown): WebhookAction {
  const parsed = PayPalEvent.safeParse(event);
  if (!parsed.success) return { kind: "ignored", reason: "not an event with a resource" };
  const { event_type: type, resource } = parsed.data;
  if (type === "PAYMENT.CAPTURE.COMPLETED") {
    const capture = CaptureResource.parse(resource);
    const orderId = capture.supplementary_data?.related_ids.order_id;
    if (!orderId) return { kind: "ignored", reason: "capture without its order" };
    return {
      kind: "captured",
      capture: {
        orderId,
        completed: capture.status === "COMPLETED",
        captureId: capture.id,
        amount: capture.amount && amountOf(capture.amount),
        referenceId: capture.custom_id,
      },
    };
  }
  if (type === "PAYMENT.CAPTURE.REFUNDED" || type === "PAYMENT.CAPTURE.REVERSED") {
    const refund = RefundResource.parse(resource);
    const captureId = refund.links
      ?.find((l) => l.rel === "up")
      ?.href?.split("/")
      .pop();
    if (!captureId || !refund.id || !refund.amount) return { kind: "ignored", reason: "refund without its capture, id or amount" };
    return {
      kind: type === "PAYMENT.CAPTURE.REVERSED" ? "reversed" : "refunded",
      captureId,
      eventId: refund.id,
      amount: amountOf(refund.amount),
      orderRef: refund.custom_id,
      requestRef: refund.invoice_id,
    };
  }
  if (type === "CUSTOMER.DISPUTE.CREATED") {
    const dispute = DisputeResource.parse(resource);
    const captureIds = (dispute.disputed_transactions ?? []).map((t) => t.seller_transaction_id).filter((id): id is string => id !== undefined && id.length > 0 && id.length <= 64);
    if (!dispute.dispute_id || captureIds.length === 0) return { kind: "ignored", reason: "dispute without its captures" };
    return { kind: "disputed", disputeId: dispute.dispute_id, captureIds };
  }
  return { kind: "ignored", reason: `event ${type.slice(0, 64)}` };
}

export function createPayPal(options: PayPalOptions): PaymentProvider {
  const { clientId, clientSecret, apiBase, webhookId, timeoutMs = 8000 } = options;
  const now = options.now ?? Date.now;
  const apiOrigin = new URL(apiBase).origin;
  let token: { value: string; expiresAt: number } | undefined;
  type CachedCert = { key?: Promise<KeyObject>; until: number };
  const certs = new Map<string, CachedCert>();
  let certFetches: number[] = [];

  async function call(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(apiBase.replace(/\/+$/, "") + path, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw noAnswer("PayPal", error);
    }
  }

  /** A JSON answer's text, parsed; a body that is not JSON is a ProviderError. */
  async function jsonOf(response: Response): Promise<unknown> {
    const text = await response.text();
    try {
      return text ? JSON.parse(text) : {};
    } catch {
      throw new ProviderError(`PayPal answered ${response.status} without JSON`, response.status);
    }
  }

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > now()) return token.value;
    const response = await call("/v1/oauth2/token", {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: "grant_type=client_credentials",
    });
    if (!response.ok) throw new ProviderError(`PayPal token request failed (${response.status})`, response.status);
    const answer = PayPalToken.safeParse(await jsonOf(response));
    if (!answer.success) throw new ProviderError("PayPal token answer without access_token");
    // Renew a minute early, so a token never expires between our check and PayPal's.
    token = { value: answer.data.access_token, expiresAt: now() + Math.max(0, (answer.data.expires_in ?? 300) - 60) * 1000 };
    return token.value;
  }

  /** A call to PayPal's API whose answer must have the shape of `schema`. */
  async function api<S extends z.ZodType>(schema: S, method: string, path: string, body?: unknown, requestId?: string): Promise<z.infer<S>> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${await accessToken()}`,
      "content-type": "application/json",
      accept: "application/json",
      prefer: "return=representation",
    };
    if (requestId) headers["PayPal-Request-Id"] = requestId;
    const response = await call(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = await jsonOf(response);
    if (response.status === 401) token = undefined;
    if (!response.ok) {
      const error = PayPalError.safeParse(json);
      const issue = error.success ? (error.data.details?.[0]?.issue ?? error.data.name) : undefined;
      throw new ProviderError(`PayPal ${method} ${path} failed (${response.status}${issue ? ` ${issue}` : ""})`, response.status, issue);
    }
    const answer = schema.safeParse(json);
    if (!answer.success) throw new ProviderError(`PayPal ${method} ${path} answered a shape we do not read`, response.status);
    return answer.data;
  }

  /** A certificate URL we may fetch: a certificate path on a PayPal host. */
  function certUrlAllowed(value: string): boolean {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return false;
    }
    if (url.search || url.hash || url.username || url.password || !CERT_PATH.test(url.pathname)) return false;
    const paypalHost = url.protocol === "https:" && url.port === "" && (url.hostname === "paypal.com" || url.hostname.endsWith(".paypal.com"));
    return paypalHost || url.origin === apiOrigin;
  }

  async function fetchCert(url: string): Promise<KeyObject> {
    let response: Response;
    try {
      response = await fetch(url, { headers: { accept: "application/x-pem-file, text/plain" }, redirect: "error", signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw noAnswer("PayPal certificate", error);
    }
    if (!response.ok) throw new ProviderError(`PayPal certificate fetch failed (${response.status})`, response.status);
    const text = await response.text();
    const invalid = (why: string) => Object.assign(new ProviderError(`PayPal certificate ${why}`), { definite: true });
    if (text.length > 20_000) throw invalid("too large");
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(text);
    } catch {
      throw invalid("unreadable");
    }
    const wall = Date.now();
    if (Date.parse(cert.validFrom) > wall || Date.parse(cert.validTo) < wall) throw invalid("expired or not yet valid");
    return cert.publicKey;
  }

  /** The public key of a certificate, from the cache or fetched within the budget. */
  function certKey(url: string): Promise<KeyObject> {
    const at = now();
    const cached = certs.get(url);
    if (cached && cached.until > at) return cached.key ?? Promise.reject(new ProviderError("PayPal certificate failed recently"));
    certFetches = certFetches.filter((t) => t > at - CERT_WINDOW_MS);
    if (certFetches.length >= CERT_FETCHES_PER_WINDOW) {
      return Promise.reject(new ProviderError("too many new PayPal certificates: try later"));
    }
    certFetches.push(at);
    const entry: CachedCert = { until: at + CERT_KEEP_MS };
    entry.key = fetchCert(url).catch((error: unknown) => {
      // A certificate that is not there or not valid stays refused for a while; a timeout or a 5xx
      // may pass, so the next event (PayPal's retry) fetches again, within the budget.
      const definite = (error as { definite?: boolean }).definite === true;
      const transient = !definite && (!(error instanceof ProviderError) || error.status === undefined || error.status >= 500);
      if (transient) certs.delete(url);
      else certs.set(url, { until: now() + CERT_FAILURE_KEEP_MS });
      throw error;
    });
    // Keep the map small: expired entries go when a new certificate is fetched.
    for (const [key, value] of certs) if (value.until <= at) certs.delete(key);
    certs.set(url, entry);
    return entry.key;
  }

  function captureOf(order: PayPalOrder): ProviderCapture {
    const unit = order.purchase_units?.[0];
    const capture = unit?.payments?.captures?.[0];
    return {
      orderId: order.id,
      completed: (capture?.status ?? order.status) === "COMPLETED",
      captureId: capture?.id,
      amount: capture && amountOf(capture.amount),
      referenceId: unit?.reference_id,
      payerId: order.payer?.payer_id?.slice(0, 64),
    };
  }

  /** Whether the webhook's raw body carries PayPal's valid signature (throws when it cannot tell now). */
  async function signedByPayPal(headers: Record<string, string | undefined>, rawBody: string): Promise<boolean> {
    if (!webhookId) return false;
    const h = (name: string) => headers[name] ?? headers[name.toLowerCase()];
    const algo = h("paypal-auth-algo");
    const certUrl = h("paypal-cert-url");
    const transmissionId = h("paypal-transmission-id");
    const signature = h("paypal-transmission-sig");
    const time = h("paypal-transmission-time");
    // Everything that costs no call first: a forged event fails here or at the signature.
    if (!algo || !certUrl || !transmissionId || !signature || !time) return false;
    if (algo !== "SHA256withRSA" || !TRANSMISSION_ID.test(transmissionId) || !SIGNATURE.test(signature) || time.length > 64) return false;
    if (Number.isNaN(Date.parse(time)) || !certUrlAllowed(certUrl)) return false;
    const key = await certKey(certUrl);
    const message = `${transmissionId}|${time}|${webhookId}|${crc32(Buffer.from(rawBody, "utf8")) >>> 0}`;
    return verify("sha256", Buffer.from(message, "utf8"), key, Buffer.from(signature, "base64"));
  }

  return {
    name: "paypal",
    async createOrder(input: CreateOrderInput) {
      const order = await api(
        PayPalOrder,
        "POST",
        "/v2/checkout/orders",
        {
          intent: "CAPTURE",
          purchase_units: [
            {
              reference_id: input.referenceId,
              custom_id: input.referenceId,
              description: input.description.slice(0, 127),
              amount: { currency_code: input.amount.currency, value: input.amount.value },
            },
          ],
          payment_source: {
            paypal: {
              experience_context: { return_url: input.returnUrl, cancel_url: input.cancelUrl, user_action: "PAY_NOW", shipping_preference: "NO_SHIPPING" },
            },
          },
        },
        input.requestId,
      );
      const approve = order.links?.find((l) => l.rel === "approve" || l.rel === "payer-action");
      return { id: order.id, status: order.status, approveUrl: approve?.href };
    },
    async captureOrder(orderId, requestId) {
      try {
        return captureOf(await api(PayPalOrder, "POST", `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`, {}, requestId));
      } catch (error) {
        // Captured before (say by the webhook's twin or another tab): read the order instead.
        if (error instanceof ProviderError && error.issue === "ORDER_ALREADY_CAPTURED") return this.getOrder(orderId);
        throw error;
      }
    },
    async getOrder(orderId) {
      return captureOf(await api(PayPalOrder, "GET", `/v2/checkout/orders/${encodeURIComponent(orderId)}`));
    },
    async refundCapture(input) {
      const refund = await api(
        PayPalRefund,
        "POST",
        `/v2/payments/captures/${encodeURIComponent(input.captureId)}/refund`,
        {
          amount: { value: input.amount.value, currency_code: input.amount.currency },
          ...(input.reference ? { invoice_id: input.reference.slice(0, 127) } : {}),
          ...(input.note ? { note_to_payer: input.note.slice(0, 255) } : {}),
        },
        input.requestId,
      );
      const status = refund.status === "COMPLETED" ? "completed" : refund.status === "PENDING" ? "pending" : "failed";
      return { id: refund.id, status, amount: refund.amount && amountOf(refund.amount) };
    },
    async parseWebhook(headers, rawBody) {
      // Not JSON at all is refused before anything else: no certificate is fetched for it.
      let event: unknown;
      try {
        event = JSON.parse(rawBody);
      } catch {
        throw new WebhookRefused("malformed");
      }
      if (!(await signedByPayPal(headers, rawBody))) throw new WebhookRefused("unverified");
      return paypalWebhookAction(event);
    },
  };
}
