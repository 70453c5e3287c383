// The ledger on an in-memory database: guarded balance moves, one row per change with the balance
// after it, unique references, and paging by offset and by key.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { openTestDatabase } from "../../tests/kit/database.ts";
import { transactions, users } from "../../db/schema/index.ts";
import { DEMO } from "../../db/seed.ts";
import { createLedger, type Entry, type Ledger } from "./index.ts";

/** 7 days of Dota 2, as sold. */
const week = DEMO.products.dota2.days7;
const sold = { id: week.id, cheatId: week.cheatId, type: "subscription", days: week.days, price: week.price, currency: "USD", title: week.title };

let database: Database;
let ledger: Ledger;
let serial = 0;

beforeAll(async () => {
  database = await openTestDatabase();
  ledger = createLedger({ db: database.db, currency: "USD" });
});
afterAll(async () => {
  await database.close();
});

async function newUser(): Promise<number> {
  const n = ++serial;
  const [row] = await database.db
    .insert(users)
    .values({ email: `ledger-${n}@example.com`, passwordHash: "x", referralCode: `LEDGER${n}` })
    .returning({ id: users.id });
  return row!.id;
}

const post = (entry: Entry, at = new Date()) => database.db.transaction((tx) => ledger.post(tx, entry, at));

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (e: { code?: string }) => e.code ?? "other",
  );

describe("post", () => {
  it("moves the balance and books the row with the balance after it", async () => {
    const userId = await newUser();
    const first = await post({ userId, type: "topup", amount: 1000, source: "system" });
    expect(first.balance).toBe(1000);
    expect(first.transaction).toMatchObject({ type: "topup", amount: 1000, paid: 1000, currency: "USD", status: "completed", source: "system", products: [] });
    expect(first.transaction.createdAt).toBeInstanceOf(Date);
    const spent = await post({
      userId,
      type: "purchase",
      amount: -799,
      paid: 799,
      source: "balance",
      products: [sold],
    });
    expect(spent.balance).toBe(201);
    expect(spent.transaction.products).toEqual([sold]);
    const rows = await database.db.select().from(transactions).where(eq(transactions.userId, userId)).orderBy(transactions.id);
    expect(rows.map((r) => r.balanceAfter)).toEqual([1000, 201]);
    // Stored as the snapshot the API shows (docs/product/data.md#ledger).
    expect(rows[1]!.products).toEqual([{ id: week.id, cheat_id: week.cheatId, type: "subscription", params: { days: 7 }, price: 799, currency: "USD", title: "Dota 2 · 7d" }]);
    expect(await ledger.balanceOf(userId)).toBe(201);
  });

  it("refuses to go below zero, booking nothing, and knows an unknown user", async () => {
    const userId = await newUser();
    await post({ userId, type: "topup", amount: 500, source: "system" });
    expect(await codeOf(post({ userId, type: "purchase", amount: -501, source: "balance" }))).toBe("insufficient_balance");
    expect(await ledger.balanceOf(userId)).toBe(500);
    expect(await database.db.select().from(transactions).where(eq(transactions.userId, userId))).toHaveLength(1);
    expect(await codeOf(post({ userId, type: "purchase", amount: -500, source: "balance" }))).toBe("ok");
    expect(await codeOf(post({ userId: 999_999, type: "topup", amount: 1, source: "system" }))).toBe("not_found");
    expect(await codeOf(ledger.balanceOf(999_999))).toBe("not_found");
  });

  it("a reference is booked once; the whole transaction rolls back with a second one", async () => {
    const userId = await newUser();
    await post({ userId, type: "topup", amount: 300, source: "paypal", reference: "paypal:capture:ONE" });
    expect(await ledger.hasReference(database.db, "paypal:capture:ONE")).toBe(true);
    expect(await ledger.hasReference(database.db, "paypal:capture:TWO")).toBe(false);
    await expect(post({ userId, type: "topup", amount: 300, source: "paypal", reference: "paypal:capture:ONE" })).rejects.toThrow();
    expect(await ledger.balanceOf(userId)).toBe(300);
  });

  it("parallel spends never overdraw", async () => {
    const userId = await newUser();
    await post({ userId, type: "topup", amount: 1000, source: "system" });
    const results = await Promise.all(Array.from({ length: 12 }, () => codeOf(post({ userId, type: "purchase", amount: -100, source: "balance" }))));
    expect(results.filter((r) => r === "ok")).toHaveLength(10);
    expect(results.filter((r) => r === "insufficient_balance")).toHaveLength(2);
    expect(await ledger.balanceOf(userId)).toBe(0);
  });
});

describe("owed (docs/product/money.md#owed)", () => {
  const owedOf = async (userId: number) => (await database.db.select({ owed: users.owed }).from(users).where(eq(users.id, userId)))[0]!.owed;

  it("takeBack takes the balance as far as it goes and books the rest as owed, in one row", async () => {
    const userId = await newUser();
    await post({ userId, type: "topup", amount: 300, source: "system" });
    const result = await database.db.transaction((tx) => ledger.takeBack(tx, { userId, type: "refund", amount: 1000, paid: -1000, source: "paypal" }, new Date()));
    expect(result).toMatchObject({ balance: 0, owed: 700, taken: 300, owedAdded: 700 });
    const rows = await database.db.select().from(transactions).where(eq(transactions.userId, userId)).orderBy(transactions.id);
    expect(rows.map((r) => [r.type, r.amount, r.owedChange, r.balanceAfter])).toEqual([
      ["topup", 300, 0, 300],
      ["refund", -300, 700, 0],
    ]);
  });

  it("credit pays what is owed off first, as an adjustment; owed never goes below zero", async () => {
    const userId = await newUser();
    await database.db.transaction((tx) => ledger.takeBack(tx, { userId, type: "refund", amount: 500, paid: -500, source: "paypal" }, new Date()));
    const small = await database.db.transaction((tx) => ledger.credit(tx, { userId, type: "topup", amount: 200, source: "paypal", reference: "paypal:capture:OWED-1" }, new Date()));
    expect(small).toMatchObject({ balance: 0, owed: 300 });
    const large = await database.db.transaction((tx) => ledger.credit(tx, { userId, type: "topup", amount: 1000, source: "paypal", reference: "paypal:capture:OWED-2" }, new Date()));
    expect(large).toMatchObject({ balance: 700, owed: 0, transaction: { type: "topup", amount: 1000 } });
    const rows = await database.db.select().from(transactions).where(eq(transactions.userId, userId)).orderBy(transactions.id);
    expect(rows.map((r) => [r.type, r.amount, r.owedChange, r.reference])).toEqual([
      ["refund", 0, 500, null],
      ["topup", 200, 0, "paypal:capture:OWED-1"],
      ["adjustment", -200, -200, "paypal:capture:OWED-1:owed"],
      ["topup", 1000, 0, "paypal:capture:OWED-2"],
      ["adjustment", -300, -300, "paypal:capture:OWED-2:owed"],
    ]);
    expect(await owedOf(userId)).toBe(0);
    expect(await codeOf(post({ userId, type: "adjustment", amount: 0, owedChange: -1, source: "system" }))).toBe("insufficient_balance");
    expect(await owedOf(userId)).toBe(0);
  });
});

describe("list", () => {
  it("pages newest first by offset and by key, only the user's own rows", async () => {
    const userId = await newUser();
    const other = await newUser();
    for (let i = 1; i <= 7; i++) {
      await post({ userId, type: "topup", amount: i, source: "system" });
      await post({ userId: other, type: "topup", amount: i, source: "system" });
    }
    const all = await ledger.list(userId, { limit: 50 });
    expect(all.map((t) => t.amount)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    const bySkip = [...(await ledger.list(userId, { limit: 3 })), ...(await ledger.list(userId, { limit: 3, skip: 3 })), ...(await ledger.list(userId, { limit: 3, skip: 6 }))];
    expect(bySkip.map((t) => t.id)).toEqual(all.map((t) => t.id));
    const page1 = await ledger.list(userId, { limit: 3 });
    const page2 = await ledger.list(userId, { limit: 3, before: page1.at(-1)!.id });
    const page3 = await ledger.list(userId, { limit: 3, before: page2.at(-1)!.id, skip: 99 });
    expect([...page1, ...page2, ...page3].map((t) => t.id)).toEqual(all.map((t) => t.id));
  });
});
