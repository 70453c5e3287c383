// Sessions: opaque random tokens, stored only as a hash, revocable, 14 days (docs/product/accounts.md#sessions). A "pre2fa"
// session is what a password sign-in of a 2FA user gets: good for confirmTwoFa alone, 10 minutes.
// An operator's full session lasts 12 hours (docs/product/back-office.md#roles); every full session
// is a sign-in, where OWNER_EMAILS is applied (core/operators).
import DataLoader from "dataloader";
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
/** A signed-in request's session and user. */
type Authenticated = { session: AuthSession; user: SessionUser };

/** Tokens' lookups read together at most: a statement's array parameter stays small. */
const TOGETHER_AT_MOST = 100;

export function createSessions({
  db,
  clock,
  operators,
  lookedUp,
}: {
  db: Db;
  clock: Clock;
  operators: Pick<Operators, "atSignIn">;
  /** Told of each statement of lookups: its name and how many tokens it read. */
  lookedUp?: (statement: string, tokens: number) => void;
}) {
  /**
   * The live session of each token of a request (Bearer header or cookie), joined to its user
   * (neither suspended nor deleted), with `fields`, prepared once as `name`: Drizzle builds the SQL
   * once (building it was a quarter of a signed-in request's CPU) and PostgreSQL plans it once per
   * connection.
   *
   * The lookups of the requests that arrived together (in one turn of the event loop: the sockets
   * that were readable at once) are one statement and one round trip, of all their tokens' hashes
   * (docs/decisions/0078-session-lookups-together.md). Each request still reads its session after
   * it arrived, in a statement of its own turn; nothing is kept from one turn to the next.
   */
  function lookUpTogether<Row extends LookupRow<Record<never, SQL>>>(fields: SelectedFields, name: string) {
    const lookup = db
      .select({
        tokenHash: sessions.tokenHash,
        session: { id: sessions.id, userId: sessions.userId, kind: sessions.kind, expiresAt: sessions.expiresAt, stepUpUntil: sessions.stepUpUntil },
        ...fields,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          sql`${sessions.tokenHash} = any(${sql.placeholder("tokenHashes")}::text[])`,
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, sql`${sql.placeholder("now")}::timestamptz`),
          isNull(users.suspendedAt),
          isNull(users.deletedAt),
        ),
      )
      .prepare(name) as unknown as { execute(values: { tokenHashes: readonly string[]; now: string }): Promise<(Row & { tokenHash: string })[]> };
    const together = new DataLoader<string, Row | null>(
      async (hashes) => {
        lookedUp?.(name, hashes.length);
        const rows = await lookup.execute({ tokenHashes: hashes, now: clock.now().toISOString() });
        // A hash is unique: one row at most per token, and the same row for a token asked twice.
        const byHash = new Map<string, Row>(rows.map(({ tokenHash, ...row }) => [tokenHash, row as unknown as Row]));
        return hashes.map((hash) => byHash.get(hash) ?? null);
      },
      // No cache: a lookup is never answered from an earlier one. setImmediate runs after the
      // event loop has read every socket that was ready, so their requests are in one statement.
      { cache: false, maxBatchSize: TOGETHER_AT_MOST, batchScheduleFn: (run) => setImmediate(run) },
    );
    /** The live session of a token with the values `fields` read, or null. */
    return async (token: string): Promise<(Omit<Row, "session"> & { session: AuthSession }) | null> => {
      if (!token || token.length > 200) return null;
      const row = await together.load(sha256(token));
      if (!row) return null;
      return { ...row, session: { ...row.session, kind: row.session.kind as SessionKind } };
    };
  }

  const authenticate = lookUpTogether<LookupRow<Record<never, SQL>> & { user: SessionUser }>({ user: users }, "session_lookup");

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
      return authenticate(token);
    },

    /**
     * `authenticate` without the user's row but with `extra(users.id)` in the same statement: for a
     * caller that keeps the user's rows itself and reads here what tells whether its copy is
     * current (core/sessions/own-rows.ts). Prepared once, under `name`.
     */
    authenticateOnly<Extra extends Record<string, SQL>>(extra: (userId: typeof users.id) => Extra, name: string) {
      // Drizzle's result type of a field set still generic (Extra) does not resolve; it is this one.
      return lookUpTogether<LookupRow<Extra>>(extra(users.id), name);
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
