// Input schemas of the notifications module (docs/product/api.md#account-calls): which stored
// notifications to mark read, from the API (JSON) and from the header's inbox (a page form).
import { z } from "zod";

/** Ids of notifications: positive integers a database id can be, 1 to 100 of them. */
const Ids = z
  .array(z.number({ message: "validation.notification_ids" }).int("validation.notification_ids").min(1, "validation.notification_ids").max(2_147_483_647, "validation.notification_ids"), {
    message: "validation.notification_ids",
  })
  .min(1, "validation.notification_ids")
  .max(100, "validation.notification_ids");

/** `POST /v2/web/user/notification/read`: `ids`, or `all: true` — one of the two. */
export const MarkReadSchema = z
  .object({ ids: Ids.optional(), all: z.literal(true, { message: "validation.notification_ids_or_all" }).optional() })
  .refine((v) => (v.ids === undefined) !== (v.all === undefined), { message: "validation.notification_ids_or_all", path: ["ids"] })
  .transform((v): MarkRead => (v.all ? { all: true } : { ids: v.ids! }));

export type MarkRead = { ids: number[] } | { all: true };

/** The inbox's form: one notification (`id`) or `all`, and the page to go back to. */
export const MarkReadFormSchema = z
  .object({
    intent: z.literal("read"),
    id: z.number({ message: "validation.notification_ids" }).int("validation.notification_ids").min(1, "validation.notification_ids").max(2_147_483_647, "validation.notification_ids").optional(),
    all: z.literal("1", { message: "validation.notification_ids_or_all" }).optional(),
    back: z.string().max(2048).optional(),
  })
  .refine((v) => (v.id === undefined) !== (v.all === undefined), { message: "validation.notification_ids_or_all", path: ["id"] });
