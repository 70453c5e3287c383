// What the shop needs of a payment provider: PayPal's Orders v2 flow (create → buyer approves →
// capture), webhook verification. PayPal and the built-in demo provider both implement it.

export type ProviderOrder = { id: string; status: string; approveUrl?: string };

/** A completed (or not) capture as the provider reports it. */
export type ProviderCapture = {
  orderId: string;
  status: string;
  captureId?: string;
  amount?: { value: string; currency: string };
  /** Our reference_id on the purchase unit: the shop's order id. */
  referenceId?: string;
  /** The buyer's account at the provider (PayPal payer id), when the provider names it. */
  payerId?: string;
};

export type CreateOrderInput = {
  requestId: string;
  referenceId: string;
  amount: { value: string; currency: string };
  description: string;
  returnUrl: string;
  cancelUrl: string;
};

export type PaymentProvider = {
  name: "paypal" | "demo";
  createOrder(input: CreateOrderInput): Promise<ProviderOrder>;
  /** Captures an approved order; an order captured before answers with that capture. */
  captureOrder(orderId: string, requestId: string): Promise<ProviderCapture>;
  getOrder(orderId: string): Promise<ProviderCapture>;
  /** Whether the webhook's raw body carries the provider's valid signature (throws when it cannot tell now). */
  verifyWebhook(headers: Record<string, string | undefined>, rawBody: string): Promise<boolean>;
};

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

/** "1999" minor units → "19.99" (for a currency with 2 decimals). */
export function toDecimal(minor: number, digits: number): string {
  if (digits === 0) return String(minor);
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor).toString().padStart(digits + 1, "0");
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
