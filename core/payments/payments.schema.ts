// Input schemas of payments, shared by the JSON API and the pages. Messages are i18n keys
// ("validation.*"), translated at the edge.
import { z } from "zod";

/**
 * A provider's order id as the buyer's return (`?token=`) or `payment/paypal/capture` carries it:
 * PayPal's are 17 letters and digits, the demo provider's `DEMO-…`; anything else is no order of ours.
 */
export const ORDER_ID = /^[A-Za-z0-9-]{1,64}$/;

export const OrderIdSchema = z.string({ message: "validation.required" }).regex(ORDER_ID, "validation.invalid");
