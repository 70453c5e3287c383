// The accounts module's answers in the wire format of docs/product/api.md#account-calls: the one
// place where the domain types of core/accounts become snake_case objects with ISO 8601 times.
// The key order is the order the answers have always had.
import type { EmailPreferences, SsoTicket, TwoFaEnabled, TwoFaSetup, User } from "../../../core/accounts/index.ts";

/** `user` of user/me, changeEmail and frontend/data (docs/product/api.md#account-calls). */
export type UserDto = {
  id: number;
  email: string;
  username: string | null;
  balance: number;
  currency: string;
  two_fa_enabled: boolean;
  pending_email: string | null;
  referral_code: string;
  created_at: string;
  owed: number;
  email_verified: boolean;
};

export function userDto(user: User): UserDto {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    balance: user.balance,
    currency: user.currency,
    two_fa_enabled: user.twoFaEnabled,
    pending_email: user.pendingEmail,
    referral_code: user.referralCode,
    created_at: user.createdAt.toISOString(),
    owed: user.owed,
    email_verified: user.emailVerified,
  };
}

export type EmailPreferencesDto = { allow_marketing: boolean; allow_security: boolean; locale: string };

export function emailPreferencesDto(preferences: EmailPreferences): EmailPreferencesDto {
  return { allow_marketing: preferences.allowMarketing, allow_security: preferences.allowSecurity, locale: preferences.locale };
}

/** The answer of 2fa/enable. */
export type TwoFaSetupDto = { secret: string; otpauth_url: string; qr: string };

export function twoFaSetupDto(setup: TwoFaSetup): TwoFaSetupDto {
  return { secret: setup.secret, otpauth_url: setup.otpauthUrl, qr: setup.qr };
}

/** The answer of 2fa/confirmEnable. */
export type TwoFaEnabledDto = { recovery_codes: string[] };

export function twoFaEnabledDto(enabled: TwoFaEnabled): TwoFaEnabledDto {
  return { recovery_codes: enabled.recoveryCodes };
}

/** The answer of sso/ticket. */
export type SsoTicketDto = { ticket: string; url: string };

export function ssoTicketDto(ticket: SsoTicket): SsoTicketDto {
  return { ticket: ticket.ticket, url: ticket.url };
}
