// Subscriptions, the ledger of balance changes, payment orders, gifts and idempotent requests.
import { sql } from "drizzle-orm";
import { bigint, bigserial, char, check, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, unique, type AnyPgColumn } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { cheats, products } from "./catalog.ts";

export const subscriptions = pgTable(
  "subscriptions",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    cheatId: integer("cheat_id")
      .notNull()
      .references(() => cheats.id),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Seconds left while frozen, else 0. */
    frozenLength: integer("frozen_length").notNull().default(0),
    frozenAt: timestamp("frozen_at", { withTimezone: true }),
    nextFrozeDate: timestamp("next_froze_date", { withTimezone: true }),
    unfrozenDate: timestamp("unfrozen_date", { withTimezone: true }),
    expiryNotifiedAt: timestamp("expiry_notified_at", { withTimezone: true }),
    freezeCount: integer("freeze_count").notNull().default(0),
    /**
     * The licence key of this pass (docs/product/delivery.md#licences): made by the database for every new row, so
     * every path that starts a pass gives it one; regenerating sets it to a new default.
     */
    licenceKey: text("licence_key")
      .notNull()
      .default(sql`upper(gen_random_uuid()::text)`),
    /** When the buyer last cleared the pass's devices (once per DEVICE_RESET_COOLDOWN_DAYS). */
    devicesResetAt: timestamp("devices_reset_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("subscriptions_user_cheat").on(t.userId, t.cheatId),
    unique("subscriptions_licence_key").on(t.licenceKey),
    check("subscriptions_frozen_length", sql`${t.frozenLength} >= 0`),
    check("subscriptions_frozen_consistent", sql`(${t.frozenLength} > 0) = (${t.frozenAt} is not null)`),
    index("subscriptions_expires").on(t.expiresAt),
  ],
);

export const TRANSACTION_TYPES = ["topup", "purchase", "gift", "referral_reward", "refund", "reversal", "adjustment", "reserve", "release"] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
export const TRANSACTION_STATUSES = ["completed", "reversed"] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export const TRANSACTION_SOURCES = ["balance", "paypal", "btcpay", "demo", "system"] as const;
export type TransactionSource = (typeof TRANSACTION_SOURCES)[number];

export type ProductSnapshot = {
  id: number;
  cheat_id: number;
  type: string;
  params: { days: number };
  price: number;
  currency: string;
  title: string;
};

/** The ledger: one row per change of a balance (or per payment applied directly to a product). */
export const transactions = pgTable(
  "transactions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").$type<TransactionType>().notNull(),
    /** Signed minor units: what this row did to the balance (0 for a product paid by provider). */
    amount: bigint("amount", { mode: "number" }).notNull(),
    /** What was paid, in minor units, whatever the source. */
    paid: bigint("paid", { mode: "number" }).notNull().default(0),
    balanceAfter: bigint("balance_after", { mode: "number" }).notNull(),
    currency: char("currency", { length: 3 }).notNull(),
    status: text("status").$type<TransactionStatus>().notNull().default("completed"),
    source: text("source").$type<TransactionSource>().notNull().default("balance"),
    products: jsonb("products").$type<ProductSnapshot[]>().notNull().default([]),
    /** Unique external reference (e.g. "paypal:capture:ID"), so a payment is applied once. */
    reference: text("reference").unique(),
    /** What this row did to the user's `owed` (docs/product/money.md#owed): + a refund left uncovered, − paid off. */
    owedChange: bigint("owed_change", { mode: "number" }).notNull().default(0),
    /** The payment this row belongs to (its capture, refund or reversal). */
    orderId: integer("order_id").references((): AnyPgColumn => paymentOrders.id),
    /** The row this one undoes (a purchase whose days a refund took back, a voided gift code). */
    relatedId: bigint("related_id", { mode: "number" }).references((): AnyPgColumn => transactions.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("transactions_type", sql`${t.type} in ('topup', 'purchase', 'gift', 'referral_reward', 'refund', 'reversal', 'adjustment', 'reserve', 'release')`),
    check("transactions_status", sql`${t.status} in ('completed', 'reversed')`),
    check("transactions_source", sql`${t.source} in ('balance', 'paypal', 'btcpay', 'demo', 'system')`),
    check("transactions_balance_after", sql`${t.balanceAfter} >= 0`),
    index("transactions_user_id_desc").on(t.userId, t.id.desc()),
    index("transactions_related").on(t.relatedId),
    index("transactions_order").on(t.orderId),
  ],
);

/**
 * The version of a user's row, transactions and subscriptions: the sum of `n` over the user's rows,
 * which grows by one for every row of theirs inserted or removed and by two for one changed. Written only by triggers on those
 * three tables (migration 0013), which fold the user's earlier rows into the new one where no other
 * transaction holds them, so a user has about one row and no writer ever waits on another. Read in
 * the same statement as the rows it versions (docs/decisions/0076-own-rows-by-version.md).
 */
export const userDataChanges = pgTable(
  "user_data_changes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    // No foreign key: a user's rows removed with the user still write here as they go.
    userId: integer("user_id").notNull(),
    n: bigint("n", { mode: "number" }).notNull(),
  },
  (t) => [index("user_data_changes_user").on(t.userId)],
);

export const PAYMENT_ORDER_KINDS = ["topup", "product"] as const;
export type PaymentOrderKind = (typeof PAYMENT_ORDER_KINDS)[number];
export const PAYMENT_ORDER_STATUSES = ["created", "approved", "completed", "partially_refunded", "refunded", "reversed", "failed"] as const;
export type PaymentOrderStatus = (typeof PAYMENT_ORDER_STATUSES)[number];

export const paymentOrders = pgTable(
  "payment_orders",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    /** Our PayPal-Request-Id, so a retried create is the same order at the provider. */
    requestId: text("request_id").notNull().unique(),
    providerOrderId: text("provider_order_id").unique(),
    kind: text("kind").$type<PaymentOrderKind>().notNull(),
    productId: integer("product_id").references(() => products.id),
    /** The buyer's shopping area when the order was made: its price is the one charged. */
    shoppingArea: text("shopping_area").notNull().default("global"),
    /** The product as sold (days, price, title) when the order was made: what a capture books. */
    product: jsonb("product").$type<ProductSnapshot>(),
    /** What the provider charges, minor units: the price, less the balance part of a split payment. */
    amount: bigint("amount", { mode: "number" }).notNull(),
    /** The balance part of a split payment (docs/product/money.md#split-payments): reserved when the order was made. */
    reserved: bigint("reserved", { mode: "number" }).notNull().default(0),
    currency: char("currency", { length: 3 }).notNull(),
    status: text("status").$type<PaymentOrderStatus>().notNull().default("created"),
    captureId: text("capture_id").unique(),
    /** The provider's payer account (PayPal payer id), from the capture: a self-referral signal. */
    payerId: text("payer_id"),
    /** Minor units refunded or reversed so far (never more than `amount`). */
    refunded: bigint("refunded", { mode: "number" }).notNull().default(0),
    /** A dispute was opened at the provider: flagged for operators (docs/product/money.md#disputes). */
    disputedAt: timestamp("disputed_at", { withTimezone: true }),
    disputeId: text("dispute_id"),
    approveUrl: text("approve_url"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("payment_orders_kind", sql`${t.kind} in ('topup', 'product')`),
    check("payment_orders_amount", sql`${t.amount} > 0`),
    check("payment_orders_product", sql`(${t.kind} = 'product') = (${t.productId} is not null)`),
    check("payment_orders_status", sql`${t.status} in ('created', 'approved', 'completed', 'partially_refunded', 'refunded', 'reversed', 'failed')`),
    check("payment_orders_refunded", sql`${t.refunded} >= 0 and ${t.refunded} <= ${t.amount}`),
    check("payment_orders_reserved", sql`${t.reserved} >= 0 and (${t.reserved} = 0 or ${t.kind} = 'product')`),
    index("payment_orders_user").on(t.userId),
    index("payment_orders_payer").on(t.payerId),
  ],
);

export const gifts = pgTable(
  "gifts",
  {
    id: serial("id").primaryKey(),
    giverId: integer("giver_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    code: text("code").notNull().unique(),
    cheatId: integer("cheat_id")
      .notNull()
      .references(() => cheats.id),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    days: integer("days").notNull(),
    recipientId: integer("recipient_id").references(() => users.id, { onDelete: "set null" }),
    redeemedBy: integer("redeemed_by").references(() => users.id, { onDelete: "set null" }),
    redeemedAt: timestamp("redeemed_at", { withTimezone: true }),
    /** An unredeemed code taken back by a refund of the money that paid for it (docs/product/money.md#a-top-up). */
    voidedAt: timestamp("voided_at", { withTimezone: true }),
    transactionId: bigint("transaction_id", { mode: "number" }).references(() => transactions.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("gifts_days_positive", sql`${t.days} > 0`),
    check("gifts_redeemed_consistent", sql`(${t.redeemedBy} is null) = (${t.redeemedAt} is null)`),
    check("gifts_voided_unredeemed", sql`${t.voidedAt} is null or ${t.redeemedBy} is null`),
    index("gifts_transaction").on(t.transactionId),
  ],
);

export const REFERRAL_REWARD_STATUSES = ["pending", "released", "cancelled", "refused"] as const;

/**
 * Referral rewards (docs/product/money.md#referrals): one per payment of a referred user, pending for
 * REFERRAL_HOLD_DAYS, then released by a job as a `referral_reward` ledger row; cancelled by a refund
 * or reversal inside the hold; `refused` (with the reason) when buyer and referrer look like one
 * person. `reversed` is how much of `amount` refunds took back (from the pending reward or, once
 * released, from the referrer's balance, then `owed`).
 */
export const referralRewards = pgTable(
  "referral_rewards",
  {
    id: serial("id").primaryKey(),
    referrerId: integer("referrer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    buyerId: integer("buyer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    orderId: integer("order_id").references(() => paymentOrders.id),
    /** The payment's ledger reference: one reward per payment. */
    paymentReference: text("payment_reference").notNull().unique(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    reversed: bigint("reversed", { mode: "number" }).notNull().default(0),
    status: text("status").$type<(typeof REFERRAL_REWARD_STATUSES)[number]>().notNull(),
    /** Why a reward was refused: same_visitor, same_payer, same_signup_address. */
    reason: text("reason"),
    releaseAt: timestamp("release_at", { withTimezone: true }).notNull(),
    releasedAt: timestamp("released_at", { withTimezone: true }),
    transactionId: bigint("transaction_id", { mode: "number" }).references(() => transactions.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("referral_rewards_status", sql`${t.status} in ('pending', 'released', 'cancelled', 'refused')`),
    check("referral_rewards_amounts", sql`${t.amount} > 0 and ${t.reversed} >= 0 and ${t.reversed} <= ${t.amount}`),
    index("referral_rewards_due").on(t.status, t.releaseAt),
    index("referral_rewards_referrer").on(t.referrerId),
  ],
);

/** First answers of money-moving POSTs by Idempotency-Key, per user, kept 24 h (docs/product/api.md#idempotency). */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    httpStatus: integer("http_status"),
    response: jsonb("response"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the running attempt claimed the key; an attempt silent for long may be taken over. */
    attemptAt: timestamp("attempt_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("idempotency_keys_created").on(t.createdAt)],
);
