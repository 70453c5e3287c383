// Customers in the back office (docs/product/back-office.md#customers): search, the detail an
// operator works from, and the actions on a buyer's account — grant or remove days, adjust the
// balance, suspend and lift, reset two-factor codes, end sessions, resend a mail. Every action takes
// a reason, runs in one transaction with its audit entry (before and after), locks the buyer's row
// first (the lock order of every writer: the user's row, then subscriptions) and is refused on an
// operator's account.
import { and, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { licenceDevices, paymentOrders, recoveryCodes, referralRewards, sessions, subscriptions as passesTable, users } from "../../db/schema/index.ts";
import type { Locale } from "../../i18n/locales.ts";
import type { Translate } from "../../i18n/translate.ts";
import type { AuditEntry } from "../audit/index.ts";
import type { LedgerEntry, Transaction } from "../ledger/index.ts";
import { listOutboxTo, outboxById, resendableMessage, type OutboxEntry } from "../mail/index.ts";
import type { Notification } from "../notifications/index.ts";
import { SUPPORT_MAX_DAYS, type Operator, type OperatorRole } from "../operators/index.ts";
import { DomainError } from "../shared/errors.ts";
import { MAX_ID } from "../shared/schema.ts";
import type { Subscription } from "../subscriptions/index.ts";
import type { AdminDeps } from "./index.ts";
import { toAdminPayment, type AdminPayment } from "./payments.ts";

/** Who acts, from where: every write carries it into the audit log. */
export type Actor = { operator: Operator; ip: string };

/** A user as a search lists them. */
export type CustomerSummary = {
  id: number;
  email: string;
  username: string | null;
  role: OperatorRole | null;
  suspended: boolean;
  balance: number;
  owed: number;
  createdAt: Date;
};

/** The account as operators see it (docs/product/back-office.md#customers): more than its owner sees, never a secret. */
export type CustomerProfile = CustomerSummary & {
  currency: string;
  locale: Locale;
  twoFaEnabled: boolean;
  pendingEmail: string | null;
  referralCode: string;
  referrerId: number | null;
  visitorId: string | null;
  signupIp: string | null;
  suspendedAt: Date | null;
  suspendedReason: string | null;
  allowMarketing: boolean;
};

/** A pass with its game, and what delivery adds (issue 11): the licence key (masked for support) and devices. */
export type CustomerSubscription = Subscription & { game: { slug: string; name: string } | null; licenceKey: string | null };

export type CustomerSession = {
  id: number;
  kind: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  ip: string | null;
  userAgent: string | null;
  live: boolean;
};

export type CustomerReferrals = {
  referrer: { id: number; email: string } | null;
  invited: number;
  invitees: { id: number; email: string; createdAt: Date }[];
  rewards: { id: number; buyerId: number; amount: number; reversed: number; status: string; reason: string | null; releaseAt: Date; createdAt: Date }[];
};

export type CustomerMail = { id: number; to: string; template: string | null; subject: string; status: string; createdAt: Date; sentAt: Date | null; resendable: boolean };

/** A device bound to one of the buyer's licences. */
export type CustomerDevice = { id: number; cheatId: number; clientVersion: string | null; firstSeenAt: Date; lastSeenAt: Date };

export type CustomerDetail = {
  user: CustomerProfile;
  subscriptions: CustomerSubscription[];
  transactions: LedgerEntry[];
  payments: AdminPayment[];
  sessions: CustomerSession[];
  /** The devices bound to the buyer's licences, per game (docs/product/delivery.md#licences); never the hardware id. */
  devices: CustomerDevice[];
  referrals: CustomerReferrals;
  notifications: Notification[];
  mails: CustomerMail[];
  audit: AuditEntry[];
};

const DETAIL_ROWS = 50;
const SEARCH_ROWS = 50;

const summaryOf = (row: typeof users.$inferSelect): CustomerSummary => ({
  id: row.id,
  email: row.email,
  username: row.username,
  role: row.role,
  suspended: row.suspendedAt !== null,
  balance: row.balance,
  owed: row.owed,
  createdAt: row.createdAt,
});

const mailOf = (m: OutboxEntry, resendable: boolean): CustomerMail => ({
  id: m.id,
  to: m.to,
  template: m.template,
  subject: m.subject,
  status: m.status,
  createdAt: m.createdAt,
  sentAt: m.sentAt,
  resendable,
});

/** What an audit entry keeps of a pass. */
const passState = (s: Subscription | undefined) => (s ? { state: s.state, expires_at: s.expiresAt.toISOString(), frozen_length: s.frozenLength, remaining_seconds: s.remainingSeconds } : null);

/** A LIKE pattern that matches `text` literally as a prefix. */
const prefixPattern = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createCustomers(
  deps: Pick<AdminDeps, "db" | "clock" | "audit" | "operators" | "catalog" | "ledger" | "subscriptions" | "suspensions" | "sessions" | "notifications" | "mailer" | "currency" | "logger">,
) {
  const { db, clock, audit, operators, catalog, ledger, subscriptions, suspensions, notifications, mailer, currency, logger } = deps;

  const profileOf = (row: typeof users.$inferSelect): CustomerProfile => ({
    ...summaryOf(row),
    currency,
    locale: row.locale,
    twoFaEnabled: row.twoFaEnabled,
    pendingEmail: row.pendingEmail,
    referralCode: row.referralCode,
    referrerId: row.referrerId,
    visitorId: row.visitorId,
    signupIp: row.signupIp,
    suspendedAt: row.suspendedAt,
    suspendedReason: row.suspendedReason,
    allowMarketing: row.allowMarketing,
  });

  const withGame = (s: Subscription): CustomerSubscription => {
    const cheat = catalog.cheatById(s.cheatId);
    // The pass's licence key (docs/product/delivery.md); the wire mapper masks it for support.
    return { ...s, game: cheat ? { slug: cheat.slug, name: cheat.name } : null };
  };

  /** Runs an operator's change of a buyer's account: the row locked, the change and its audit entry in one transaction. */
  async function onCustomer<T>(userId: number, run: (tx: Tx, user: typeof users.$inferSelect) => Promise<T>): Promise<T> {
    return db.transaction(async (tx) => run(tx, await operators.lockCustomer(tx, userId)));
  }

  return {
    /**
     * Users matching `q` (at most 50): an exact id, e-mail, username, referral code, visitor id or
     * payment reference (our order id, the provider's order or capture id, a payer id), or the start
     * of an e-mail or username.
     */
    async search(q: string): Promise<CustomerSummary[]> {
      const text = q.trim();
      const lower = text.toLowerCase();
      const matches: SQL[] = [
        sql`lower(${users.email}) = ${lower}`,
        sql`lower(${users.username}) = ${lower}`,
        eq(users.referralCode, text.toUpperCase()),
        eq(users.visitorId, text),
        ilike(users.email, prefixPattern(lower)),
        ilike(users.username, prefixPattern(lower)),
      ];
      const number = /^\d{1,10}$/.test(text) ? Number(text) : undefined;
      if (number !== undefined && number <= MAX_ID) matches.push(eq(users.id, number));
      const paid = db
        .select({ userId: paymentOrders.userId })
        .from(paymentOrders)
        .where(
          or(
            eq(paymentOrders.providerOrderId, text),
            eq(paymentOrders.captureId, text),
            eq(paymentOrders.payerId, text),
            ...(number !== undefined && number <= MAX_ID ? [eq(paymentOrders.id, number)] : []),
          ),
        );
      matches.push(inArray(users.id, paid));
      const rows = await db
        .select()
        .from(users)
        .where(or(...matches))
        .orderBy(desc(users.id))
        .limit(SEARCH_ROWS);
      return rows.map(summaryOf);
    },

    /** Everything an operator looks at about one user; `t` renders their notifications for the operator. */
    async detail(userId: number, t: Translate): Promise<CustomerDetail> {
      const [row] = await db.select().from(users).where(eq(users.id, userId));
      if (!row) throw new DomainError("not_found", "errors.user_not_found");
      const now = clock.now();
      const [passes, ledgerRows, orders, sessionRows, invitees, invited, referrer, rewards, notes, mails, entries, devices] = await Promise.all([
        subscriptions.list(userId),
        ledger.entries(userId, DETAIL_ROWS),
        db.select().from(paymentOrders).where(eq(paymentOrders.userId, userId)).orderBy(desc(paymentOrders.id)).limit(DETAIL_ROWS),
        db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(desc(sessions.id)).limit(DETAIL_ROWS),
        db.select({ id: users.id, email: users.email, createdAt: users.createdAt }).from(users).where(eq(users.referrerId, userId)).orderBy(desc(users.id)).limit(DETAIL_ROWS),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(users)
          .where(eq(users.referrerId, userId)),
        row.referrerId === null ? Promise.resolve([]) : db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, row.referrerId)),
        db.select().from(referralRewards).where(eq(referralRewards.referrerId, userId)).orderBy(desc(referralRewards.id)).limit(DETAIL_ROWS),
        notifications.list(userId, t, DETAIL_ROWS),
        listOutboxTo(db, [row.email, row.pendingEmail ?? ""], DETAIL_ROWS),
        audit.list({ targetType: "user", targetId: String(userId), limit: DETAIL_ROWS }),
        db
          .select({
            id: licenceDevices.id,
            cheatId: passesTable.cheatId,
            clientVersion: licenceDevices.clientVersion,
            firstSeenAt: licenceDevices.firstSeenAt,
            lastSeenAt: licenceDevices.lastSeenAt,
          })
          .from(licenceDevices)
          .innerJoin(passesTable, eq(passesTable.id, licenceDevices.subscriptionId))
          .where(eq(passesTable.userId, userId))
          .orderBy(passesTable.cheatId, licenceDevices.id)
          .limit(DETAIL_ROWS),
      ]);
      return {
        user: profileOf(row),
        subscriptions: passes.map(withGame),
        transactions: ledgerRows,
        payments: orders.map((order) => toAdminPayment(order, row.email)),
        sessions: sessionRows.map((s) => ({
          id: s.id,
          kind: s.kind,
          createdAt: s.createdAt,
          lastSeenAt: s.lastSeenAt,
          expiresAt: s.expiresAt,
          revokedAt: s.revokedAt,
          ip: s.ip,
          userAgent: s.userAgent,
          live: s.revokedAt === null && s.expiresAt.getTime() > now.getTime(),
        })),
        devices,
        referrals: {
          referrer: referrer[0] ?? null,
          invited: invited[0]?.n ?? 0,
          invitees,
          rewards: rewards.map((r) => ({
            id: r.id,
            buyerId: r.buyerId,
            amount: r.amount,
            reversed: r.reversed,
            status: r.status,
            reason: r.reason,
            releaseAt: r.releaseAt,
            createdAt: r.createdAt,
          })),
        },
        notifications: notes,
        mails: mails.map((m) => mailOf(m, resendableMessage(m, row.email, row.locale) !== undefined)),
        audit: entries.entries,
      };
    },

    /**
     * Adds days to one game's pass (as a purchase would: a live pass is extended, a frozen one keeps
     * them in its freeze, an expired one starts now) or, negative, removes them — never time already
     * used. `support` moves at most 30 days per action. The buyer is told of days added.
     */
    async grant(actor: Actor, userId: number, input: { cheatId: number; days: number; reason: string }): Promise<CustomerSubscription[]> {
      operators.require(actor.operator, "grant_days");
      if (actor.operator.role !== "owner" && Math.abs(input.days) > SUPPORT_MAX_DAYS) {
        throw new DomainError("forbidden", "errors.admin_support_days_limit", { params: { max: SUPPORT_MAX_DAYS } });
      }
      const cheat = catalog.cheatById(input.cheatId);
      if (!cheat) throw new DomainError("not_found", "errors.game_not_found");
      return onCustomer(userId, async (tx) => {
        const before = (await subscriptions.list(userId, tx)).find((s) => s.cheatId === input.cheatId);
        if (input.days > 0) {
          await subscriptions.grantDays(tx, userId, input.cheatId, input.days);
          await notifications.create(userId, "days_granted", { game: cheat.name, days: input.days }, tx);
        } else {
          await subscriptions.revokeSeconds(tx, userId, input.cheatId, -input.days * 86_400);
        }
        const passes = await subscriptions.list(userId, tx);
        const after = passes.find((s) => s.cheatId === input.cheatId);
        await audit.record(tx, {
          actorId: actor.operator.id,
          action: "user.grant",
          targetType: "user",
          targetId: userId,
          reason: input.reason,
          before: { cheat_id: input.cheatId, subscription: passState(before) },
          after: { cheat_id: input.cheatId, days: input.days, subscription: passState(after) },
          ip: actor.ip,
        });
        return passes.map(withGame);
      });
    },

    /** Moves the balance by ± minor units as an `adjustment` row; never below zero (insufficient_balance). */
    async adjustBalance(actor: Actor, userId: number, input: { amount: number; reason: string }): Promise<{ balance: number; transaction: Transaction }> {
      operators.require(actor.operator, "adjust_balance");
      return onCustomer(userId, async (tx, user) => {
        const { balance, transaction } = await ledger.post(tx, { userId, type: "adjustment", amount: input.amount, paid: Math.abs(input.amount), source: "system" }, clock.now());
        await audit.record(tx, {
          actorId: actor.operator.id,
          action: "user.balance",
          targetType: "user",
          targetId: userId,
          reason: input.reason,
          before: { balance: user.balance },
          after: { balance, amount: input.amount, transaction_id: transaction.id },
          ip: actor.ip,
        });
        return { balance, transaction };
      });
    },

    /** Suspends the account (docs/product/accounts.md#suspension): sign-in refused, sessions ended, not entitled, no gifts. */
    async suspend(actor: Actor, userId: number, reason: string): Promise<CustomerProfile> {
      operators.require(actor.operator, "suspend");
      return onCustomer(userId, async (tx, user) => {
        if (user.suspendedAt !== null) throw new DomainError("conflict", "errors.admin_already_suspended");
        await suspensions.suspend(tx, userId, "operator");
        const [after] = await tx.select().from(users).where(eq(users.id, userId));
        await audit.record(tx, {
          actorId: actor.operator.id,
          action: "user.suspend",
          targetType: "user",
          targetId: userId,
          reason,
          before: { suspended_at: null },
          after: { suspended_at: after!.suspendedAt!.toISOString(), suspended_reason: after!.suspendedReason },
          ip: actor.ip,
        });
        return profileOf(after!);
      });
    },

    /** Lifts a suspension (an operator's or a chargeback's): the buyer may sign in again. */
    async unsuspend(actor: Actor, userId: number, reason: string): Promise<CustomerProfile> {
      operators.require(actor.operator, "suspend");
      return onCustomer(userId, async (tx, user) => {
        if (user.suspendedAt === null) throw new DomainError("conflict", "errors.admin_not_suspended");
        const [after] = await tx.update(users).set({ suspendedAt: null, suspendedReason: null, updatedAt: clock.now() }).where(eq(users.id, userId)).returning();
        await audit.record(tx, {
          actorId: actor.operator.id,
          action: "user.unsuspend",
          targetType: "user",
          targetId: userId,
          reason,
          before: { suspended_at: user.suspendedAt.toISOString(), suspended_reason: user.suspendedReason },
          after: { suspended_at: null },
          ip: actor.ip,
        });
        return profileOf(after!);
      });
    },

    /**
     * Turns the buyer's two-factor codes off (they lost their phone and their recovery codes): the
     * secret and recovery codes go, and the buyer is told by a notification and a mail.
     */
    async resetTwoFa(actor: Actor, userId: number, reason: string): Promise<CustomerProfile> {
      operators.require(actor.operator, "reset_two_fa");
      const after = await onCustomer(userId, async (tx, user) => {
        if (!user.twoFaEnabled && user.twoFaSecret === null) throw new DomainError("conflict", "errors.two_fa_already_off");
        const [changed] = await tx.update(users).set({ twoFaEnabled: false, twoFaSecret: null, twoFaLastStep: null, updatedAt: clock.now() }).where(eq(users.id, userId)).returning();
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await notifications.create(userId, "two_fa_disabled", {}, tx);
        await audit.record(tx, {
          actorId: actor.operator.id,
          action: "user.reset_2fa",
          targetType: "user",
          targetId: userId,
          reason,
          before: { two_fa_enabled: user.twoFaEnabled },
          after: { two_fa_enabled: false },
          ip: actor.ip,
        });
        return changed!;
      });
      await mailer.send({ to: after.email, locale: after.locale, template: "two_fa_disabled" }).catch((err: unknown) => logger.error({ err }, "two-factor reset mail failed"));
      return profileOf(after);
    },

    /** Ends one session of the buyer's, or all of them; how many ended. */
    async endSessions(actor: Actor, userId: number, input: { sessionId?: number; reason: string }): Promise<number> {
      operators.require(actor.operator, "end_sessions");
      return onCustomer(userId, async (tx) => {
        const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
        if (input.sessionId !== undefined) conditions.push(eq(sessions.id, input.sessionId));
        const ended = await tx
          .update(sessions)
          .set({ revokedAt: clock.now() })
          .where(and(...conditions))
          .returning({ id: sessions.id });
        if (input.sessionId !== undefined && ended.length === 0) throw new DomainError("not_found", "errors.session_not_found");
        await audit.record(tx, {
          actorId: actor.operator.id,
          action: "user.end_sessions",
          targetType: "user",
          targetId: userId,
          reason: input.reason,
          before: { session_id: input.sessionId ?? null },
          after: { ended: ended.map((s) => s.id) },
          ip: actor.ip,
        });
        return ended.length;
      });
    },

    /**
     * Sends a mail of the buyer's again (one whose template carries no secret and whose parameters
     * were kept), to their current address and in their current language.
     */
    async resendMail(actor: Actor, userId: number, input: { mailId: number; reason: string }): Promise<CustomerMail> {
      operators.require(actor.operator, "resend_mail");
      const user = await onCustomer(userId, async (tx, user) => {
        const [mail] = await listOutboxTo(tx, [user.email, user.pendingEmail ?? ""], 1, input.mailId);
        if (!mail) throw new DomainError("not_found", "errors.mail_not_found");
        const message = resendableMessage(mail, user.email, user.locale);
        if (!message) throw new DomainError("conflict", "errors.mail_not_resendable");
        await audit.record(tx, {
          actorId: actor.operator.id,
          action: "user.resend_mail",
          targetType: "user",
          targetId: userId,
          reason: input.reason,
          before: { mail_id: mail.id, to: mail.to, template: mail.template },
          after: { to: user.email },
          ip: actor.ip,
        });
        return { user, message };
      });
      let id: number;
      try {
        id = await mailer.send(user.message);
      } catch {
        throw new DomainError("unavailable", "errors.mail_failed");
      }
      const [sent] = await outboxById(db, id);
      return mailOf(sent!, true);
    },
  };
}
