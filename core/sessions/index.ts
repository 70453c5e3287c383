// Sessions: opaque random tokens, stored only as a hash, revocable, 14 days (docs/product/accounts.md#sessions). A "pre2fa"
// session is what a password sign-in of a 2FA user gets: good for confirmTwoFa alone, 10 minutes.
// An operator's full session lasts 12 hours (docs/product/back-office.md#roles); every full session
// is a sign-in, where OWNER_EMAILS is applied (core/operators).
import { and, eq, gt, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/pg-core";
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

/** What a session lookup returns: its session and the values of the extra fields. */
type LookupRow<Extra extends Record<string, SQL>> = { session: Omit<AuthSession, "kind"> & { kind: string } } & {
  [K in keyof Extra]: Extra[K] extends SQL<infer T> ? T : never;
};
type Prepared<Row> = { execute(values: { tokenHash: string; now: string }): Promise<Row[]> };
/** A signed-in request's session and user. */
type Authenticated = { session: AuthSession; user: SessionUser };

export function createSessions({ db, clock, operators }: { db: Db; clock: Clock; operators: Pick<Operators, "atSignIn"> }) {
  /** The live session of a token, joined to its user (neither suspended nor deleted), with `fields`; prepared once as `name`. */
  function prepareQuery(fields: SelectedFields, name: string) {
    return db
      .select({ session: { id: sessions.id, userId: sessions.userId, kind: sessions.kind, expiresAt: sessions.expiresAt, stepUpUntil: sessions.stepUpUntil }, ...fields })
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
      // No LIMIT: the token's hash is unique (at most one row), and a LIMIT is one more parameter and plan node per lookup.
      .prepare(name);
  }

  /**
   * The lookups of signed-in requests are prepared once: Drizzle builds their SQL once (building it
   * was a quarter of a signed-in request's CPU) and PostgreSQL plans it once per connection.
   */
  const lookup = prepareQuery({ user: users }, "session_lookup") as unknown as Prepared<LookupRow<Record<never, SQL>> & { user: SessionUser }>;

  /** The live session of a token with the values `lookup` read, or null. */
  async function lookUp<Row extends LookupRow<Record<never, SQL>>>(lookup: Prepared<Row>, token: string): Promise<(Omit<Row, "session"> & { session: AuthSession }) | null> {
    if (!token || token.length > 200) return null;
    const [row] = await lookup.execute({ tokenHash: sha256(token), now: clock.now().toISOString() });
    if (!row) return null;
    return { ...row, session: { ...row.session, kind: row.session.kind as SessionKind } };
  }

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
     * `authenticate` without the user's row but with `extra(users.id)` in the same statement: for a
     * caller that keeps the user's rows itself and reads here what tells whether its copy is
     * current (core/sessions/own-rows.ts). Prepared once, under `name`.
     */
    authenticateOnly<Extra extends Record<string, SQL>>(extra: (userId: typeof users.id) => Extra, name: string) {
      // Drizzle's result type of a field set still generic (Extra) does not resolve; it is this one.
      const lookup = prepareQuery(extra(users.id), name) as unknown as Prepared<LookupRow<Extra>>;
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
