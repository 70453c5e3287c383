// The webhook page's forms on the server (a .server module: Zod and the core's schemas stay out of
// the browser's bundle; tests/integration/page-forms.test.ts checks that no page ships Zod).
import { z } from "zod";
import { ReasonSchema } from "../../../core/admin/admin.schema.ts";
import { WebhookEndpointSchema } from "../../../core/delivery/delivery.schema.ts";
import { IdSchema } from "../../../core/shared/schema.ts";

export { WEBHOOK_EVENT_TYPES } from "../../../core/delivery/delivery.schema.ts";

export const WebhookForms = z.discriminatedUnion("intent", [
  WebhookEndpointSchema.extend({ intent: z.literal("add"), reason: ReasonSchema }),
  z.object({ intent: z.literal("remove"), endpoint_id: IdSchema, reason: ReasonSchema }),
  z.object({ intent: z.literal("resend"), delivery_id: IdSchema, reason: ReasonSchema }),
]);
