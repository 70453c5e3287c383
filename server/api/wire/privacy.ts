// The data export (GET /v2/web/user/export, docs/product/api.md#account-calls) in the wire format:
// the same objects the other calls answer with (user, subscriptions, transactions, notifications),
// and the rest in their snake_case, times as ISO 8601.
import type { DataExport } from "../../../core/privacy/index.ts";
import { emailPreferencesDto, userDto } from "./accounts.ts";
import { soldProductDto, subscriptionsDto, transactionDto } from "./commerce.ts";
import { notificationDto } from "./notifications.ts";

const iso = (date: Date): string => date.toISOString();
const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);

export function dataExportDto(data: DataExport) {
  const { account } = data;
  return {
    exported_at: iso(data.exportedAt),
    user: {
      ...userDto(account),
      locale: account.locale,
      visitor_id: account.visitorId,
      signup_ip: account.signupIp,
      suspended_at: isoOrNull(account.suspendedAt),
      suspended_reason: account.suspendedReason,
      invited_with: account.invitedWith,
    },
    email_preferences: emailPreferencesDto(data.emailPreferences),
    subscriptions: subscriptionsDto(data.subscriptions),
    transactions: data.transactions.map(transactionDto),
    payment_orders: data.paymentOrders.map((o) => ({
      id: o.id,
      provider: o.provider,
      provider_order_id: o.providerOrderId,
      kind: o.kind,
      amount: o.amount,
      currency: o.currency,
      status: o.status,
      refunded: o.refunded,
      product: o.product ? soldProductDto(o.product) : null,
      created_at: iso(o.createdAt),
    })),
    gifts_given: data.giftsGiven.map((g) => ({
      code: g.code,
      cheat_id: g.cheatId,
      days: g.days,
      recipient: g.recipient,
      redeemed: g.redeemed,
      voided: g.voided,
      created_at: iso(g.createdAt),
    })),
    gifts_received: data.giftsReceived.map((g) => ({ cheat_id: g.cheatId, days: g.days, from: g.from, redeemed_at: iso(g.redeemedAt) })),
    referral_rewards: data.referralRewards.map((r) => ({ amount: r.amount, reversed: r.reversed, status: r.status, release_at: iso(r.releaseAt), created_at: iso(r.createdAt) })),
    notifications: data.notifications.map(notificationDto),
    sessions: data.sessions.map((s) => ({
      created_at: iso(s.createdAt),
      last_seen_at: iso(s.lastSeenAt),
      expires_at: iso(s.expiresAt),
      revoked_at: isoOrNull(s.revokedAt),
      ip: s.ip,
      user_agent: s.userAgent,
    })),
  };
}

export type DataExportDto = ReturnType<typeof dataExportDto>;
