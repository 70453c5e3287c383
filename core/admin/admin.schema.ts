// Input schemas of the back office's calls (docs/product/back-office.md#calls), for the JSON API
// and, later, the admin pages' forms. Messages are i18n keys ("validation.*"), translated at the edge.
import { z } from "zod";
import { PAYMENT_ORDER_STATUSES } from "../../db/schema/index.ts";
import type { AuditFilter } from "../audit/index.ts";
import { typedAmountSchema } from "../payments/payments.schema.ts";
import { BigIdTextSchema, IdSchema, IdTextSchema } from "../shared/schema.ts";

/** The statuses a payment can be in, for the payments filter. */
export { PAYMENT_ORDER_STATUSES };

/** Why an operator does what they do: required on every write, kept in the audit log. */
export const ReasonSchema = z.string({ message: "validation.reason_required" }).trim().min(1, "validation.reason_required").max(500, "validation.too_long");

/**
 * A second-factor code for a step-up: 6 digits from the authenticator app, or a recovery code
 * (xxxx-xxxx). Optional in a body: an open step-up window needs none.
 */
export const StepUpCodeSchema = z
  .string({ message: "validation.required" })
  .trim()
  .regex(/^(\d{6}|[A-Za-z0-9]{4}-?[A-Za-z0-9]{4})$/, "validation.code_format");

export const StepUpSchema = z.object({ code: StepUpCodeSchema });

/** The most days one action grants or removes (owner); support's own limit is core/operators' SUPPORT_MAX_DAYS. */
export const MAX_GRANT_DAYS = 3650;

/** `POST /v2/admin/users/{id}/grant`: days to add (or, negative, remove) from one game's pass. */
export const GrantSchema = z.object({
  cheat_id: IdSchema,
  days: z
    .number({ message: "validation.required" })
    .int("validation.invalid")
    .min(-MAX_GRANT_DAYS, "validation.days_range")
    .max(MAX_GRANT_DAYS, "validation.days_range")
    .refine((days) => days !== 0, "validation.days_range"),
  reason: ReasonSchema,
});

/** The largest balance change of one action, in minor units. */
export const MAX_ADJUSTMENT = 100_000_000;

/** `POST /v2/admin/users/{id}/balance`: ± minor units. */
export const BalanceSchema = z.object({
  amount: z
    .number({ message: "validation.required" })
    .int("validation.invalid")
    .min(-MAX_ADJUSTMENT, "validation.invalid")
    .max(MAX_ADJUSTMENT, "validation.invalid")
    .refine((amount) => amount !== 0, "validation.invalid"),
  reason: ReasonSchema,
  code: StepUpCodeSchema.optional(),
});

/** The customer page's balance form: the change typed in the shop currency ("-5", "+12.50"), then the API's checks. */
export function balanceFormSchema(currency: string) {
  return BalanceSchema.extend({ amount: typedAmountSchema(currency, { signed: true }).pipe(BalanceSchema.shape.amount) });
}

/** Suspend, lift, reset 2FA: the reason alone. */
export const ReasonOnlySchema = z.object({ reason: ReasonSchema });

/** `POST /v2/admin/users/{id}/sessions/end`: one session, or (without `session_id`) all of them. */
export const EndSessionsSchema = z.object({ session_id: IdSchema.optional(), reason: ReasonSchema });

/** `POST /v2/admin/users/{id}/mails/resend`: a mail of the customer's, from their detail. */
export const ResendMailSchema = z.object({ mail_id: IdSchema, reason: ReasonSchema });

/** `POST /v2/admin/payments/{id}/refund`: minor units (default: all that is left). */
export const RefundSchema = z.object({
  amount: z.number().int("validation.invalid").positive("validation.invalid").max(MAX_ADJUSTMENT, "validation.invalid").optional(),
  reason: ReasonSchema,
  code: StepUpCodeSchema.optional(),
});

/** The payment page's refund form: an amount typed in the payment's currency, or none for all that is left. */
export function refundFormSchema(currency: string) {
  return RefundSchema.extend({ amount: typedAmountSchema(currency).pipe(z.number().positive("validation.invalid").max(MAX_ADJUSTMENT, "validation.invalid")).optional() });
}

/** `POST /v2/admin/compensation`: N days to every pass of a game held when the call starts. */
export const CompensationSchema = z.object({
  cheat_id: IdSchema,
  days: z.number({ message: "validation.required" }).int("validation.invalid").min(1, "validation.days_range").max(365, "validation.days_range"),
  reason: ReasonSchema,
  code: StepUpCodeSchema.optional(),
});

/** `GET /v2/admin/users?q=`: e-mail, username, id, referral code, visitor id or payment reference. */
export const UserSearchSchema = z.object({ q: z.string({ message: "validation.required" }).trim().min(1, "validation.required").max(254, "validation.too_long") });

/** A day (`2026-03-01`, the whole day in UTC) or an instant (ISO 8601 with its offset). */
const DayOrInstant = z.union([z.iso.date(), z.iso.datetime({ offset: true })], { message: "validation.date" });

/** Rows per page of a back-office list. */
const Limit = z.coerce.number().int().min(1, "validation.limit").max(100, "validation.limit").default(50);

export const PaymentsQuerySchema = z.object({
  user: IdTextSchema.optional(),
  status: z.enum(PAYMENT_ORDER_STATUSES, { message: "validation.invalid" }).optional(),
  provider: z.enum(["paypal", "demo"], { message: "validation.invalid" }).optional(),
  /** From this day or instant on. */
  from: DayOrInstant.optional(),
  /** Up to this instant, or to the end of this day. */
  to: DayOrInstant.optional(),
  cursor: IdTextSchema.optional(),
  limit: Limit,
  format: z.enum(["json", "csv"], { message: "validation.invalid" }).default("json"),
});

export const AuditQuerySchema = z.object({
  actor: IdTextSchema.optional(),
  /** `user:42`, or a type alone (`payment`). */
  target: z
    .string()
    .trim()
    .regex(/^[a-z_]{1,32}(:[A-Za-z0-9_.:-]{1,64})?$/, "validation.invalid")
    .optional(),
  action: z
    .string()
    .trim()
    .regex(/^[a-z_]{1,32}\.[a-z_0-9]{1,32}$/, "validation.invalid")
    .optional(),
  cursor: BigIdTextSchema.optional(),
  limit: Limit,
});

/** The start of a period bound: a day is its first instant in UTC. */
export function periodStart(value: string): Date {
  return new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
}

/** The end (exclusive) of a period bound: a day ends at the next day's first instant in UTC. */
export function periodEnd(value: string): Date {
  if (value.length !== 10) return new Date(value);
  return new Date(new Date(`${value}T00:00:00Z`).getTime() + 86_400_000);
}

/** A checked audit query (the API's and the audit page's) as the audit log's filter: `user:42` is a type and an id. */
export function auditFilterOf(q: z.infer<typeof AuditQuerySchema>): AuditFilter {
  const [targetType, ...rest] = q.target?.split(":") ?? [];
  return { actorId: q.actor, targetType, targetId: rest.length > 0 ? rest.join(":") : undefined, action: q.action, before: q.cursor, limit: q.limit };
}

/** A checked payments query (the API's and the payments page's) as the list's filter: days are whole days in UTC. */
export function paymentFilterOf(q: z.infer<typeof PaymentsQuerySchema>) {
  return {
    userId: q.user,
    status: q.status,
    provider: q.provider,
    from: q.from === undefined ? undefined : periodStart(q.from),
    to: q.to === undefined ? undefined : periodEnd(q.to),
  };
}
