// Users, their sessions, recovery codes, and one-time codes (password reset, e-mail change and its
// undo link to the old address, SSO).
import { sql, type AnyColumn } from "drizzle-orm";
import type { Locale } from "../../i18n/locales.ts";
import { bigint, boolean, check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, type AnyPgColumn } from "drizzle-orm/pg-core";

export const OPERATOR_ROLES = ["owner", "support"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

const lower = (column: AnyColumn) => sql`lower(${column})`;

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    /** Stored normalised (trimmed, NFC, lower-case); unique case-insensitively all the same. */
    email: text("email").notNull(),
    username: text("username"),
    passwordHash: text("password_hash").notNull(),
    /** Minor units of the shop currency; every change is a transaction row. */
    balance: bigint("balance", { mode: "number" }).notNull().default(0),
    /**
     * The language of the user's mails: always one of ours (set from the page or Accept-Language at
     * each sign-in, unless the user chose one in the settings: then `localeChosen`).
     */
    locale: text("locale").$type<Locale>().notNull().default("ru"),
    /** The user picked the mail language (docs/product/accounts.md#e-mail-preferences-and-notices): sign-ins leave `locale` alone. */
    localeChosen: boolean("locale_chosen").notNull().default(false),
    /** The user's IANA time zone from the `tz` cookie, for the times in mails; null: UTC (docs/product/routes.md#dates-and-amounts). */
    timeZone: text("time_zone"),
    referralCode: text("referral_code").notNull().unique(),
    referrerId: integer("referrer_id").references((): AnyPgColumn => users.id, { onDelete: "set null" }),
    pendingEmail: text("pending_email"),
    twoFaSecret: text("two_fa_secret"),
    twoFaEnabled: boolean("two_fa_enabled").notNull().default(false),
    /** The last TOTP time step accepted, so a code is never accepted twice. */
    twoFaLastStep: bigint("two_fa_last_step", { mode: "number" }),
    allowMarketing: boolean("allow_marketing").notNull().default(true),
    allowSecurity: boolean("allow_security").notNull().default(true),
    visitorId: text("visitor_id"),
    /** The client address the account was registered from (a self-referral signal, docs/product/money.md#referrals). */
    signupIp: text("signup_ip"),
    /**
     * Minor units the user still owes after a refund or reversal took more than the balance held
     * (docs/product/money.md#owed); later top-ups and released rewards pay it off first.
     */
    owed: bigint("owed", { mode: "number" }).notNull().default(0),
    /** Set when the account is suspended (a reversal, or an operator): no sign-in, no sessions, not entitled (docs/product/accounts.md#suspension). */
    suspendedAt: timestamp("suspended_at", { withTimezone: true }),
    suspendedReason: text("suspended_reason"),
    /** The address was proven by the link of the welcome mail, or of an e-mail change (docs/product/accounts.md#verified-addresses). */
    emailVerified: boolean("email_verified").notNull().default(false),
    /** Set when the owner deleted the account: it is anonymised, its ledger kept (docs/product/accounts.md#deleting-an-account). */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    /**
     * The back-office role (docs/product/back-office.md#roles): `owner`, `support`, or null for a
     * buyer. Given and taken on the command line (`npm run operator`) or by OWNER_EMAILS, never on the web.
     */
    role: text("role").$type<OperatorRole>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_lower").on(lower(t.email)),
    uniqueIndex("users_username_lower").on(lower(t.username)),
    check("users_balance_non_negative", sql`${t.balance} >= 0`),
    check("users_owed_non_negative", sql`${t.owed} >= 0`),
    check("users_suspension_reason", sql`(${t.suspendedAt} is null) = (${t.suspendedReason} is null)`),
    check("users_not_own_referrer", sql`${t.referrerId} is null or ${t.referrerId} <> ${t.id}`),
    check("users_role", sql`${t.role} is null or ${t.role} in ('owner', 'support')`),
    check("users_email_length", sql`char_length(${t.email}) between 3 and 254`),
    index("users_referrer").on(t.referrerId),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** SHA-256 of the opaque token; the token itself is never stored. */
    tokenHash: text("token_hash").notNull().unique(),
    /** "full", or "pre2fa": good for confirmTwoFa alone. */
    kind: text("kind").notNull().default("full"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    ip: text("ip"),
    userAgent: text("user_agent"),
    /** An operator's step-up window (docs/product/back-office.md#step-up): money may move until then. */
    stepUpUntil: timestamp("step_up_until", { withTimezone: true }),
  },
  (t) => [check("sessions_kind", sql`${t.kind} in ('full', 'pre2fa')`), index("sessions_user").on(t.userId)],
);

export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("recovery_codes_user_code").on(t.userId, t.codeHash)],
);

export const oneTimeCodes = pgTable(
  "one_time_codes",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose").notNull(),
    codeHash: text("code_hash").notNull(),
    /** E.g. the new address of an e-mail change. */
    payload: jsonb("payload").$type<Record<string, unknown>>(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("one_time_codes_purpose", sql`${t.purpose} in ('password_reset', 'email_change', 'email_change_undo', 'sso_ticket', 'email_verify')`),
    check("one_time_codes_attempts", sql`${t.attempts} >= 0`),
    index("one_time_codes_user_purpose").on(t.userId, t.purpose),
    uniqueIndex("one_time_codes_purpose_hash").on(t.purpose, t.codeHash),
  ],
);
