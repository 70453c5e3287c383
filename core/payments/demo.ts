// The built-in demo provider (never in production): the same flow as PayPal, but the buyer
// "approves" on a page of ours marked demo, and nothing leaves the machine. Its orders live in
// the shop's payment_orders table.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { paymentOrders } from "../../db/schema/index.ts";
import { sha256 } from "../shared/tokens.ts";
import { toDecimal, ProviderError, WebhookRefused, type PaymentProvider, type ProviderCapture } from "./provider.ts";

/** The demo provider's order ids: "DEMO-" and 17 hex digits of the request id's hash. */
export const DEMO_ORDER_ID = /^DEMO-[0-9A-F]{17}$/;

export function createDemoProvider({ db, publicUrl, digits }: { db: Db; publicUrl: string; digits: number }): PaymentProvider & {
  approve(orderId: string): Promise<boolean>;
} {
  async function find(orderId: string) {
    const [order] = await db
      .select()
      .from(paymentOrders)
      .where(and(eq(paymentOrders.providerOrderId, orderId), eq(paymentOrders.provider, "demo")));
    return order;
  }
  const captureOf = (order: NonNullable<Awaited<ReturnType<typeof find>>>, completed: boolean): ProviderCapture => ({
    orderId: order.providerOrderId!,
    completed,
    captureId: completed ? `DEMOCAP-${order.providerOrderId!.slice(5)}` : undefined,
    amount: { value: toDecimal(order.amount, digits), currency: order.currency },
    referenceId: String(order.id),
  });
  return {
    name: "demo",
    async createOrder(input) {
      // The same request id gives the same order, as PayPal-Request-Id does.
      const id = `DEMO-${sha256(input.requestId).slice(0, 17).toUpperCase()}`;
      // The demo page lives next to the return page, in the buyer's language.
      const base = input.returnUrl.startsWith(publicUrl) ? input.returnUrl.replace(/\/payment\/paypal$/, "/payment/demo") : `${publicUrl}/payment/demo`;
      return { id, status: "CREATED", approveUrl: `${base}?order=${id}` };
    },
    async captureOrder(orderId) {
      const order = await find(orderId);
      if (!order) throw new ProviderError("demo order not found", 404, "RESOURCE_NOT_FOUND");
      if (order.status === "created") throw new ProviderError("demo order not approved", 422, "ORDER_NOT_APPROVED");
      return captureOf(order, true);
    },
    async getOrder(orderId) {
      const order = await find(orderId);
      if (!order) throw new ProviderError("demo order not found", 404, "RESOURCE_NOT_FOUND");
      return captureOf(order, order.status !== "created" && order.status !== "approved");
    },
    async refundCapture(input) {
      // Nothing leaves the machine: the money "goes back" at once, one refund per request id.
      return { id: `DEMOREF-${sha256(input.requestId).slice(0, 17).toUpperCase()}`, status: "completed", amount: input.amount };
    },
    async parseWebhook(_headers, rawBody) {
      // The demo provider sends no webhooks: whatever is posted there is nobody's event.
      try {
        JSON.parse(rawBody);
      } catch {
        throw new WebhookRefused("malformed");
      }
      throw new WebhookRefused("unverified");
    },
    async approve(orderId) {
      const rows = await db
        .update(paymentOrders)
        .set({ status: "approved" })
        .where(and(eq(paymentOrders.providerOrderId, orderId), eq(paymentOrders.provider, "demo"), inArray(paymentOrders.status, ["created"])))
        .returning({ id: paymentOrders.id });
      return rows.length === 1;
    },
  };
}
