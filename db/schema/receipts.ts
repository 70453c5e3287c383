// Receipts (docs/product/money.md#receipts): one per completed payment, balance purchase or gift,
// written in the transaction that books it; mailed once after the commit.
import { sql } from "drizzle-orm";
import { bigint, char, check, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { transactions, type ProductSnapshot } from "./commerce.ts";

export const RECEIPT_KINDS = ["topup", "purchase", "gift"] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];

export const receipts = pgTable(
  "receipts",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The ledger row of the payment: one receipt per payment, whatever raced to book it. */
    transactionId: bigint("transaction_id", { mode: "number" })
      .notNull()
      .unique()
      .references(() => transactions.id),
    kind: text("kind").$type<ReceiptKind>().notNull(),
    /** How it was paid: "balance" or the provider's name ("paypal", "demo", …). */
    method: text("method").notNull(),
    /** What was paid, minor units. */
    amount: bigint("amount", { mode: "number" }).notNull(),
    currency: char("currency", { length: 3 }).notNull(),
    /** What was bought, as sold; empty for a top-up. */
    items: jsonb("items").$type<ProductSnapshot[]>().notNull().default([]),
    /** The provider's order id, when a provider took the money. */
    orderRef: text("order_ref"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the SMTP server (or the outbox, without SMTP) took the mail; null until then. */
    mailedAt: timestamp("mailed_at", { withTimezone: true }),
    /** When a process took the mail on; another leaves it alone for a while (a crash is retried by the job). */
    mailClaimedAt: timestamp("mail_claimed_at", { withTimezone: true }),
    mailAttempts: integer("mail_attempts").notNull().default(0),
  },
  (t) => [
    check("receipts_kind", sql`${t.kind} in ('topup', 'purchase', 'gift')`),
    check("receipts_amount", sql`${t.amount} > 0`),
    index("receipts_user_id_desc").on(t.userId, t.id.desc()),
    index("receipts_unmailed")
      .on(t.id)
      .where(sql`${t.mailedAt} is null`),
  ],
);
