// Input schemas of delivery (docs/product/delivery.md): the client API's activation, the buyer's
// licence and device calls, the download link, and the operators' builds and webhook endpoints.
import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "../../db/schema/index.ts";
import { IdSchema, IdTextSchema } from "../shared/schema.ts";
import { ReasonSchema } from "../admin/admin.schema.ts";

/**
 * The operators' delivery writes take an optional `reason` (docs/product/delivery.md#operator-calls): the calls of
 * delivery contract name none, so one made from the action stands in when it is left out; the back office's pages ask for it.
 */
const OptionalReasonSchema = ReasonSchema.optional();

const text = (max: number) => z.string({ message: "validation.required" }).trim().min(1, "validation.required").max(max, "validation.too_long");

/** `POST /v2/client/activate`. A key of the wrong shape is still just an invalid key (no hint). */
export const ActivateSchema = z.object({
  key: text(200),
  /** Opaque to us: whatever the client derives from its machine; stored only hashed. */
  hwid: text(512),
  client_version: z.string().trim().max(64, "validation.too_long").optional(),
});

/** The buyer's licence and device calls name the game. */
export const LicenceSchema = z.object({ cheat_id: IdSchema });

/** `GET /v2/web/user/downloads?cheat_id=`. */
export const DownloadQuerySchema = z.object({ cheat_id: IdTextSchema });

/** The text fields of a build upload (the file streams beside them). */
export const BuildFieldsSchema = z.object({
  version: text(64),
  notes: z.string().trim().max(4000, "validation.too_long").default(""),
  reason: OptionalReasonSchema,
});

/** `POST /v2/admin/webhooks`: the URL is checked further by the webhooks (https, public address). */
export const WebhookEndpointSchema = z.object({
  url: text(2048).pipe(z.url({ message: "validation.url", protocol: /^https?$/ })),
  /** Optional: one is made when none is given (shown in the answer). */
  secret: z.string().trim().min(16, "validation.too_short").max(200, "validation.too_long").optional(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES, { message: "validation.invalid" }), { message: "validation.required" }).min(1, "validation.required"),
  reason: OptionalReasonSchema,
});

/** The events an endpoint may ask for (the back office's form lists them). */
export { WEBHOOK_EVENT_TYPES };

/** Removing an endpoint, resending a delivery: the reason alone (an empty body is none). */
export const DeliveryReasonSchema = z.object({ reason: OptionalReasonSchema });
