// A buyer's data export (docs/product/accounts.md#data-export): everything the shop holds about
// the signed-in user, in one answer — the account, preferences, subscriptions, every ledger row,
// payment orders, gifts given and received, referrals, notifications and sessions. What other
// people are is never in it: a gift's other side is named by username, never by e-mail.
import { asc, desc, eq, or } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { gifts, paymentOrders, referralRewards, sessions, transactions, users } from "../../db/schema/index.ts";
import type { Translate } from "../../i18n/translate.ts";
import type { Locale } from "../../i18n/locales.ts";
import { toEmailPreferences, toUser, type EmailPreferences, type User } from "../accounts/accounts.model.ts";
import { fromSnapshot, type SoldProduct } from "../catalog/index.ts";
import { toTransaction, type Transaction } from "../ledger/index.ts";
import type { Notification, Notifications } from "../notifications/index.ts";
import type { Subscription, Subscriptions } from "../subscriptions/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";

export type DataExport = {
  exportedAt: Date;
  account: User & {
    locale: Locale;
    /** The visitor id and client address the account was registered from or last signed in with. */
    visitorId: string | null;
    signupIp: string | null;
    suspendedAt: Date | null;
    suspendedReason: string | null;
    /** The referral code of whoever invited the user, if anyone did. */
    invitedWith: string | null;
  };
  emailPreferences: EmailPreferences;
  subscriptions: Subscription[];
  /** Every row of the ledger, oldest first. */
  transactions: Transaction[];
  paymentOrders: {
    id: number;
    provider: string;
    providerOrderId: string | null;
    kind: string;
    amount: number;
    currency: string;
    status: string;
    refunded: number;
    product: SoldProduct | null;
    createdAt: Date;
  }[];
  giftsGiven: { code: string; cheatId: number; days: number; recipient: string | null; redeemed: boolean; voided: boolean; createdAt: Date }[];
  giftsReceived: { cheatId: number; days: number; from: string | null; redeemedAt: Date }[];
  referralRewards: { amount: number; reversed: number; status: string; releaseAt: Date; createdAt: Date }[];
  notifications: Notification[];
  sessions: { createdAt: Date; lastSeenAt: Date; expiresAt: Date; revokedAt: Date | null; ip: string | null; userAgent: string | null }[];
};

/** Enough for every notification a user can have had: the inbox keeps them all. */
const NOTIFICATIONS_MAX = 10_000;

export type Privacy = ReturnType<typeof createPrivacy>;

export function createPrivacy(deps: { db: Db; clock: Clock; currency: string; subscriptions: Subscriptions; notifications: Notifications }) {
  const { db, clock, currency } = deps;
  return {
    /** The user's data, notifications in the language `t` speaks. */
    async exportData(userId: number, t: Translate): Promise<DataExport> {
      const [row] = await db.select().from(users).where(eq(users.id, userId));
      if (!row || row.deletedAt) throw new DomainError("unauthenticated");
      const [referrer, ledger, orders, given, received, rewards, sessionRows, subscriptions, notifications] = await Promise.all([
        row.referrerId === null ? [] : db.select({ code: users.referralCode }).from(users).where(eq(users.id, row.referrerId)),
        db.select().from(transactions).where(eq(transactions.userId, userId)).orderBy(asc(transactions.id)),
        db.select().from(paymentOrders).where(eq(paymentOrders.userId, userId)).orderBy(asc(paymentOrders.id)),
        db.select({ gift: gifts, recipient: users.username }).from(gifts).leftJoin(users, eq(users.id, gifts.recipientId)).where(eq(gifts.giverId, userId)).orderBy(asc(gifts.id)),
        db
          .select({ gift: gifts, from: users.username })
          .from(gifts)
          .innerJoin(users, eq(users.id, gifts.giverId))
          .where(or(eq(gifts.recipientId, userId), eq(gifts.redeemedBy, userId)))
          .orderBy(asc(gifts.id)),
        db.select().from(referralRewards).where(eq(referralRewards.referrerId, userId)).orderBy(asc(referralRewards.id)),
        db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(desc(sessions.id)),
        deps.subscriptions.list(userId),
        deps.notifications.list(userId, t, NOTIFICATIONS_MAX),
      ]);
      return {
        exportedAt: clock.now(),
        account: {
          ...toUser(row, currency),
          locale: row.locale,
          visitorId: row.visitorId,
          signupIp: row.signupIp,
          suspendedAt: row.suspendedAt,
          suspendedReason: row.suspendedReason,
          invitedWith: referrer[0]?.code ?? null,
        },
        emailPreferences: toEmailPreferences(row),
        subscriptions,
        transactions: ledger.map(toTransaction),
        paymentOrders: orders.map((o) => ({
          id: o.id,
          provider: o.provider,
          providerOrderId: o.providerOrderId,
          kind: o.kind,
          amount: o.amount,
          currency: o.currency,
          status: o.status,
          refunded: o.refunded,
          product: o.product ? fromSnapshot(o.product) : null,
          createdAt: o.createdAt,
        })),
        giftsGiven: given.map(({ gift, recipient }) => ({
          code: gift.code,
          cheatId: gift.cheatId,
          days: gift.days,
          recipient,
          redeemed: gift.redeemedAt !== null,
          voided: gift.voidedAt !== null,
          createdAt: gift.createdAt,
        })),
        giftsReceived: received.map(({ gift, from }) => ({ cheatId: gift.cheatId, days: gift.days, from, redeemedAt: gift.redeemedAt ?? gift.createdAt })),
        referralRewards: rewards.map((r) => ({ amount: r.amount, reversed: r.reversed, status: r.status, releaseAt: r.releaseAt, createdAt: r.createdAt })),
        notifications,
        sessions: sessionRows.map((s) => ({ createdAt: s.createdAt, lastSeenAt: s.lastSeenAt, expiresAt: s.expiresAt, revokedAt: s.revokedAt, ip: s.ip, userAgent: s.userAgent })),
      };
    },
  };
}
