// Input schemas of gifts (docs/product/money.md#gifts), shared by the JSON API and the gift page:
// the same fields checked the same way, whichever door they came through. Messages are i18n keys.
import { z } from "zod";
import { IdSchema, IdTextSchema } from "../shared/schema.ts";

/** The longest recipient: an e-mail address. */
export const RECIPIENT_MAX = 254;

/** An e-mail address or a username; empty is none (a gift as a code). */
const RecipientSchema = z
  .string({ message: "validation.invalid_type" })
  .trim()
  .max(RECIPIENT_MAX, "validation.too_long")
  .optional()
  .transform((v) => v || undefined);

/** `user/gift`: the product by id, and the recipient. */
export const GiftSchema = z.object({ product_id: IdSchema, recipient: RecipientSchema });

/** The gift page's form: the same input, its product chosen in a select (the id as text). */
export const GiftFormSchema = z.object({ product: IdTextSchema, recipient: RecipientSchema });

/**
 * `gift/redeem` and the page's redeem form: a code as typed. Whether it is a code at all is the
 * use case's to say (404, as for a code nobody made).
 */
export const RedeemSchema = z.object({ code: z.string({ message: "validation.required" }).trim().min(1, "validation.required").max(64, "validation.too_long") });
