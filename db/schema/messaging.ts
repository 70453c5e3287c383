// User notifications, the mail outbox, and rate-limit counters.
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";

export const notifications = pgTable(
  "notifications",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    /**
     * Message parameters, rendered in the reader's language; `{ t: key }` is itself a message,
     * translated when read (e.g. "a NOVA user").
     */
    data: jsonb("data").$type<Record<string, string | number | { t: string }>>().notNull().default({}),
    read: boolean("read").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("notifications_user_id_desc").on(t.userId, t.id.desc())],
);

export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: serial("id").primaryKey(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    locale: text("locale").notNull(),
    /** The template the mail was made from (e.g. "gift_code"); null for mails older than the column. */
    template: text("template"),
    /**
     * Its parameters, kept only for templates that carry no secret (docs/product/back-office.md#customers):
     * what an operator's "resend" renders again. Null for a reset code, a confirmation link and the like.
     */
    params: jsonb("params").$type<Record<string, unknown>>(),
    status: text("status").notNull().default("queued"),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [check("mail_outbox_status", sql`${t.status} in ('queued', 'sent', 'failed', 'logged')`), index("mail_outbox_to").on(sql`lower(${t.to})`, t.id.desc())],
);

export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
});
