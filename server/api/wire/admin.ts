// The back office's wire format (docs/product/back-office.md#calls): the core's domain types →
// snake_case JSON with ISO 8601 times, in this one place. Licence keys pass through
// maskLicenceKey for the reader's role (support sees the last four characters).
import type {
  AdminPayment,
  CompensationResult,
  CustomerDetail,
  CustomerMail,
  CustomerProfile,
  CustomerSession,
  CustomerSubscription,
  CustomerSummary,
  RefundResult,
} from "../../../core/admin/index.ts";
import type { AuditEntry } from "../../../core/audit/index.ts";
import type { LedgerEntry } from "../../../core/ledger/index.ts";
import type { Notification } from "../../../core/notifications/index.ts";
import { maskLicenceKey, type Operator, type OperatorRole } from "../../../core/operators/index.ts";
import { soldProductDto, subscriptionDto, transactionDto } from "./commerce.ts";
import { notificationDto } from "./notifications.ts";

const iso = (date: Date): string => date.toISOString();
const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);

export function operatorDto(operator: Operator) {
  return { id: operator.id, email: operator.email, role: operator.role, step_up_until: isoOrNull(operator.stepUpUntil) };
}

export function customerSummaryDto(user: CustomerSummary) {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    role: user.role,
    suspended: user.suspended,
    balance: user.balance,
    owed: user.owed,
    created_at: iso(user.createdAt),
  };
}

export function customerDto(user: CustomerProfile) {
  return {
    ...customerSummaryDto(user),
    currency: user.currency,
    locale: user.locale,
    two_fa_enabled: user.twoFaEnabled,
    pending_email: user.pendingEmail,
    referral_code: user.referralCode,
    referrer_id: user.referrerId,
    visitor_id: user.visitorId,
    signup_ip: user.signupIp,
    suspended_at: isoOrNull(user.suspendedAt),
    suspended_reason: user.suspendedReason,
    allow_marketing: user.allowMarketing,
  };
}

export function customerSubscriptionDto(subscription: CustomerSubscription, role: OperatorRole) {
  return { ...subscriptionDto(subscription), game: subscription.game, licence_key: maskLicenceKey(subscription.licenceKey, role) };
}

export function ledgerEntryDto(entry: LedgerEntry) {
  return {
    ...transactionDto(entry),
    balance_after: entry.balanceAfter,
    owed_change: entry.owedChange,
    reference: entry.reference,
    payment_id: entry.orderId,
    related_id: entry.relatedId,
  };
}

export function paymentDto(payment: AdminPayment) {
  return {
    id: payment.id,
    user_id: payment.userId,
    user_email: payment.userEmail,
    provider: payment.provider,
    kind: payment.kind,
    status: payment.status,
    amount: payment.amount,
    refunded: payment.refunded,
    currency: payment.currency,
    product: payment.product ? soldProductDto(payment.product) : null,
    shopping_area: payment.shoppingArea,
    provider_order_id: payment.providerOrderId,
    capture_id: payment.captureId,
    payer_id: payment.payerId,
    disputed_at: isoOrNull(payment.disputedAt),
    dispute_id: payment.disputeId,
    created_at: iso(payment.createdAt),
    updated_at: iso(payment.updatedAt),
  };
}

function sessionDto(session: CustomerSession) {
  return {
    id: session.id,
    kind: session.kind,
    created_at: iso(session.createdAt),
    last_seen_at: iso(session.lastSeenAt),
    expires_at: iso(session.expiresAt),
    revoked_at: isoOrNull(session.revokedAt),
    ip: session.ip,
    user_agent: session.userAgent,
    live: session.live,
  };
}

export function mailDto(mail: CustomerMail) {
  return {
    id: mail.id,
    to: mail.to,
    template: mail.template,
    subject: mail.subject,
    status: mail.status,
    created_at: iso(mail.createdAt),
    sent_at: isoOrNull(mail.sentAt),
    resendable: mail.resendable,
  };
}

export function auditEntryDto(entry: AuditEntry) {
  return {
    id: entry.id,
    at: iso(entry.at),
    actor_id: entry.actorId,
    action: entry.action,
    target_type: entry.targetType,
    target_id: entry.targetId,
    reason: entry.reason,
    before: entry.before,
    after: entry.after,
    ip: entry.ip,
  };
}

export function customerDetailDto(detail: CustomerDetail, role: OperatorRole) {
  const { referrals } = detail;
  return {
    user: customerDto(detail.user),
    subscriptions: detail.subscriptions.map((s) => customerSubscriptionDto(s, role)),
    transactions: detail.transactions.map(ledgerEntryDto),
    payments: detail.payments.map(paymentDto),
    sessions: detail.sessions.map(sessionDto),
    devices: detail.devices.map((d) => ({ id: d.id, cheat_id: d.cheatId, client_version: d.clientVersion, first_seen_at: iso(d.firstSeenAt), last_seen_at: iso(d.lastSeenAt) })),
    referrals: {
      referrer: referrals.referrer,
      invited: referrals.invited,
      invitees: referrals.invitees.map((u) => ({ id: u.id, email: u.email, created_at: iso(u.createdAt) })),
      rewards: referrals.rewards.map((r) => ({
        id: r.id,
        buyer_id: r.buyerId,
        amount: r.amount,
        reversed: r.reversed,
        status: r.status,
        reason: r.reason,
        release_at: iso(r.releaseAt),
        created_at: iso(r.createdAt),
      })),
    },
    notifications: detail.notifications.map((n: Notification) => notificationDto(n)),
    mails: detail.mails.map(mailDto),
    audit: detail.audit.map(auditEntryDto),
  };
}

export function refundDto(result: RefundResult) {
  return { payment: paymentDto(result.payment), transactions: result.transactions.map(ledgerEntryDto), refund: result.refund };
}

export function compensationDto(result: CompensationResult) {
  return { affected: result.affected, compensation: { id: result.id, cheat_id: result.cheatId, days: result.days, finished_at: iso(result.finishedAt) } };
}

/** The CSV export's header and one row per payment (docs/product/back-office.md#payments). */
export const PAYMENTS_CSV_HEADER = [
  "id",
  "created_at",
  "user_id",
  "user_email",
  "provider",
  "kind",
  "status",
  "amount",
  "refunded",
  "currency",
  "product",
  "shopping_area",
  "provider_order_id",
  "capture_id",
  "disputed_at",
] as const;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a text that a
 * spreadsheet would run as a formula (=, +, -, @, tab, CR first) is prefixed with an apostrophe.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function paymentCsvRow(payment: AdminPayment): string {
  const fields: (string | number | null)[] = [
    payment.id,
    iso(payment.createdAt),
    payment.userId,
    payment.userEmail,
    payment.provider,
    payment.kind,
    payment.status,
    payment.amount,
    payment.refunded,
    payment.currency,
    payment.product?.title ?? null,
    payment.shoppingArea,
    payment.providerOrderId,
    payment.captureId,
    isoOrNull(payment.disputedAt),
  ];
  return `${fields.map(csvField).join(",")}\r\n`;
}
