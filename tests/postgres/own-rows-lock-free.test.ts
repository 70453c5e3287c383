// The version of a user's rows (docs/decisions/0076-own-rows-by-version.md) makes no writer wait on
// another: a transaction still open after writing a user's rows does not hold up another writer of
// that user, and two transactions that write two users' rows in opposite orders do not deadlock
// (as they could on a version column every writer updates). Each commit's changes are counted once.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { registerUser, useShop, type User } from "../kit/shop.ts";

const shop = useShop();

async function client(): Promise<pg.Client> {
  const connection = new pg.Client({ connectionString: shop.database.url });
  await connection.connect();
  // A writer that waited would fail here rather than hang the test.
  await connection.query("set statement_timeout = 3000");
  return connection;
}

const insertRow = (connection: pg.Client, user: User) =>
  connection.query("insert into transactions (user_id, type, amount, balance_after, currency) values ($1, 'adjustment', 0, 0, 'USD')", [user.id]);

async function version(user: User): Promise<{ rows: number; version: number }> {
  const connection = await client();
  try {
    const result = await connection.query<{ rows: number; version: number }>("select count(*)::int as rows, coalesce(sum(n), 0)::int as version from user_data_changes where user_id = $1", [
      user.id,
    ]);
    return result.rows[0]!;
  } finally {
    await connection.end();
  }
}

describe("the version of a user's rows", () => {
  it("lets a second writer of the same user through while the first is still open, and counts both", async () => {
    const user = await registerUser(shop);
    const start = await version(user);
    const [first, second] = [await client(), await client()];
    try {
      await first.query("begin");
      await insertRow(first, user);
      await insertRow(second, user); // its own transaction, committed at once: it did not wait for the first
      expect(await version(user)).toEqual({ rows: start.rows + 1, version: start.version + 1 });
      await first.query("commit");
      const both = await version(user);
      expect(both.version).toBe(start.version + 2);
      expect(both.rows).toBeLessThanOrEqual(start.rows + 2);
      // The next writer folds everything in.
      await insertRow(second, user);
      expect(await version(user)).toEqual({ rows: 1, version: start.version + 3 });
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
  });

  it("lets two transactions write two users' rows in opposite orders without a deadlock", async () => {
    const [one, two] = [await registerUser(shop), await registerUser(shop)];
    const [startOne, startTwo] = [await version(one), await version(two)];
    const [a, b] = [await client(), await client()];
    try {
      await a.query("begin");
      await b.query("begin");
      await insertRow(a, one);
      await insertRow(b, two);
      await Promise.all([insertRow(a, two), insertRow(b, one)]);
      await Promise.all([a.query("commit"), b.query("commit")]);
      expect((await version(one)).version).toBe(startOne.version + 2);
      expect((await version(two)).version).toBe(startTwo.version + 2);
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  });

  it("does not move when a writer rolls back", async () => {
    const user = await registerUser(shop);
    const start = await version(user);
    const writer = await client();
    try {
      await writer.query("begin");
      await insertRow(writer, user);
      await writer.query("rollback");
      expect(await version(user)).toEqual(start);
    } finally {
      await writer.end();
    }
  });
});
