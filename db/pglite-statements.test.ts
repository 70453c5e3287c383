// Drizzle's named prepared statements on PGlite run as named server-side statements
// (db/pglite-statements.ts): the same rows as PGlite's own unnamed path, after errors too, and
// never inside another caller's transaction. After its first execution a statement runs at once
// while PGlite is idle (decision 0077): the tests run each statement at least twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { desc, eq, sql } from "drizzle-orm";
import { openTestDatabase } from "../tests/kit/database.ts";
import type { Database } from "./client.ts";
import { protocol } from "@electric-sql/pglite";
import { jsonRows } from "./json-rows.ts";
import { bindExecuteSyncText } from "./pglite-statements.ts";
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

  /** A named statement of one column: its parameter `n` cast to int, on the test user's row. */
  function castToInt(db: Database["db"], name: string) {
    return db
      .select({ n: sql<number>`${sql.placeholder("n")}::int` })
      .from(users)
      .where(eq(users.id, userId))
      .prepare(name);
  }

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

  it("writes Bind, Execute and Sync as PGlite's serialiser does", () => {
    const values = ["abc", null, "", "Ключ \u{1F511} — 键", "2026-05-06T07:08:09.010Z"];
    const theirs = Buffer.concat([protocol.serialize.bind({ statement: "some_statement", values }), protocol.serialize.execute({}), protocol.serialize.sync()]);
    expect(Buffer.from(bindExecuteSyncText("some_statement", values)!)).toEqual(theirs);
    expect(Buffer.from(bindExecuteSyncText("s", [])!)).toEqual(
      Buffer.concat([protocol.serialize.bind({ statement: "s", values: [] }), protocol.serialize.execute({}), protocol.serialize.sync()]),
    );
    // Anything but text goes to PGlite's serialiser.
    expect(bindExecuteSyncText("s", [new Uint8Array([1])])).toBeNull();
  });

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
    const cast = castToInt(db, "test_cast");
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

  it("reports an error of a statement run at once as the unnamed path does, and leaves nothing half done", async () => {
    const { db } = database;
    const cast = castToInt(db, "test_cast_at_once");
    // Prepared by its first execution; the next ones run at once.
    expect(await cast.execute({ n: "1" })).toEqual([{ n: 1 }]);
    const failure = (await cast.execute({ n: "x" }).catch((e: unknown) => e)) as { cause?: { code?: string; message?: string; query?: string } };
    expect(failure.cause?.code).toBe("22P02");
    expect(failure.cause?.message).toBe('invalid input syntax for type integer: "x"');
    expect(failure.cause?.query).toContain("::int");
    expect(await cast.execute({ n: "2" })).toEqual([{ n: 2 }]);
    // A write refused by a constraint: no row changed, and the next one works.
    const reference = db
      .update(transactions)
      .set({ reference: sql`${sql.placeholder("reference")}` })
      .where(eq(transactions.id, sql.placeholder("id")))
      .returning({ id: transactions.id })
      .prepare("test_reference");
    const [first, second] = await db.select({ id: transactions.id }).from(transactions).where(eq(transactions.userId, userId)).orderBy(transactions.id);
    expect(await reference.execute({ id: first!.id, reference: "ref-a" })).toEqual([{ id: first!.id }]);
    const duplicate = (await reference.execute({ id: second!.id, reference: "ref-a" }).catch((e: unknown) => e)) as { cause?: { code?: string } };
    expect(duplicate.cause?.code).toBe("23505");
    expect((await db.select({ reference: transactions.reference }).from(transactions).where(eq(transactions.id, second!.id)))[0]!.reference).toBeNull();
    expect(await reference.execute({ id: second!.id, reference: "ref-b" })).toEqual([{ id: second!.id }]);
  });

  it("gives a statement's rows with the notices it raised, and long answers whole", async () => {
    const { db } = database;
    await db.execute(sql`create or replace function test_noisy(x int) returns int language plpgsql as $$ begin raise notice 'noisy %', x; return x; end $$`);
    const noisy = db
      .select({ v: sql<number>`test_noisy(${sql.placeholder("x")}::int)` })
      .from(users)
      .where(eq(users.id, userId))
      .prepare("test_noisy");
    expect(await noisy.execute({ x: 5 })).toEqual([{ v: 5 }]);
    expect(await noisy.execute({ x: 6 })).toEqual([{ v: 6 }]);
    // Far more than one buffer of PGlite's answer.
    const series = db
      .select({ n: sql<number>`g.n`, text: sql<string>`repeat('ж', g.n % 50)` })
      .from(sql`generate_series(1, ${sql.placeholder("to")}::int) as g(n)`)
      .prepare("test_series");
    const unnamed = await db.select({ n: sql<number>`g.n`, text: sql<string>`repeat('ж', g.n % 50)` }).from(sql`generate_series(1, ${20_000}::int) as g(n)`);
    expect(await series.execute({ to: 20_000 })).toEqual(unnamed);
    expect(await series.execute({ to: 20_000 })).toEqual(unnamed);
  });

  it("keeps every caller's answer its own when named, unnamed and transactions interleave", async () => {
    const { db } = database;
    const echo = castToInt(db, "test_echo");
    await echo.execute({ n: 0 });
    const work = Array.from({ length: 60 }, (_, i) => {
      if (i % 3 === 0) return echo.execute({ n: i }).then((rows) => rows[0]!.n);
      if (i % 3 === 1) return db.execute(sql`select ${i}::int as v`).then((r) => (r as unknown as { rows: { v: number }[] }).rows[0]!.v);
      return db.transaction(async (tx) => {
        const [row] = await tx.execute(sql`select ${i}::int as v`).then((r) => (r as unknown as { rows: { v: number }[] }).rows);
        // A named statement issued from inside the callback waits for this transaction's end.
        const named = echo.execute({ n: -i });
        return { row: row!.v, named };
      });
    });
    const results = await Promise.all(work);
    for (const [i, result] of results.entries()) {
      if (i % 3 === 2) {
        const { row, named } = result as { row: number; named: Promise<{ n: number }[]> };
        expect(row).toBe(i);
        expect((await named)[0]!.n).toBe(-i);
      } else {
        expect(result).toBe(i);
      }
    }
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
