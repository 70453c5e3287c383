// Drizzle's named prepared statements on PGlite run as named server-side statements
// (db/pglite-statements.ts): the same rows as PGlite's own unnamed path, after errors too, and
// never inside another caller's transaction.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { desc, eq, sql } from "drizzle-orm";
import { openTestDatabase } from "../tests/kit/database.ts";
import type { Database } from "./client.ts";
import { jsonRows } from "./json-rows.ts";
import { transactions, users } from "./schema/index.ts";

// db/ tests run in the pglite project only (vitest.config.ts): openTestDatabase gives a PGlite copy.
describe("named statements on PGlite", () => {
  let database: Database;
  let userId: number;

  beforeAll(async () => {
    database = await openTestDatabase();
    const { db } = database;
    const [user] = await db
      .insert(users)
      .values({ email: "named@example.com", passwordHash: "x", referralCode: "NAMED1", balance: 2 ** 40, twoFaLastStep: null, signupIp: 'it\'s "quoted"\n' })
      .returning({ id: users.id });
    userId = user!.id;
    await db.insert(transactions).values([
      { userId, type: "topup", amount: 2 ** 40, balanceAfter: 2 ** 40, currency: "RUB", source: "demo", createdAt: new Date("2026-01-02T03:04:05.678Z") },
      {
        userId,
        type: "purchase",
        amount: -150,
        paid: 150,
        balanceAfter: 2 ** 40 - 150,
        currency: "RUB",
        products: [{ id: 1, name: "Ключ \u{1F511}", nested: { a: [1, null, "x"] } }] as never,
        reference: null,
      },
    ]);
  });

  afterAll(async () => {
    await database?.close();
  });

  /** The frontend/data shape: a row of many types with a child list as JSON (decision 0056). */
  function lookup(db: Database["db"]) {
    return db
      .select({
        user: users,
        latest: jsonRows(
          transactions,
          sql`select * from ${transactions} where ${transactions.userId} = ${users.id} order by ${transactions.id} desc limit 10`,
          transactions.id,
          "desc",
          (row) => row,
        ),
        now: sql<string>`${sql.placeholder("now")}::timestamptz`,
      })
      .from(users)
      .where(eq(users.id, sql.placeholder("userId")));
  }

  async function serverStatements(): Promise<string[]> {
    const result = (await database.db.execute(sql`select name from pg_prepared_statements order by name`)) as unknown as { rows: { name: string }[] };
    return result.rows.map((r) => r.name);
  }

  it("gives the same rows as the unnamed path: numbers for bigint, Dates, nulls, jsonb, text", async () => {
    const { db } = database;
    const values = { userId, now: "2026-05-06T07:08:09.010Z" };
    const named = lookup(db).prepare("test_lookup");
    const first = await named.execute(values);
    const second = await named.execute(values);
    // Without a name: PGlite's own unnamed path, placeholders and all.
    const unnamed = await lookup(db).execute(values);
    expect(first).toEqual(unnamed);
    expect(second).toEqual(unnamed);
    expect(first[0]!.user.balance).toBe(2 ** 40);
    expect(first[0]!.user.twoFaLastStep).toBeNull();
    expect(first[0]!.user.signupIp).toBe('it\'s "quoted"\n');
    expect(first[0]!.user.createdAt).toBeInstanceOf(Date);
    expect(first[0]!.latest.map((t) => t.amount)).toEqual([-150, 2 ** 40]);
    expect(first[0]!.latest[1]!.createdAt).toEqual(new Date("2026-01-02T03:04:05.678Z"));
    expect(first[0]!.latest[0]!.products).toEqual([{ id: 1, name: "Ключ \u{1F511}", nested: { a: [1, null, "x"] } }]);
    // It went by name: the server holds it.
    expect(await serverStatements()).toContain("test_lookup");
  });

  it("gives the same plain rows, no rows and the command's count as the unnamed path", async () => {
    const { db } = database;
    const latest = db
      .select()
      .from(transactions)
      .where(eq(transactions.userId, sql.placeholder("userId")))
      .orderBy(desc(transactions.id))
      .prepare("test_latest");
    expect(await latest.execute({ userId })).toEqual(await db.select().from(transactions).where(eq(transactions.userId, userId)).orderBy(desc(transactions.id)));
    expect(await latest.execute({ userId: -1 })).toEqual([]);
    const rename = db
      .update(users)
      .set({ username: sql`${sql.placeholder("name")}` })
      .where(eq(users.id, sql.placeholder("userId")))
      .returning({ username: users.username })
      .prepare("test_rename");
    expect(await rename.execute({ userId, name: "renamed" })).toEqual([{ username: "renamed" }]);
    expect(await rename.execute({ userId, name: null })).toEqual([{ username: null }]);
  });

  it("reports an error as the unnamed path does, and works again afterwards", async () => {
    const { db } = database;
    const cast = db
      .select({ n: sql<number>`${sql.placeholder("n")}::int` })
      .from(users)
      .where(eq(users.id, userId))
      .prepare("test_cast");
    const failure = (await cast.execute({ n: "not a number" }).catch((e: unknown) => e)) as { cause?: { code?: string; message?: string } };
    const unnamed = (await db
      .select({ n: sql<number>`${"not a number"}::int` })
      .from(users)
      .where(eq(users.id, userId))
      .catch((e: unknown) => e)) as { cause?: { code?: string; message?: string } };
    expect(failure.cause?.code).toBe("22P02");
    expect(failure.cause?.message).toBe(unnamed.cause?.message);
    expect(await cast.execute({ n: "42" })).toEqual([{ n: 42 }]);
  });

  it("parses again when the server lost the statement", async () => {
    const { db } = database;
    const named = lookup(db).prepare("test_lookup_again");
    const before = await named.execute({ userId, now: "2026-05-06T07:08:09.010Z" });
    await db.execute(sql`deallocate all`);
    expect(await serverStatements()).toEqual([]);
    expect(await named.execute({ userId, now: "2026-05-06T07:08:09.010Z" })).toEqual(before);
    // One text, one statement on the server: under the first name it was prepared with.
    expect(await serverStatements()).toEqual(["test_lookup"]);
  });

  it("keeps two texts under one name apart", async () => {
    const { db } = database;
    const a = db
      .select({ v: sql<number>`1` })
      .from(users)
      .where(eq(users.id, sql.placeholder("userId")))
      .prepare("test_same_name");
    const b = db
      .select({ v: sql<number>`2` })
      .from(users)
      .where(eq(users.id, sql.placeholder("userId")))
      .prepare("test_same_name");
    expect(await a.execute({ userId })).toEqual([{ v: 1 }]);
    expect(await b.execute({ userId })).toEqual([{ v: 2 }]);
    expect(await a.execute({ userId })).toEqual([{ v: 1 }]);
  });

  it("waits for another caller's transaction instead of running inside it", async () => {
    const { db } = database;
    const balance = db
      .select({ balance: users.balance })
      .from(users)
      .where(eq(users.id, sql.placeholder("userId")))
      .prepare("test_balance");
    const [{ balance: start }] = (await balance.execute({ userId })) as [{ balance: number }];
    let read: Promise<{ balance: number }[]> | undefined;
    const rolledBack = db
      .transaction(async (tx) => {
        await tx.update(users).set({ balance: 1 }).where(eq(users.id, userId));
        // Issued while this transaction is open and holds uncommitted changes.
        read = balance.execute({ userId });
        await tx.update(users).set({ balance: 2 }).where(eq(users.id, userId));
        throw new Error("roll back");
      })
      .catch((e: unknown) => e);
    expect(await rolledBack).toEqual(new Error("roll back"));
    expect(await read).toEqual([{ balance: start }]);
    // And after a committed one, it sees the commit.
    await db.transaction(async (tx) => {
      await tx.update(users).set({ balance: 7 }).where(eq(users.id, userId));
    });
    expect(await balance.execute({ userId })).toEqual([{ balance: 7 }]);
  });

  it("leaves a statement prepared inside a transaction on PGlite's own path", async () => {
    const { db } = database;
    const outside = await lookup(db).prepare("test_lookup_tx_outside").execute({ userId, now: "2026-05-06T07:08:09.010Z" });
    const inside = await db.transaction(async (tx) =>
      lookup(tx as unknown as Database["db"])
        .prepare("test_lookup_tx")
        .execute({ userId, now: "2026-05-06T07:08:09.010Z" }),
    );
    expect(inside).toEqual(outside);
    expect(await serverStatements()).not.toContain("test_lookup_tx");
  });
});
