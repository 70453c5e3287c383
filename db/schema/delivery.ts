// Delivery (docs/product/delivery.md): the devices bound to a licence, the keys that sign the client
// API's entitlements, the builds a buyer downloads, and the outgoing webhooks with their durable queue.
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, serial, text, timestamp, unique } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { cheats } from "./catalog.ts";
import { subscriptions } from "./commerce.ts";

/**
 * A device bound to a licence by `/v2/client/activate` (at most DEVICE_LIMIT per licence). The
 * device id is stored only as its SHA-256; the client token only as its SHA-256. Clearing the
 * devices or regenerating the key deletes the rows, which ends their tokens at once.
 */
export const licenceDevices = pgTable(
  "licence_devices",
  {
    id: serial("id").primaryKey(),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    /** Hex SHA-256 of the client's hwid: what the entitlement names as `hwid`. */
    hwidHash: text("hwid_hash").notNull(),
    /** Hex SHA-256 of the client token handed out by the last activation of this device. */
    tokenHash: text("token_hash").notNull(),
    clientVersion: text("client_version"),
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique("licence_devices_subscription_hwid").on(t.subscriptionId, t.hwidHash), unique("licence_devices_token").on(t.tokenHash)],
);

/**
 * Ed25519 keys that sign entitlements, made on first start when CLIENT_SIGNING_KEY is unset
 * (under an advisory lock, so several processes agree on one). The newest unretired key signs.
 */
export const clientSigningKeys = pgTable("client_signing_keys", {
  kid: text("kid").primaryKey(),
  /** PKCS#8 DER, base64url. */
  privateKey: text("private_key").notNull(),
  /** The raw 32-byte public key, base64url (what `/v2/client/public-key` answers). */
  publicKey: text("public_key").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  retiredAt: timestamp("retired_at", { withTimezone: true }),
});

/** A build of a game's client program, uploaded by an owner; the file lives under STORAGE_DIR. */
export const builds = pgTable(
  "builds",
  {
    id: serial("id").primaryKey(),
    cheatId: integer("cheat_id")
      .notNull()
      .references(() => cheats.id),
    version: text("version").notNull(),
    notes: text("notes").notNull().default(""),
    /** The uploaded file's name, offered as the download's name. */
    fileName: text("file_name").notNull(),
    /** Where the file is, relative to STORAGE_DIR. */
    storagePath: text("storage_path").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    /** Hex SHA-256 of the file, computed while it was received. */
    sha256: text("sha256").notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("builds_size", sql`${t.size} >= 0`), index("builds_cheat").on(t.cheatId, t.id)],
);

/** The events of outgoing webhooks, by name (the code names them so; the wire by their values). */
export const WEBHOOK_EVENTS = {
  subscriptionUpdated: "subscription.updated",
  paymentCompleted: "payment.completed",
  paymentRefunded: "payment.refunded",
  userSuspended: "user.suspended",
} as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[keyof typeof WEBHOOK_EVENTS];
export const WEBHOOK_EVENT_TYPES = Object.values(WEBHOOK_EVENTS) as [WebhookEventType, ...WebhookEventType[]];

/** An endpoint an owner registered: where, with which secret, for which events. */
export const webhookEndpoints = pgTable("webhook_endpoints", {
  id: serial("id").primaryKey(),
  url: text("url").notNull(),
  /** The HMAC secret of Nova-Signature; shown to operators once, when the endpoint is made. */
  secret: text("secret").notNull(),
  events: jsonb("events").$type<WebhookEventType[]>().notNull(),
  active: boolean("active").notNull().default(true),
  createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** An event, written in the transaction of the change it tells of (only when an endpoint wants it). */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    /** "evt_…", the body's `id`: a receiver deduplicates by it. */
    id: text("id").primaryKey(),
    type: text("type").$type<WebhookEventType>().notNull(),
    userId: integer("user_id").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("webhook_events_created").on(t.createdAt)],
);

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * One event for one endpoint: the queue. A worker claims the oldest due delivery of an endpoint and
 * user whose earlier deliveries are all done (in order per user and endpoint), leases it for the
 * attempt (`locked_until`: a process that dies mid-attempt leaves it to the next one), and either
 * marks it delivered or schedules the next attempt; after 24 h it is failed, to be resent by hand.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    status: text("status").$type<WebhookDeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull(),
    /** Set while an attempt runs; past it, the attempt is taken for dead and the delivery is due again. */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    /** Retries stop here (24 h after the event, or after a resend). */
    deadlineAt: timestamp("deadline_at", { withTimezone: true }).notNull(),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    /** The receiver's HTTP status of the last attempt (null: no answer). */
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    check("webhook_deliveries_status", sql`${t.status} in ('pending', 'delivered', 'failed')`),
    index("webhook_deliveries_due").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_order").on(t.endpointId, t.userId, t.id),
  ],
);
