// A signed-in answer's own rows (frontend/data: the user's row, latest transactions and
// subscriptions), kept in memory by each process under the version of those rows, so that most
// requests read the session and one number instead of the rows themselves
// (docs/decisions/0076-own-rows-by-version.md). The version is read in the session lookup's own
// statement and the rows with theirs in one statement, each in one snapshot: equal versions mean
// the same committed changes, whatever another process or connection wrote in between.
import { eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Db } from "../../db/client.ts";
import { userDataChanges, users } from "../../db/schema/index.ts";
import type { SessionUser, Sessions } from "./index.ts";

/** The version of the user `userId`'s row, transactions and subscriptions (db/schema/commerce.ts, `userDataChanges`). */
function userDataVersion(userId: SQLWrapper): SQL<number> {
  return sql`(select coalesce(sum(${userDataChanges.n}), 0)::bigint from ${userDataChanges} where ${userDataChanges.userId} = ${userId})`.mapWith(Number);
}

type Values<Fields extends Record<string, SQL>> = { [K in keyof Fields]: Fields[K] extends SQL<infer T> ? T : never };
type PreparedRows<Fields extends Record<string, SQL>> = { execute(values: { userId: number }): Promise<(Values<Fields> & { version: number; user: SessionUser })[]> };

/**
 * `authenticate` with `fields(userId)`, fragments that read only the user's transactions and
 * subscriptions (what the version counts with the user's row), kept for up to `users` users per
 * process. Two prepared statements: `<name>_session` (the session and the version, the session's
 * conditions on the user checked there as in `authenticate`) and `<name>` (the user's row, the
 * fields and their version), the second only when this process keeps no rows of that version.
 */
export function createOwnRows<Fields extends Record<string, SQL>>({
  db,
  sessions,
  fields,
  name,
  users: capacity,
  counted,
}: {
  db: Db;
  sessions: Pick<Sessions, "authenticateOnly">;
  fields: (userId: SQLWrapper) => Fields;
  name: string;
  users: number;
  /** Told of each answer whether its rows were kept or read. */
  counted?: (source: "kept" | "read") => void;
}) {
  const lookUp = sessions.authenticateOnly((userId) => ({ version: userDataVersion(userId) }), `${name}_session`);
  // The user as a parameter in each subquery: Drizzle writes a column of a one-table select without
  // its table's name, which a subquery would take for its own table's column.
  const userId = sql.placeholder("userId");
  const read = db
    .select({ user: users, version: userDataVersion(userId), ...fields(userId) })
    .from(users)
    .where(eq(users.id, userId))
    .prepare(name) as unknown as PreparedRows<Fields>;
  // A user's rows are a few KB: the bound keeps memory flat however many sign in.
  const kept = new LRUCache<number, { version: number; user: SessionUser; rows: Values<Fields> }>({ max: capacity });

  return async function authenticate(token: string) {
    const found = await lookUp(token);
    if (!found) return null;
    const { version, session } = found;
    let entry = kept.get(session.userId);
    if (entry?.version !== version) {
      const [row] = await read.execute({ userId: session.userId });
      if (!row) return null;
      const { version: readVersion, user, ...rows } = row;
      entry = { version: readVersion, user, rows: rows as unknown as Values<Fields> };
      kept.set(session.userId, entry);
      counted?.("read");
    } else {
      counted?.("kept");
    }
    // The kept objects themselves, shared by the requests of this version: read, never changed in place.
    return { session, user: entry.user, ...entry.rows };
  };
}
