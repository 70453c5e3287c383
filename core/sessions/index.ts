// Sessions: opaque random tokens, stored only as a hash, revocable, 14 days (docs/product/accounts.md#sessions). A "pre2fa"
// session is what a password sign-in of a 2FA user gets: good for confirmTwoFa alone, 10 minutes.
// An operator's full session lasts 12 hours (docs/product/back-office.md#roles); every full session
// is a sign-in, where OWNER_EMAILS is applied (core/operators).
import { and, eq, gt, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { sessions, users } from "../../db/schema/index.ts";
import { OPERATOR_SESSION_SECONDS, type Operators } from "../operators/index.ts";
import type { Clock } from "../shared/clock.ts";
import { randomToken, sha256 } from "../shared/tokens.ts";

export const SESSION_SECONDS = 336 * 3600;
export const PRE_2FA_SECONDS = 10 * 60;

export type SessionKind = "full" | "pre2fa";
export type AuthSession = {
  id: number;
  userId: number;
  kind: SessionKind;
  expiresAt: Date;
  /** An operator's step-up window (docs/product/back-office.md#step-up); null when none was opened. */
  stepUpUntil: Date | null;
};
export type SessionUser = typeof users.$inferSelect;

export type Sessions = ReturnType<typeof createSessions>;

/** What a session lookup returns: its session, its user and the values of the extra fields. */
type LookupRow<Extra extends Record<string, SQL>> = { session: Omit<AuthSession, "kind"> & { kind: string }; user: SessionUser } & {
  [K in keyof Extra]: Extra[K] extends SQL<infer T> ? T : never;
};
type PreparedLookup<Extra extends Record<string, SQL>> = { execute(values: { tokenHash: string; now: string }): Promise<LookupRow<Extra>[]> };
/** A signed-in request's session and user, with the extra fields the lookup read (`authenticateWith`). */
type Authenticated<Extra extends Record<string, SQL> = Record<never, SQL>> = Omit<LookupRow<Extra>, "session"> & { session: AuthSession };

export function createSessions({ db, clock, operators }: { db: Db; clock: Clock; operators: Pick<Operators, "atSignIn"> }) {
  /**
   * The lookup of a signed-in request, prepared once: Drizzle builds its SQL once (building it was
   * a quarter of a signed-in request's CPU) and PostgreSQL plans it once per connection. `extra`
   * adds fields of the user's own rows to the same statement (`authenticateWith`).
   */
  function prepareLookup<Extra extends Record<string, SQL>>(extra: Extra, name: string): PreparedLookup<Extra> {
    const prepared = db
      .select({ session: { id: sessions.id, userId: sessions.userId, kind: sessions.kind, expiresAt: sessions.expiresAt, stepUpUntil: sessions.stepUpUntil }, user: users, ...extra })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.tokenHash, sql.placeholder("tokenHash")),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, sql`${sql.placeholder("now")}::timestamptz`),
          isNull(users.suspendedAt),
          isNull(users.deletedAt),
        ),
      )
      .limit(1)
      .prepare(name);
    // Drizzle's result type of a field set still generic (Extra) does not resolve; it is this one.
    return prepared as unknown as PreparedLookup<Extra>;
  }

  /** The live session of a token with its user and the `extra` fields, or null. */
  async function lookUp<Extra extends Record<string, SQL>>(lookup: PreparedLookup<Extra>, token: string): Promise<Authenticated<Extra> | null> {
    if (!token || token.length > 200) return null;
    const [row] = await lookup.execute({ tokenHash: sha256(token), now: clock.now().toISOString() });
    if (!row) return null;
    return { ...row, session: { ...row.session, kind: row.session.kind as SessionKind } };
  }

  const lookup = prepareLookup({}, "session_lookup");

  return {
    async create(userId: number, kind: SessionKind = "full", meta: { ip?: string; userAgent?: string } = {}, tx: Db | Tx = db): Promise<{ token: string; session: AuthSession }> {
      const token = randomToken();
      const role = kind === "full" ? await operators.atSignIn(tx, userId) : null;
      const now = clock.now();
      const seconds = kind === "pre2fa" ? PRE_2FA_SECONDS : role ? OPERATOR_SESSION_SECONDS : SESSION_SECONDS;
      const expiresAt = new Date(now.getTime() + seconds * 1000);
      const [row] = await tx
        .insert(sessions)
        .values({
          userId,
          kind,
          tokenHash: sha256(token),
          createdAt: now,
          lastSeenAt: now,
          expiresAt,
          ip: meta.ip,
          userAgent: meta.userAgent?.slice(0, 300),
        })
        .returning({ id: sessions.id });
      return { token, session: { id: row!.id, userId, kind, expiresAt, stepUpUntil: null } };
    },

    /**
     * The live session of a token with its user, or null (also while the user is suspended,
     * docs/product/accounts.md#suspension, and once the account is deleted).
     */
    async authenticate(token: string): Promise<Authenticated | null> {
      return lookUp(lookup, token);
    },

    /**
     * `authenticate` that also reads `extra(users.id)`, fields of the user's own rows, in the same
     * statement: one round trip for a request that needs both (frontend/data,
     * docs/decisions/0056-signed-in-data-in-one-statement.md). Prepared once, under `name`.
     */
    authenticateWith<Extra extends Record<string, SQL>>(extra: (userId: typeof users.id) => Extra, name: string) {
      const lookup = prepareLookup(extra(users.id), name);
      return (token: string) => lookUp(lookup, token);
    },

    async revoke(sessionId: number, tx: Db | Tx = db): Promise<void> {
      await tx
        .update(sessions)
        .set({ revokedAt: clock.now() })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    },

    /** Ends every session of the user, except `keep` when given. */
    async revokeAll(userId: number, keep?: number, tx: Db | Tx = db): Promise<void> {
      const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
      if (keep !== undefined) conditions.push(ne(sessions.id, keep));
      await tx
        .update(sessions)
        .set({ revokedAt: clock.now() })
        .where(and(...conditions));
    },
  };
}
