// BTCPay Server, Greenfield API v1 (docs/product/money.md#btcpay-server): an order is an invoice
// (POST /api/v1/stores/{storeId}/invoices, metadata.orderId = our order), the buyer pays on its
// checkoutLink and comes back to /payment/btcpay. Nothing is "captured": the shop reads the
// invoice back (GET …/invoices/{id}) after the buyer's return and after every webhook, and only a
// Settled invoice whose amount, currency and orderId match is booked (index.ts). Webhooks carry
// `BTCPay-Sig: sha256=<hex HMAC-SHA256 of the raw body>` under the webhook's secret; a body without
// a good signature costs no call. What the buyer paid in crypto is read from the invoice's payment
// methods (totalPaid × rate), so money paid late, over or partly is never lost. Every call has a
// timeout; every answer is read through a Zod schema.
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { ProviderError, WebhookRefused, noAnswer, toDecimal, type CreateOrderInput, type PaymentProvider, type ProviderAmount, type ProviderCapture, type WebhookAction } from "./provider.ts";

export type BtcPayOptions = {
  url: string;
  apiKey: string;
  storeId: string;
  webhookSecret: string;
  timeoutMs?: number;
  /** Minor digits of the shop currency: what the buyer paid is rounded down to them. */
  digits: number;
};

/** BTCPay's invoice ids: base58-like letters and digits. */
export const BTCPAY_INVOICE_ID = /^[A-Za-z0-9]{8,64}$/;

const lenient = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

const Invoice = z.object({
  id: z.string().regex(BTCPAY_INVOICE_ID),
  storeId: lenient(z.string()),
  amount: z.union([z.string(), z.number()]).transform(String),
  currency: z.string(),
  status: z.string(),
  additionalStatus: lenient(z.string()),
  checkoutLink: lenient(z.string()),
  metadata: lenient(z.object({ orderId: lenient(z.union([z.string(), z.number()]).transform(String)) })),
});
type Invoice = z.infer<typeof Invoice>;

const PaymentMethods = z.array(
  z.object({
    rate: z.union([z.string(), z.number()]).transform(String),
    totalPaid: z.union([z.string(), z.number()]).transform(String),
  }),
);

const PullPayment = z.object({
  id: z.string().min(1).max(64),
  amount: lenient(z.union([z.string(), z.number()]).transform(String)),
  currency: lenient(z.string()),
  /** The pull payment's page, where the buyer claims the money with an address of theirs. */
  viewLink: lenient(z.url({ protocol: /^https?$/ }).max(2000)),
});

const Event = z.object({
  type: z.string().max(64),
  invoiceId: lenient(z.string().regex(BTCPAY_INVOICE_ID)),
  storeId: lenient(z.string()),
});

/** A decimal text → [digits as bigint, scale]; undefined when it is not a plain non-negative decimal. */
function decimal(text: string): [bigint, number] | undefined {
  const match = /^(\d{1,30})(?:\.(\d{1,30}))?$/.exec(text.trim());
  if (!match) return undefined;
  const fraction = match[2] ?? "";
  return [BigInt(match[1]! + fraction), fraction.length];
}

/** a × b, rounded down to `digits` decimals, as text: crypto paid × the invoice's rate, in the invoice currency. */
export function multiplyDown(a: string, b: string, digits: number): string | undefined {
  const x = decimal(a);
  const y = decimal(b);
  if (!x || !y) return undefined;
  const scale = x[1] + y[1];
  let product = x[0] * y[0];
  if (scale > digits) product /= 10n ** BigInt(scale - digits);
  else product *= 10n ** BigInt(digits - scale);
  return toDecimal(Number(product), digits);
}

export function createBtcPay(options: BtcPayOptions): PaymentProvider {
  const { apiKey, storeId, webhookSecret, timeoutMs = 8000, digits } = options;
  const base = `${options.url.replace(/\/+$/, "")}/api/v1/stores/${encodeURIComponent(storeId)}`;

  async function api<S extends z.ZodType>(schema: S, method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<z.infer<S>> {
    const headers: Record<string, string> = { authorization: `token ${apiKey}`, accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    let response: Response;
    try {
      response = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw noAnswer("BTCPay", error);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      throw new ProviderError(`BTCPay answered ${response.status} without JSON`, response.status);
    }
    if (!response.ok) {
      const code = z.object({ code: z.string().max(64) }).safeParse(json);
      throw new ProviderError(`BTCPay ${method} ${path} failed (${response.status})`, response.status, code.success ? code.data.code : undefined);
    }
    const answer = schema.safeParse(json);
    if (!answer.success) throw new ProviderError(`BTCPay ${method} ${path} answered a shape we do not read`, response.status);
    return answer.data;
  }

  /** What the buyer paid for the invoice so far, in its currency (rounded down); undefined when unknown. */
  async function received(invoice: Invoice): Promise<ProviderAmount | undefined> {
    const methods = await api(PaymentMethods, "GET", `/invoices/${encodeURIComponent(invoice.id)}/payment-methods`);
    // totalPaid is what all methods received, each in its own crypto: one method's figure × its rate is the whole.
    const method = methods.find((m) => decimal(m.totalPaid)?.[0] !== 0n) ?? methods[0];
    const value = method && multiplyDown(method.totalPaid, method.rate, digits);
    return value === undefined ? undefined : { value, currency: invoice.currency };
  }

  async function read(invoiceId: string): Promise<ProviderCapture> {
    if (!BTCPAY_INVOICE_ID.test(invoiceId)) throw new ProviderError("not a BTCPay invoice id", 404);
    const invoice = await api(Invoice, "GET", `/invoices/${encodeURIComponent(invoiceId)}`);
    const settled = invoice.status === "Settled";
    const ended = invoice.status === "Expired" || invoice.status === "Invalid";
    const extra = invoice.additionalStatus;
    // Only when it can differ from the amount: overpaid, partly paid, or paid after expiry.
    const paidOtherwise = extra === "PaidOver" || extra === "PaidPartial" || extra === "PaidLate" || (ended && extra !== "None" && extra !== undefined && extra !== "Invalid");
    return {
      orderId: invoice.id,
      completed: settled,
      captureId: settled ? invoice.id : undefined,
      amount: { value: invoice.amount, currency: invoice.currency },
      referenceId: invoice.metadata?.orderId,
      ended,
      partial: extra === "PaidPartial" && !settled,
      received: paidOtherwise ? await received(invoice) : undefined,
    };
  }

  /** Whether the raw body carries the webhook secret's HMAC (BTCPay-Sig: sha256=<hex>). */
  function signed(headers: Record<string, string | undefined>, rawBody: string): boolean {
    const header = headers["btcpay-sig"] ?? headers["BTCPay-Sig"];
    const match = header ? /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim()) : null;
    if (!match) return false;
    const expected = createHmac("sha256", webhookSecret).update(rawBody, "utf8").digest();
    return timingSafeEqual(expected, Buffer.from(match[1]!, "hex"));
  }

  return {
    name: "btcpay",
    async createOrder(input: CreateOrderInput) {
      const invoice = await api(
        Invoice,
        "POST",
        "/invoices",
        {
          amount: input.amount.value,
          currency: input.amount.currency,
          metadata: { orderId: input.referenceId, itemDesc: input.description.slice(0, 127) },
          checkout: { redirectURL: input.returnUrl, redirectAutomatically: true },
        },
        input.requestId,
      );
      return { id: invoice.id, status: invoice.status, approveUrl: invoice.checkoutLink };
    },
    // Nothing to capture: the invoice read back says whether the money arrived.
    captureOrder: (invoiceId) => read(invoiceId),
    getOrder: (invoiceId) => read(invoiceId),
    /**
     * A refund is a pull payment of the invoice (POST …/invoices/{id}/refund, docs/decisions/0040):
     * BTCPay sends nothing by itself; the buyer claims it at its link with an address of theirs. The
     * shop applies the refund at once (the money is promised and no event will follow).
     */
    async refundCapture(input) {
      const pull = await api(
        PullPayment,
        "POST",
        `/invoices/${encodeURIComponent(input.captureId)}/refund`,
        {
          name: (input.note ?? "Refund").slice(0, 100),
          description: input.reference?.slice(0, 200),
          refundVariant: "Custom",
          customAmount: input.amount.value,
          customCurrency: input.amount.currency,
        },
        input.requestId,
      );
      // The buyer is sent its page (docs/decisions/0042-refund-claim-link.md); BTCPay's own address of it when the answer lacks one.
      const claimUrl = pull.viewLink ?? `${options.url.replace(/\/+$/, "")}/pull-payments/${encodeURIComponent(pull.id)}`;
      return { id: pull.id, status: "completed", amount: input.amount, claimUrl };
    },
    async parseWebhook(headers, rawBody) {
      let event: unknown;
      try {
        event = JSON.parse(rawBody);
      } catch {
        throw new WebhookRefused("malformed");
      }
      if (!signed(headers, rawBody)) throw new WebhookRefused("unverified");
      const parsed = Event.safeParse(event);
      if (!parsed.success || !parsed.data.invoiceId) return { kind: "ignored", reason: "not an invoice event" };
      if (parsed.data.storeId !== undefined && parsed.data.storeId !== storeId) return { kind: "ignored", reason: "another store's event" };
      // Whatever the event says, the invoice read back decides (docs/product/money.md#btcpay-server).
      return actionOf(await read(parsed.data.invoiceId));
    },
  };
}

/** The action of an invoice as read back: booked when settled, failed when it ended, else nothing yet. */
export function actionOf(invoice: ProviderCapture): WebhookAction {
  if (invoice.completed) return { kind: "captured", capture: invoice };
  if (invoice.ended) return { kind: "expired", orderId: invoice.orderId, received: invoice.received };
  if (invoice.partial) return { kind: "partial", orderId: invoice.orderId, amount: invoice.received };
  return { kind: "ignored", reason: "invoice not settled yet" };
}
