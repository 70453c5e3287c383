// The accounts module's domain types: what its use cases return, in camelCase with Dates. The
// API writes them in the spec's wire format (server/api/wire/accounts.ts), the pages read them as
// they are; nothing here knows snake_case or ISO strings.
import type { users } from "../../db/schema/index.ts";
import type { Locale } from "../../i18n/locales.ts";

/** A user's row as stored: secrets included, so it never leaves the core's use cases and the request context. */
export type UserRow = typeof users.$inferSelect;

/** Who is asking: what the HTTP edge knows about the request. */
export type RequestMeta = { ip: string; userAgent?: string; locale: Locale };

/** The account as its owner sees it (docs/product/data.md#users): no secret, no other user's data. */
export type User = {
  id: number;
  email: string;
  username: string | null;
  /** Minor units of `currency` (docs/product/api.md#conventions). */
  balance: number;
  /** Minor units still owed after a refund took more than the balance held (docs/product/money.md#owed). */
  owed: number;
  /** The shop's one currency (SHOP_CURRENCY), which balance and owed are counted in. */
  currency: string;
  twoFaEnabled: boolean;
  /** An address asked for and not confirmed yet (docs/product/accounts.md#e-mail-change). */
  pendingEmail: string | null;
  /** The address was proven by a mailed link (docs/product/accounts.md#verified-addresses). */
  emailVerified: boolean;
  referralCode: string;
  createdAt: Date;
};

/** docs/product/accounts.md#e-mail-preferences-and-notices: what optional mail, and in which language. */
export type EmailPreferences = { allowMarketing: boolean; allowSecurity: boolean; locale: Locale };

/** A two-factor secret being set up: shown once, switched on by the first valid code. */
export type TwoFaSetup = {
  /** base32, for typing into an authenticator app. */
  secret: string;
  /** otpauth://totp/… for an app that reads links. */
  otpauthUrl: string;
  /** The otpauth URL as a QR code, an SVG data URL. */
  qr: string;
};

/** Two-factor codes switched on: the recovery codes (xxxx-xxxx), shown this once. */
export type TwoFaEnabled = { recoveryCodes: string[] };

/** A sign-in: a full session, or for a two-factor account a pre-2FA one good only for the code step. */
export type SignIn = { token: string; twoFa: boolean; user: User };

/** A one-time sign-in link (docs/product/accounts.md#single-sign-on). */
export type SsoTicket = { ticket: string; url: string };

/** Whose account a live SSO ticket signs in to. */
export type SsoAccount = { userId: number; email: string; username: string | null };

export function toUser(row: UserRow, currency: string): User {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    balance: row.balance,
    owed: row.owed,
    currency,
    twoFaEnabled: row.twoFaEnabled,
    pendingEmail: row.pendingEmail,
    emailVerified: row.emailVerified,
    referralCode: row.referralCode,
    createdAt: row.createdAt,
  };
}

export function toEmailPreferences(row: Pick<UserRow, "allowMarketing" | "allowSecurity" | "locale">): EmailPreferences {
  return { allowMarketing: row.allowMarketing, allowSecurity: row.allowSecurity, locale: row.locale };
}
