// PayPal REST (Orders v2): OAuth client credentials with the token cached until it expires,
// orders created with a PayPal-Request-Id (so a retry is the same order), capture, order lookup,
// and webhook signature verification through verify-webhook-signature. Every call has a timeout.
import { ProviderError, type CreateOrderInput, type PaymentProvider, type ProviderCapture } from "./provider.ts";

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
  links?: { href: string; rel: string }[];
  purchase_units?: {
    reference_id?: string;
    payments?: { captures?: { id: string; status: string; amount: { value: string; currency_code: string } }[] };
  }[];
};

export function createPayPal(options: PayPalOptions): PaymentProvider {
  const { clientId, clientSecret, apiBase, webhookId, timeoutMs = 8000 } = options;
  const now = options.now ?? Date.now;
  let token: { value: string; expiresAt: number } | undefined;

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

  function captureOf(order: PayPalOrder): ProviderCapture {
    const unit = order.purchase_units?.[0];
    const capture = unit?.payments?.captures?.[0];
    return {
      orderId: order.id,
      status: capture?.status ?? order.status,
      captureId: capture?.id,
      amount: capture ? { value: capture.amount.value, currency: capture.amount.currency_code } : undefined,
      referenceId: unit?.reference_id,
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
    async verifyWebhook(headers, event) {
      if (!webhookId) return false;
      const h = (name: string) => headers[name] ?? headers[name.toLowerCase()];
      // Without PayPal's transmission headers nothing can be verified: refused without a call.
      if (["paypal-auth-algo", "paypal-cert-url", "paypal-transmission-id", "paypal-transmission-sig", "paypal-transmission-time"].some((n) => !h(n))) return false;
      const result = await api<{ verification_status?: string }>("POST", "/v1/notifications/verify-webhook-signature", {
        auth_algo: h("paypal-auth-algo"),
        cert_url: h("paypal-cert-url"),
        transmission_id: h("paypal-transmission-id"),
        transmission_sig: h("paypal-transmission-sig"),
        transmission_time: h("paypal-transmission-time"),
        webhook_id: webhookId,
        webhook_event: event,
      });
      return result.verification_status === "SUCCESS";
    },
  };
}
