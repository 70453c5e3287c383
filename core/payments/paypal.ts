// PayPal REST (Orders v2): OAuth client credentials with the token cached until it expires,
// orders created with a PayPal-Request-Id (so a retry is the same order), capture, order lookup,
// and webhook signatures verified here, with PayPal's certificate. Every call has a timeout.
import { X509Certificate, verify, type KeyObject } from "node:crypto";
import { crc32 } from "node:zlib";
import { ProviderError, type CreateOrderInput, type PaymentProvider, type ProviderCapture } from "./provider.ts";

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

type PayPalOrder = {
  id: string;
  status: string;
  payer?: { payer_id?: string };
  links?: { href: string; rel: string }[];
  purchase_units?: {
    reference_id?: string;
    payments?: { captures?: { id: string; status: string; amount: { value: string; currency_code: string } }[] };
  }[];
};

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
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      throw new ProviderError(timedOut ? "PayPal did not answer in time" : `PayPal unreachable: ${(error as Error).message}`);
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
    const body = (await response.json()) as { access_token?: string; expires_in?: number };
    if (!body.access_token) throw new ProviderError("PayPal token answer without access_token");
    // Renew a minute early, so a token never expires between our check and PayPal's.
    token = { value: body.access_token, expiresAt: now() + Math.max(0, (body.expires_in ?? 300) - 60) * 1000 };
    return token.value;
  }

  async function api<T>(method: string, path: string, body?: unknown, requestId?: string): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${await accessToken()}`,
      "content-type": "application/json",
      accept: "application/json",
      prefer: "return=representation",
    };
    if (requestId) headers["PayPal-Request-Id"] = requestId;
    const response = await call(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      throw new ProviderError(`PayPal answered ${response.status} without JSON`, response.status);
    }
    if (response.status === 401) token = undefined;
    if (!response.ok) {
      const issue = (json as { details?: { issue?: string }[] }).details?.[0]?.issue ?? (json as { name?: string }).name;
      throw new ProviderError(`PayPal ${method} ${path} failed (${response.status}${issue ? ` ${issue}` : ""})`, response.status, issue);
    }
    return json as T;
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
      throw new ProviderError(`PayPal certificate unreachable: ${(error as Error).message}`);
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
      status: capture?.status ?? order.status,
      captureId: capture?.id,
      amount: capture ? { value: capture.amount.value, currency: capture.amount.currency_code } : undefined,
      referenceId: unit?.reference_id,
      payerId: typeof order.payer?.payer_id === "string" ? order.payer.payer_id.slice(0, 64) : undefined,
    };
  }

  return {
    name: "paypal",
    async createOrder(input: CreateOrderInput) {
      const order = await api<PayPalOrder>(
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
        return captureOf(await api<PayPalOrder>("POST", `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`, {}, requestId));
      } catch (error) {
        // Captured before (say by the webhook's twin or another tab): read the order instead.
        if (error instanceof ProviderError && error.issue === "ORDER_ALREADY_CAPTURED") return this.getOrder(orderId);
        throw error;
      }
    },
    async getOrder(orderId) {
      return captureOf(await api<PayPalOrder>("GET", `/v2/checkout/orders/${encodeURIComponent(orderId)}`));
    },
    async verifyWebhook(headers, rawBody) {
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
    },
  };
}
