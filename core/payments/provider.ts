// What the shop needs of a payment provider: an order flow (create → the buyer approves at the
// provider → capture) and its webhooks, in the provider's own words inside its own file
// (paypal.ts, btcpay.ts, demo.ts) and in neutral words here. createPayments (index.ts) knows only
// these types: each provider is a file that implements PaymentProvider, not edits across the core.

export type ProviderOrder = { id: string; status: string; approveUrl?: string };

/** An amount as providers write it: a decimal string ("19.99") in an ISO 4217 currency. */
export type ProviderAmount = { value: string; currency: string };

/** A capture (or its absence) as the provider reports it. */
export type ProviderCapture = {
  /** The provider's order id. */
  orderId: string;
  /** The money is taken; anything else (created, approved, pending, denied) is not, or not yet. */
  completed: boolean;
  captureId?: string;
  amount?: ProviderAmount;
  /** Our reference on the provider's order: the shop's order id. */
  referenceId?: string;
  /** The buyer's account at the provider (PayPal payer id), when the provider names it. */
  payerId?: string;
  /** The provider gave the order up (BTCPay's Expired or Invalid invoice): it will never complete. */
  ended?: boolean;
  /** Less than the amount has arrived so far (BTCPay's PaidPartial). */
  partial?: boolean;
  /**
   * What the buyer actually paid, in the order's currency, when the provider can tell it apart
   * from `amount` (BTCPay: overpaid, partly paid, paid after expiry). Absent: `amount` when completed.
   */
  received?: ProviderAmount;
};

/**
 * What a verified webhook asks of the shop (docs/product/money.md#paying-through-a-provider), after
 * Medusa's getWebhookActionAndData: the provider reads its event, the core applies the action.
 */
export type WebhookAction =
  /** A payment completed at the provider: book it once, as the capture call would. */
  | { kind: "captured"; capture: ProviderCapture }
  /**
   * Money given back (a refund) or taken back by the buyer's bank (a chargeback) for a capture.
   * `requestRef` is the shop's own reference of a refund it asked for (RefundInput.reference).
   */
  | { kind: "refunded" | "reversed"; captureId: string; eventId: string; amount: ProviderAmount; orderRef?: string; requestRef?: string }
  /** The buyer opened a dispute about these captures: flagged for operators, no money moves. */
  | { kind: "disputed"; disputeId: string; captureIds: string[] }
  /**
   * The provider gave an order up (BTCPay's expired or invalid invoice): it fails, never to be
   * booked; what the buyer paid for it all the same (`received`: partly, or late) goes to the balance.
   */
  | { kind: "expired"; orderId: string; received?: ProviderAmount }
  /** Less than the order's amount arrived (BTCPay's partial payment): for operators, no money moves yet. */
  | { kind: "partial"; orderId: string; amount?: ProviderAmount }
  /** Nothing for the shop to do (an event it does not use, or one about nothing it knows). */
  | { kind: "ignored"; reason: string };

/** A refund the shop asked the provider for (an operator's, docs/product/back-office.md#refunds). */
export type RefundInput = {
  captureId: string;
  amount: ProviderAmount;
  /** The same id is the same refund at the provider, however often it is sent. */
  requestId: string;
  /** Shown to the buyer by the provider. */
  note?: string;
  /** The shop's reference of the request, which the provider's refund event carries back (PayPal's invoice_id). */
  reference?: string;
};

/**
 * The provider's answer to a refund: its id (the one its refund event names, so the two apply
 * once) and whether the money went back already (`completed`) or will (`pending`: its event
 * applies it then); `failed` moved nothing.
 */
export type ProviderRefund = {
  id: string;
  status: "completed" | "pending" | "failed";
  amount?: ProviderAmount;
  /** Where the buyer claims the money, when the provider does not send it back by itself (BTCPay's pull payment). */
  claimUrl?: string;
};

export type CreateOrderInput = {
  requestId: string;
  referenceId: string;
  amount: ProviderAmount;
  description: string;
  returnUrl: string;
  cancelUrl: string;
};

export type PaymentProvider = {
  /** Also the `source` of its ledger rows and the prefix of its references (a new one joins the schema's check). */
  name: "paypal" | "btcpay" | "demo";
  createOrder(input: CreateOrderInput): Promise<ProviderOrder>;
  /** Captures an approved order (BTCPay: reads the invoice back); an order captured before answers with that capture. */
  captureOrder(orderId: string, requestId: string): Promise<ProviderCapture>;
  getOrder(orderId: string): Promise<ProviderCapture>;
  /** Gives (part of) a capture back to the buyer; throws ProviderError with the provider's issue when refused. */
  refundCapture(input: RefundInput): Promise<ProviderRefund>;
  /**
   * A webhook's raw body and headers → the action it asks for. The provider checks its own
   * signature (without a call per event) and reads its own event format; throws WebhookRefused
   * for a body that is not its event or not signed by it, ProviderError when it cannot tell now.
   */
  parseWebhook(headers: Record<string, string | undefined>, rawBody: string): Promise<WebhookAction>;
};

/** A webhook that is not the provider's: unreadable (`malformed`) or not signed by it (`unverified`). */
export class WebhookRefused extends Error {
  constructor(readonly why: "malformed" | "unverified") {
    super(`webhook ${why}`);
  }
}

/** The provider failed or did not answer in time: the buyer may retry. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly issue?: string,
  ) {
    super(message);
  }
}

/**
 * A provider call that got no answer, as a ProviderError: "did not answer in time" for the
 * timeout, else "unreachable" with the network's own reason (fetch says only "fetch failed"; the
 * cause says ECONNRESET, ECONNREFUSED, a certificate error), for the operator reading the log.
 */
export function noAnswer(what: string, error: unknown): ProviderError {
  const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
  if (timedOut) return new ProviderError(`${what} did not answer in time`);
  const cause: (Error & { code?: string }) | undefined = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const reason = cause ? ` (${cause.code ?? cause.message})` : "";
  return new ProviderError(`${what} unreachable: ${(error as Error).message}${reason}`);
}

/** "1999" minor units → "19.99" (for a currency with 2 decimals). */
export function toDecimal(minor: number, digits: number): string {
  if (digits === 0) return String(minor);
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor)
    .toString()
    .padStart(digits + 1, "0");
  return `${sign}${abs.slice(0, -digits)}.${abs.slice(-digits)}`;
}

/** "19.99" → 1999; undefined when the text is not a plain amount with at most `digits` decimals. */
export function fromDecimal(value: string, digits: number): number | undefined {
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return undefined;
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return undefined;
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
}
