// The back office (docs/product/back-office.md): the audit log of every operator write, and bulk
// compensations with the set of passes each one extends.
import { sql } from "drizzle-orm";
import { bigint, bigserial, check, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { cheats } from "./catalog.ts";
import { paymentOrders, subscriptions } from "./commerce.ts";

/**
 * Every operator write and every role change (docs/product/back-office.md#audit-log). Append-only:
 * a trigger refuses UPDATE, DELETE and TRUNCATE, and no code path issues them. No foreign keys, so
 * that no change elsewhere (a user's deletion, say) ever has to touch an entry.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** The operator; null for the command line and the OWNER_EMAILS setting. */
    actorId: integer("actor_id"),
    /** What was done, as `area.verb`: `user.grant`, `payment.refund`, `operator.grant`… */
    action: text("action").notNull(),
    /** What it was done to: `user`, `payment`, `cheat`… and its id, as text. */
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    reason: text("reason").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
    /** The operator's client address; null off the web. */
    ip: text("ip"),
  },
  (t) => [
    check("audit_log_reason", sql`char_length(${t.reason}) between 1 and 500`),
    index("audit_log_actor").on(t.actorId, t.id.desc()),
    index("audit_log_target").on(t.targetType, t.targetId, t.id.desc()),
  ],
);

/**
 * A bulk compensation (docs/product/back-office.md#compensation): N days to every pass of a game
 * held when the call started. One per operator and Idempotency-Key, so a replay finds it and
 * resumes where a call that died stopped.
 */
export const compensations = pgTable(
  "compensations",
  {
    id: serial("id").primaryKey(),
    actorId: integer("actor_id")
      .notNull()
      .references(() => users.id),
    idempotencyKey: text("idempotency_key").notNull(),
    cheatId: integer("cheat_id")
      .notNull()
      .references(() => cheats.id),
    days: integer("days").notNull(),
    reason: text("reason").notNull(),
    /** How many passes the set holds (fixed when the call started). */
    total: integer("total").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("compensations_actor_key").on(t.actorId, t.idempotencyKey), check("compensations_days", sql`${t.days} between 1 and 365`)],
);

/** The passes a compensation extends: fixed when it started; each applied once, its owner mailed once. */
export const compensationItems = pgTable(
  "compensation_items",
  {
    compensationId: integer("compensation_id")
      .notNull()
      .references(() => compensations.id),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    appliedAt: timestamp("applied_at", { withTimezone: true }),
    mailedAt: timestamp("mailed_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.compensationId, t.subscriptionId] }),
    index("compensation_items_pending")
      .on(t.compensationId, t.subscriptionId)
      .where(sql`${t.appliedAt} is null`),
    index("compensation_items_unmailed")
      .on(t.compensationId)
      .where(sql`${t.appliedAt} is not null and ${t.mailedAt} is null`),
  ],
);

export const REFUND_REQUEST_STATUSES = ["requested", "completed", "pending", "refused"] as const;
export type RefundRequestStatus = (typeof REFUND_REQUEST_STATUSES)[number];

/**
 * Refunds operators asked the provider for (docs/product/back-office.md#refunds), each with the
 * request id the provider knows it by. One whose answer never came (`requested`) is asked again
 * with the same id, so a retry after a lost answer is the same refund at the provider, never a second.
 */
export const paymentRefunds = pgTable(
  "payment_refunds",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => paymentOrders.id),
    amount: bigint("amount", { mode: "number" }).notNull(),
    /** Sent as PayPal-Request-Id. */
    requestId: text("request_id").notNull().unique(),
    actorId: integer("actor_id").notNull(),
    /** The provider's refund id, once it answered. */
    refundId: text("refund_id"),
    status: text("status").$type<RefundRequestStatus>().notNull().default("requested"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("payment_refunds_status", sql`${t.status} in ('requested', 'completed', 'pending', 'refused')`),
    check("payment_refunds_amount", sql`${t.amount} > 0`),
    index("payment_refunds_order").on(t.orderId),
  ],
);
