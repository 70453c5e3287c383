// A loopback BTCPay Server for tests: the Greenfield v1 subset the shop speaks (create an invoice,
// read it back, its payment methods, refund it as a pull payment) on 127.0.0.1, and the checkout
// page a buyer pays on (the e2e tests click its button). Knobs: the buyer pays all, part, more or
// late; an invoice expires or turns invalid; calls answer 500 or never; the invoice read back is
// tampered with (amount, currency, orderId); and webhook events signed as BTCPay signs them
// (`BTCPay-Sig: sha256=<HMAC-SHA256 of the raw body>`), or badly, to post — or delivered by the kit
// itself to the shop's webhook, as often as asked.
import { createHmac, randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { startLoopback, type KitRequest, type Match } from "./loopback.ts";

/** One BTC in the invoice currency: what the kit's payment methods report as the rate. */
export const KIT_RATE = "50000";

export type KitInvoiceStatus = "New" | "Processing" | "Settled" | "Expired" | "Invalid";

export type KitInvoice = {
  id: string;
  /** As the shop sent it ("14.99") and the currency. */
  amount: string;
  currency: string;
  status: KitInvoiceStatus;
  additionalStatus: "None" | "PaidPartial" | "PaidOver" | "PaidLate" | "Invalid";
  /** metadata.orderId as sent: the shop's order. */
  orderId: string;
  redirectURL?: string;
  /** Minor units the buyer paid so far (in the invoice currency). */
  paid: number;
  idempotencyKey?: string;
  /** Pull payments made by refunds. */
  refunds: { id: string; amount: string; currency: string }[];
};

export type { KitRequest } from "./loopback.ts";

export type BtcPayTamper = { amount?: string; currency?: string; orderId?: string };

export type BtcPayEventType = "InvoiceCreated" | "InvoiceReceivedPayment" | "InvoiceProcessing" | "InvoiceSettled" | "InvoiceExpired" | "InvoiceInvalid";

export type BtcPayKit = {
  url: string;
  storeId: string;
  apiKey: string;
  webhookSecret: string;
  /** Settings that point the shop at this kit (timeout 1500 ms unless given). */
  env(timeoutMs?: number): Record<string, string>;
  /** Where the kit delivers its webhooks (the shop's `/v2/web/payment/btcpay/webhook`), when set. */
  webhookUrl?: string;
  requests: KitRequest[];
  invoices: Map<string, KitInvoice>;
  /** The buyer pays `minor` units of the invoice currency (default: what is due); settles, partly pays, overpays or pays late. */
  pay(invoiceId: string, minor?: number): KitInvoice;
  /** The invoice expires (after a partial payment too). */
  expire(invoiceId: string): KitInvoice;
  invalidate(invoiceId: string): KitInvoice;
  /** The next n calls matching answer 500. */
  failNext(n: number, match?: Match): void;
  /** The next n calls matching get no answer at all. */
  hangNext(n: number, match?: Match): void;
  /** Every read of the invoice reports these values instead of the true ones. */
  tamper(invoiceId: string, tamper: BtcPayTamper): void;
  /** An event about the invoice as BTCPay sends it: the raw body and its headers, signed unless `signature` says otherwise. */
  webhook(type: BtcPayEventType, invoiceId: string, options?: { signature?: "good" | "bad" | "missing" | "other-secret"; storeId?: string }): { body: string; headers: Record<string, string> };
  /** Delivers the event to `webhookUrl`; the shop's status. */
  deliver(type: BtcPayEventType, invoiceId: string): Promise<number>;
  requestsTo(match: RegExp): KitRequest[];
  reset(): void;
  stop(): Promise<void>;
};

const id = (n = 11) =>
  randomBytes(n * 2)
    .toString("base64")
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, n + 11);

/** "14.99" → 1499 (the kit's currencies have two decimals). */
const minorOf = (value: string) => Math.round(Number(value) * 100);
const decimalOf = (minor: number) => (minor / 100).toFixed(2);

/** Minor units of the invoice currency → BTC at KIT_RATE (exact: 2e-7 BTC a minor unit). */
const btcOf = (minor: number) => (minor / (Number(KIT_RATE) * 100)).toFixed(8).replace(/0+$/, "").replace(/\.$/, ".0");

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startBtcPayKit(): Promise<BtcPayKit> {
  const storeId = `Store${id(6)}`;
  const apiKey = `kitkey${randomBytes(16).toString("hex")}`;
  const webhookSecret = `whsec${randomBytes(12).toString("hex")}`;
  const invoices = new Map<string, KitInvoice>();
  const tampers = new Map<string, BtcPayTamper>();
  let url = "";

  const invoiceJson = (inv: KitInvoice) => {
    const t = tampers.get(inv.id) ?? {};
    return {
      id: inv.id,
      storeId,
      amount: t.amount ?? inv.amount,
      currency: t.currency ?? inv.currency,
      type: "Standard",
      checkoutLink: `${url}/i/${inv.id}`,
      createdTime: Math.floor(Date.now() / 1000),
      expirationTime: Math.floor(Date.now() / 1000) + 900,
      monitoringExpiration: Math.floor(Date.now() / 1000) + 3600,
      status: inv.status,
      additionalStatus: inv.additionalStatus,
      archived: false,
      metadata: { orderId: t.orderId ?? inv.orderId },
      checkout: { redirectURL: inv.redirectURL ?? null, redirectAutomatically: true },
    };
  };

  const invoiceOf = (invoiceId: string) => {
    const inv = invoices.get(invoiceId);
    if (!inv) throw new Error(`kit: no invoice ${invoiceId}`);
    return inv;
  };

  const notFound = { status: 404, json: { code: "invoice-not-found", message: "The invoice was not found" } };

  function handle(req: KitRequest): { status: number; json: unknown } {
    const { method, path, headers } = req;
    const prefix = `/api/v1/stores/${storeId}/invoices`;
    if (!path.startsWith(prefix)) return { status: 404, json: { code: "store-not-found", message: "Store not found" } };
    if (headers.authorization !== `token ${apiKey}`) return { status: 401, json: { code: "unauthenticated", message: "Authentication is required" } };
    const rest = path.slice(prefix.length);
    if (method === "POST" && rest === "") {
      const body = req.body as { amount?: string; currency?: string; metadata?: { orderId?: string }; checkout?: { redirectURL?: string } };
      const key = headers["idempotency-key"];
      const same = key ? [...invoices.values()].find((i) => i.idempotencyKey === key) : undefined;
      if (same) return { status: 200, json: invoiceJson(same) };
      if (!body?.amount || !body.currency || !/^\d+(\.\d{1,2})?$/.test(body.amount)) return { status: 422, json: [{ path: "amount", message: "Invalid amount" }] };
      const inv: KitInvoice = {
        id: id(),
        amount: body.amount,
        currency: body.currency,
        status: "New",
        additionalStatus: "None",
        orderId: String(body.metadata?.orderId ?? ""),
        redirectURL: body.checkout?.redirectURL,
        paid: 0,
        idempotencyKey: key,
        refunds: [],
      };
      invoices.set(inv.id, inv);
      return { status: 200, json: invoiceJson(inv) };
    }
    const match = /^\/([A-Za-z0-9]+)(\/payment-methods|\/refund)?$/.exec(rest);
    const inv = match ? invoices.get(match[1]!) : undefined;
    if (!match || !inv) return notFound;
    if (method === "GET" && !match[2]) return { status: 200, json: invoiceJson(inv) };
    if (method === "GET" && match[2] === "/payment-methods") {
      const due = Math.max(0, minorOf(inv.amount) - inv.paid);
      return {
        status: 200,
        json: [
          {
            paymentMethod: "BTC-CHAIN",
            cryptoCode: "BTC",
            destination: "bcrt1qkit",
            rate: KIT_RATE,
            paymentMethodPaid: btcOf(inv.paid),
            totalPaid: btcOf(inv.paid),
            due: btcOf(due),
            amount: btcOf(minorOf(inv.amount)),
            networkFee: "0.0",
            payments: [],
            activated: true,
          },
        ],
      };
    }
    if (method === "POST" && match[2] === "/refund") {
      if (inv.status !== "Settled") return { status: 422, json: { code: "non-refundable", message: "Cannot refund this invoice" } };
      const body = req.body as { customAmount?: string; customCurrency?: string };
      const pull = { id: id(8), amount: body?.customAmount ?? inv.amount, currency: body?.customCurrency ?? inv.currency };
      inv.refunds.push(pull);
      return { status: 200, json: { ...pull, name: "Refund", viewLink: `${url}/pull-payments/${pull.id}`, archived: false, period: null, autoApproveClaims: false } };
    }
    return notFound;
  }

  /** The checkout page the buyer pays on (GET /i/:id), and its pay button (POST /i/:id/pay). */
  async function checkout(method: string, path: string, res: ServerResponse): Promise<boolean> {
    const match = /^\/i\/([A-Za-z0-9]+)(\/pay)?$/.exec(path);
    if (!match) return false;
    const inv = invoices.get(match[1]!);
    if (!inv) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Invoice not found");
      return true;
    }
    if (method === "POST" && match[2]) {
      kit.pay(inv.id);
      // BTCPay tells the store, then sends the buyer back (redirectAutomatically).
      await kit.deliver("InvoiceSettled", inv.id).catch(() => 0);
      const back = (inv.redirectURL ?? "").replace("{InvoiceId}", encodeURIComponent(inv.id)).replace("{OrderId}", encodeURIComponent(inv.orderId));
      res.writeHead(303, { location: back || `${url}/i/${inv.id}` }).end();
      return true;
    }
    const settled = inv.status === "Settled";
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      .end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>BTCPay Server (test stand-in)</title>
<style>body{font-family:system-ui,sans-serif;background:#f4f6f8;display:grid;place-items:center;min-height:100vh;margin:0}main{background:#fff;border-radius:12px;padding:32px;box-shadow:0 2px 12px #0002;min-width:320px;text-align:center}h1{font-size:18px;color:#51b13e}p.amount{font-size:28px;font-weight:700}button{background:#51b13e;color:#fff;border:0;border-radius:8px;padding:12px 24px;font-size:16px;cursor:pointer}</style></head>
<body><main><h1>BTCPay Server — test stand-in</h1><p>Invoice <code>${escape(inv.id)}</code></p><p class="amount">${escape(inv.amount)} ${escape(inv.currency)}</p><p>${escape(btcOf(minorOf(inv.amount)))} BTC</p>
${settled ? `<p id="status">Paid</p>` : `<form method="post" action="/i/${escape(inv.id)}/pay"><button type="submit" id="pay">Pay with Bitcoin</button></form>`}</main></body></html>`);
    return true;
  }

  const loop = await startLoopback({ handle, failure: () => ({ status: 500, json: { code: "server-error", message: "kit failure" } }), page: checkout });
  url = loop.url;

  const sign = (body: string, secret: string) => `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;

  const kit: BtcPayKit = {
    url,
    storeId,
    apiKey,
    webhookSecret,
    env: (timeoutMs = 1500) => ({ BTCPAY_URL: url, BTCPAY_API_KEY: apiKey, BTCPAY_STORE_ID: storeId, BTCPAY_WEBHOOK_SECRET: webhookSecret, BTCPAY_TIMEOUT_MS: String(timeoutMs) }),
    requests: loop.requests,
    invoices,
    pay(invoiceId, minor) {
      const inv = invoiceOf(invoiceId);
      const amount = minorOf(inv.amount);
      inv.paid += minor ?? Math.max(0, amount - inv.paid);
      if (inv.status === "Expired" || inv.status === "Invalid") {
        if (inv.paid >= amount) inv.additionalStatus = "PaidLate";
      } else if (inv.paid >= amount) {
        inv.status = "Settled";
        inv.additionalStatus = inv.paid > amount ? "PaidOver" : "None";
      } else if (inv.paid > 0) {
        inv.additionalStatus = "PaidPartial";
      }
      return inv;
    },
    expire(invoiceId) {
      const inv = invoiceOf(invoiceId);
      inv.status = "Expired";
      return inv;
    },
    invalidate(invoiceId) {
      const inv = invoiceOf(invoiceId);
      inv.status = "Invalid";
      inv.additionalStatus = "Invalid";
      return inv;
    },
    failNext: loop.failNext,
    hangNext: (n, match) => loop.hangNext(n, match),
    tamper(invoiceId, tamper) {
      tampers.set(invoiceId, tamper);
    },
    webhook(type, invoiceId, options = {}) {
      const inv = invoices.get(invoiceId);
      const body = JSON.stringify({
        deliveryId: id(8),
        webhookId: "KitHook",
        originalDeliveryId: id(8),
        isRedelivery: false,
        type,
        timestamp: Math.floor(Date.now() / 1000),
        storeId: options.storeId ?? storeId,
        invoiceId,
        metadata: { orderId: inv?.orderId },
        ...(type === "InvoiceExpired" ? { partiallyPaid: inv?.additionalStatus === "PaidPartial", paymentMethodPaid: inv ? decimalOf(inv.paid) : "0" } : {}),
        ...(type === "InvoiceSettled" ? { manuallyMarked: false, overPaid: inv?.additionalStatus === "PaidOver" } : {}),
      });
      const signature = options.signature ?? "good";
      const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "BTCPayServer" };
      if (signature === "good") headers["btcpay-sig"] = sign(body, webhookSecret);
      if (signature === "bad") headers["btcpay-sig"] = sign(`${body} `, webhookSecret);
      if (signature === "other-secret") headers["btcpay-sig"] = sign(body, "not-the-secret");
      return { body, headers };
    },
    async deliver(type, invoiceId) {
      if (!kit.webhookUrl) return 0;
      const { body, headers } = kit.webhook(type, invoiceId);
      const response = await fetch(kit.webhookUrl, { method: "POST", headers, body });
      await response.arrayBuffer();
      return response.status;
    },
    requestsTo: loop.requestsTo,
    reset() {
      loop.resetKnobs();
      tampers.clear();
    },
    stop: loop.stop,
  };
  return kit;
}
