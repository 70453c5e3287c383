// Operators (docs/product/back-office.md#roles): who may enter the back office and what each role
// may do. A user holds at most one role, `owner` or `support`, given and taken only on the server's
// command line (`npm run operator`, scripts/operator.ts) or by the OWNER_EMAILS setting, checked at
// every sign-in; nothing on the web creates or changes a role. An operator needs two-factor codes
// on, an operator session lasts 12 hours, and moving money needs a step-up window opened by a
// fresh code (5 minutes per session). No operator acts on an operator's account, their own
// included. The HTTP guard that applies this is server/middleware/operator.ts, one piece that every
// `/v2/admin` call (and the delivery issue's) sits behind.
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { OPERATOR_ROLES, sessions, users, type OperatorRole } from "../../db/schema/index.ts";
import type { Audit } from "../audit/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";

export { OPERATOR_ROLES, type OperatorRole };

/** An operator session lasts 12 hours (a buyer's 336). */
export const OPERATOR_SESSION_SECONDS = 12 * 3600;
/** A good TOTP code lets money move from this session for 5 minutes. */
export const STEP_UP_SECONDS = 5 * 60;
/** The most days `support` may grant or remove in one action. */
export const SUPPORT_MAX_DAYS = 30;

/**
 * What an operator may do. `read` is every GET of the back office; the rest are writes. Later areas
 * (the catalogue, delivery) add theirs here. `delivery` is build uploads and webhook endpoints, whose
 * list holds what every event said (docs/product/delivery.md#operator-calls): an owner's alone.
 */
export type Permission = "read" | "grant_days" | "resend_mail" | "reset_two_fa" | "suspend" | "end_sessions" | "adjust_balance" | "refund" | "compensate" | "catalog" | "delivery";

/** docs/product/back-office.md#roles: `support` reads everything and changes only these. */
const SUPPORT_MAY: ReadonlySet<Permission> = new Set(["read", "grant_days", "resend_mail", "reset_two_fa", "suspend", "end_sessions"]);

export function may(role: OperatorRole, permission: Permission): boolean {
  return role === "owner" || SUPPORT_MAY.has(permission);
}

/** The signed-in operator of a back-office request. */
export type Operator = {
  id: number;
  email: string;
  role: OperatorRole;
  sessionId: number;
  /** Until when money may move from this session; null when no window was opened. */
  stepUpUntil: Date | null;
};

/** The session and user the HTTP edge resolved (server/context.ts's Auth). */
export type OperatorCandidate = {
  session: { id: number; kind: string; expiresAt: Date; stepUpUntil: Date | null };
  user: { id: number; email: string; role: OperatorRole | null; twoFaEnabled: boolean };
};

/**
 * A licence key as a role sees it (docs/product/back-office.md#roles): `support` sees its last four
 * characters only. Licence keys come with delivery (issue 11); every mapper that writes one for an
 * operator goes through this.
 */
export function maskLicenceKey(key: string | null, role: OperatorRole): string | null {
  if (key === null || role === "owner") return key;
  return key.length <= 4 ? "****" : `${"*".repeat(Math.min(key.length - 4, 16))}${key.slice(-4)}`;
}

export const normalizeEmail = (email: string) => email.trim().normalize("NFC").toLowerCase();

export type Operators = ReturnType<typeof createOperators>;

export function createOperators({ db, clock, audit, ownerEmails }: { db: Db; clock: Clock; audit: Audit; ownerEmails: readonly string[] }) {
  const owners = new Set(ownerEmails.map(normalizeEmail).filter(Boolean));

  /** Every live session of the user ends within 12 hours from now (a buyer's session turned operator's). */
  async function clipSessions(tx: Db | Tx, userId: number) {
    const limit = new Date(clock.now().getTime() + OPERATOR_SESSION_SECONDS * 1000);
    await tx
      .update(sessions)
      .set({ expiresAt: sql`least(${sessions.expiresAt}, ${limit.toISOString()}::timestamptz)` })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  }

  /** Sets a role by e-mail (null takes it away), audited; the command line's one write. */
  async function setRole(email: string, role: OperatorRole | null, reason: string): Promise<{ userId: number; before: OperatorRole | null; after: OperatorRole | null }> {
    return db.transaction(async (tx) => {
      const [user] = await tx
        .select({ id: users.id, role: users.role })
        .from(users)
        .where(sql`lower(${users.email}) = ${normalizeEmail(email)}`)
        .for("update");
      if (!user) throw new DomainError("not_found", "errors.user_not_found");
      if (user.role !== role) {
        await tx.update(users).set({ role, updatedAt: clock.now() }).where(eq(users.id, user.id));
        // Revoked: no step-up window outlives the role. Granted: the sessions become operator sessions.
        if (role === null) await tx.update(sessions).set({ stepUpUntil: null }).where(eq(sessions.userId, user.id));
        else await clipSessions(tx, user.id);
        await audit.record(tx, {
          actorId: null,
          action: role === null ? "operator.revoke" : "operator.grant",
          targetType: "user",
          targetId: user.id,
          reason,
          before: { role: user.role },
          after: { role },
        });
      }
      return { userId: user.id, before: user.role, after: role };
    });
  }

  return {
    /** `npm run operator -- grant EMAIL owner|support`. */
    grant: (email: string, role: OperatorRole, reason: string) => setRole(email, role, reason),
    /** `npm run operator -- revoke EMAIL`. */
    revoke: (email: string, reason: string) => setRole(email, null, reason),

    /**
     * At every full sign-in (sessions.create): an address in OWNER_EMAILS makes its user an owner
     * (audited, actor null); returns the user's role, which sets the session's lifetime.
     */
    async atSignIn(tx: Db | Tx, userId: number): Promise<OperatorRole | null> {
      const [user] = await tx.select({ email: users.email, role: users.role }).from(users).where(eq(users.id, userId));
      if (!user) return null;
      if (user.role === "owner" || !owners.has(normalizeEmail(user.email))) return user.role;
      const promoted = await tx
        .update(users)
        .set({ role: "owner", updatedAt: clock.now() })
        .where(and(eq(users.id, userId), sql`${users.role} is distinct from 'owner'`))
        .returning({ id: users.id });
      if (promoted.length === 1) {
        await clipSessions(tx, userId);
        await audit.record(tx, { actorId: null, action: "operator.grant", targetType: "user", targetId: userId, reason: "OWNER_EMAILS", before: { role: user.role }, after: { role: "owner" } });
      }
      return "owner";
    },

    /**
     * The operator of a signed-in request, or the refusal: 403 for a buyer, 403 two_fa_required
     * (saying how to turn it on) without 2FA, 401 for a session longer than an operator's
     * (one made before the role was given: sign in again).
     */
    authorize(candidate: OperatorCandidate): Operator {
      const { session, user } = candidate;
      if (!user.role) throw new DomainError("forbidden", "errors.admin_operators_only");
      if (!user.twoFaEnabled) throw new DomainError("two_fa_required", "errors.admin_two_fa_required");
      if (session.expiresAt.getTime() - clock.now().getTime() > OPERATOR_SESSION_SECONDS * 1000) {
        throw new DomainError("unauthenticated", "errors.admin_sign_in_again");
      }
      return { id: user.id, email: user.email, role: user.role, sessionId: session.id, stepUpUntil: session.stepUpUntil };
    },

    /** Refuses (403) what the operator's role may not do. */
    require(operator: Operator, permission: Permission): void {
      if (!may(operator.role, permission)) throw new DomainError("forbidden", "errors.admin_owner_only");
    },

    /** Whether the operator's step-up window is open now. */
    steppedUp(operator: Operator): boolean {
      return operator.stepUpUntil !== null && operator.stepUpUntil.getTime() > clock.now().getTime();
    },

    /** Opens the step-up window of the session (after a good code): 5 minutes from now. */
    async openStepUp(operator: Operator): Promise<Date> {
      const until = new Date(clock.now().getTime() + STEP_UP_SECONDS * 1000);
      await db.update(sessions).set({ stepUpUntil: until }).where(eq(sessions.id, operator.sessionId));
      operator.stepUpUntil = until;
      return until;
    },

    /**
     * Locks a buyer's row for a change by an operator, inside the caller's transaction: 404 for no
     * such user, 403 for an operator's account (their own included).
     */
    async lockCustomer(tx: Tx, userId: number) {
      const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("no key update");
      if (!user) throw new DomainError("not_found", "errors.user_not_found");
      if (user.role !== null) throw new DomainError("forbidden", "errors.admin_target_operator");
      return user;
    },
  };
}
