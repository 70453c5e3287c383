// Input schemas of payments, shared by the JSON API and the pages. Messages are i18n keys
// ("validation.*"), translated at the edge.
import { z } from "zod";
import { minorDigits } from "../shared/money.ts";
import { IdSchema } from "../shared/schema.ts";
import { fromDecimal } from "./provider.ts";

/**
 * A provider's order id as the buyer's return (`?token=`) or `payment/paypal/capture` carries it:
 * PayPal's are 17 letters and digits, the demo provider's `DEMO-…`; anything else is no order of ours.
 */
export const ORDER_ID = /^[A-Za-z0-9-]{1,64}$/;

export const OrderIdSchema = z.string({ message: "validation.required" }).regex(ORDER_ID, "validation.invalid");

/** An amount in minor units, as the API takes it; the top-up range is the use case's (a setting). */
const MinorAmountSchema = z.number().int("validation.invalid").positive("validation.invalid").max(100_000_000);

/** `payment/paypal/order`: a product, or an amount to top up the balance with — one of the two. */
export const CreateOrderSchema = z
  .object({ product_id: IdSchema.optional(), amount: MinorAmountSchema.optional() })
  .refine((v) => (v.product_id === undefined) !== (v.amount === undefined), { message: "validation.product_or_amount", path: ["product_id"] });

export const CaptureSchema = z.object({ order_id: OrderIdSchema });

/**
 * An amount as a person types it in the shop currency — "25", "25.5" or "25,50", and with `signed`
 * a leading "-" or "+" — into minor units (docs/product/money.md#top-ups).
 */
export function typedAmountSchema(currency: string, { signed = false }: { signed?: boolean } = {}) {
  const digits = minorDigits(currency);
  return z
    .string({ message: "validation.required" })
    .transform((typed) => typed.trim().replace(/\s/g, "").replace(",", "."))
    .pipe(z.string().min(1, "validation.required"))
    .transform((text, ctx) => {
      const sign = signed && /^[-+]/.test(text) ? text[0] : "";
      const minor = fromDecimal(sign ? text.slice(1) : text, digits);
      if (minor !== undefined) return sign === "-" ? -minor : minor;
      ctx.addIssue({ code: "custom", message: "validation.amount" });
      return z.NEVER;
    });
}

/**
 * The balance page's top-up form: the typed amount into minor units; then the same range check
 * as the API's amount, in the use case.
 */
export function topUpFormSchema(currency: string) {
  return z.object({ amount: typedAmountSchema(currency) });
}
