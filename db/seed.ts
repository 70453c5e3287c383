// Demo catalogue (docs/product/data.md#demo-data) and, outside production, the demo user. Safe to run at every start:
// rows are keyed by fixed ids and nothing already there is changed.
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { cheats, products, sessions, shoppingAreaCountries, shoppingAreas, subscriptions, transactions, users } from "./schema/index.ts";

export const DEMO_USER = { email: "demo@example.com", password: "demo12345", balance: 5000 } as const;

const GAMES = [
  { id: 1, slug: "dota2", name: "Dota 2", sort: 1 },
  { id: 2, slug: "minecraft", name: "Minecraft", sort: 2 },
  { id: 3, slug: "cs2", name: "Counter-Strike 2", sort: 3 },
];

/** Days → price in minor units. */
const GLOBAL_PRICES: Record<number, number> = { 1: 199, 7: 799, 30: 1999, 90: 4999 };
/** dota2's own prices in the CIS area, to exercise the fallback rule (docs/product/data.md#shopping-areas). */
const CIS_PRICES: Record<number, number> = { 1: 149, 7: 599, 30: 1499, 90: 3799 };
const CIS_COUNTRIES = ["RU", "BY", "KZ", "UA", "AM", "AZ", "GE", "KG", "MD", "TJ", "UZ"];

export async function seedCatalog(db: Db, currency: string): Promise<void> {
  await db.insert(cheats).values(GAMES).onConflictDoNothing();
  await db
    .insert(shoppingAreas)
    .values([
      { id: "global", name: "Global" },
      { id: "cis", name: "CIS" },
    ])
    .onConflictDoNothing();
  await db
    .insert(shoppingAreaCountries)
    .values(CIS_COUNTRIES.map((country) => ({ country, areaId: "cis" })))
    .onConflictDoNothing();
  const rows = [];
  let id = 1;
  for (const game of GAMES) {
    for (const [days, price] of Object.entries(GLOBAL_PRICES)) {
      rows.push({ id: id++, cheatId: game.id, shoppingArea: "global", days: Number(days), price, currency, title: `${game.name} · ${days}d` });
    }
  }
  for (const [days, price] of Object.entries(CIS_PRICES)) {
    rows.push({ id: id++, cheatId: 1, shoppingArea: "cis", days: Number(days), price, currency, title: `Dota 2 · ${days}d` });
  }
  await db.insert(products).values(rows).onConflictDoNothing();
  // Explicit ids leave the sequence behind; move it past them so later inserts don't collide.
  await db.execute(sql`select setval(pg_get_serial_sequence('products', 'id'), greatest((select max(id) from products), 1))`);
}

/**
 * Outside development (docs/product/operations.md#production-safety) the demo user must not sign in: if a development run of this
 * database seeded it and its password is still the published one, the password is replaced by a
 * value no password matches and its sessions end. A demo address someone really uses is left alone.
 */
export async function retireDemoUser(db: Db, verifyPassword: (hash: string, password: string) => Promise<boolean>, now = new Date()): Promise<boolean> {
  const [demo] = await db.select({ id: users.id, passwordHash: users.passwordHash }).from(users).where(eq(users.email, DEMO_USER.email));
  if (!demo || !(await verifyPassword(demo.passwordHash, DEMO_USER.password))) return false;
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash: RETIRED_PASSWORD_HASH, updatedAt: now }).where(eq(users.id, demo.id));
    await tx.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.userId, demo.id), isNull(sessions.revokedAt)));
  });
  return true;
}

/** Not an Argon2 hash: verifying any password against it fails. */
const RETIRED_PASSWORD_HASH = "!retired-demo-user";

/** `hashPassword` comes from the accounts module (db knows nothing of the core). */
export async function seedDemoUser(
  db: Db,
  currency: string,
  hashPassword: (password: string) => Promise<string>,
  now = new Date(),
): Promise<void> {
  const existing = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_USER.email));
  if (existing.length > 0) return;
  const passwordHash = await hashPassword(DEMO_USER.password);
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(users)
      .values({ email: DEMO_USER.email, username: "demo", passwordHash, balance: DEMO_USER.balance, locale: "ru", referralCode: "DEMO2026" })
      .onConflictDoNothing()
      .returning({ id: users.id });
    const user = inserted[0];
    if (!user) return;
    await tx.insert(transactions).values({
      userId: user.id,
      type: "topup",
      amount: DEMO_USER.balance,
      paid: DEMO_USER.balance,
      balanceAfter: DEMO_USER.balance,
      currency,
      source: "system",
    });
    await tx.insert(subscriptions).values({
      userId: user.id,
      cheatId: 1,
      expiresAt: new Date(now.getTime() + 30 * 86_400_000),
    });
  });
}
