// Demo catalogue (docs/product/data.md#demo-data) and, outside production, the demo user. Safe to run at every start:
// the catalogue is loaded only into an empty one, rows are keyed by fixed ids and nothing already there is changed.
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db, Tx } from "./client.ts";
import { cheats, gameTexts, products, sessions, shoppingAreaCountries, shoppingAreas, sitePages, subscriptions, transactions, users, type SitePageSlug } from "./schema/index.ts";
import { DEFAULT_SITE_PAGES, DEMO_GAME_TEXTS, DEMO_MEDIA, DEMO_STATUS } from "./content/index.ts";
import type { Locale } from "../i18n/locales.ts";

export const DEMO_USER = { email: "demo@example.com", password: "demo12345", balance: 5000 } as const;

const GAMES = {
  dota2: { id: 1, slug: "dota2", name: "Dota 2", sort: 1 },
  minecraft: { id: 2, slug: "minecraft", name: "Minecraft", sort: 2 },
  cs2: { id: 3, slug: "cs2", name: "Counter-Strike 2", sort: 3 },
} as const;

type Game = (typeof GAMES)[keyof typeof GAMES];

/** A product of the demo catalogue: its fixed id, game, area, days and price in minor units. */
const product = <Id extends number, Days extends number, Price extends number>(id: Id, game: Game, area: "global" | "cis", days: Days, price: Price) =>
  ({ id, cheatId: game.id, area, days, price, title: `${game.name} · ${days}d` }) as const;

/**
 * The demo catalogue by name (docs/product/data.md#demo-data), so that tests and tools say
 * `DEMO.products.dota2.days30` rather than "product 3". Its rows are seeded with these fixed ids.
 */
export const DEMO = {
  games: GAMES,
  areas: { global: "global", cis: "cis" },
  /** The countries of the CIS area; any of them picks its prices (with a trusted country header). */
  cisCountries: ["RU", "BY", "KZ", "UA", "AM", "AZ", "GE", "KG", "MD", "TJ", "UZ"],
  products: {
    dota2: {
      days1: product(1, GAMES.dota2, "global", 1, 199),
      days7: product(2, GAMES.dota2, "global", 7, 799),
      days30: product(3, GAMES.dota2, "global", 30, 1999),
      days90: product(4, GAMES.dota2, "global", 90, 4999),
    },
    minecraft: {
      days1: product(5, GAMES.minecraft, "global", 1, 199),
      days7: product(6, GAMES.minecraft, "global", 7, 799),
      days30: product(7, GAMES.minecraft, "global", 30, 1999),
      days90: product(8, GAMES.minecraft, "global", 90, 4999),
    },
    cs2: {
      days1: product(9, GAMES.cs2, "global", 1, 199),
      days7: product(10, GAMES.cs2, "global", 7, 799),
      days30: product(11, GAMES.cs2, "global", 30, 1999),
      days90: product(12, GAMES.cs2, "global", 90, 4999),
    },
    /** dota2's own prices in the CIS area, to exercise the fallback rule (docs/product/data.md#shopping-areas). */
    dota2Cis: {
      days1: product(13, GAMES.dota2, "cis", 1, 149),
      days7: product(14, GAMES.dota2, "cis", 7, 599),
      days30: product(15, GAMES.dota2, "cis", 30, 1499),
      days90: product(16, GAMES.dota2, "cis", 90, 3799),
    },
  },
  user: DEMO_USER,
} as const;

const DAY_MS = 86_400_000;
const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

/**
 * The demo catalogue goes only into an empty catalogue (docs/product/back-office.md#catalogue): once
 * any game exists, the games, areas, countries and products are the operators', and nothing of the
 * demo comes back over their changes (a country moved, a product taken off sale). Under the
 * catalogue's lock, so two processes starting at once load it once.
 */
export async function seedCatalog(db: Db, currency: string, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('nova.catalogue'))`);
    const [anyGame] = await tx.select({ id: cheats.id }).from(cheats).limit(1);
    if (!anyGame) await seedDemoCatalog(tx, currency, now);
  });
  await seedContent(db, now);
}

async function seedDemoCatalog(db: Tx, currency: string, now: Date): Promise<void> {
  await db
    .insert(cheats)
    .values(Object.values(DEMO.games).map((game) => ({ ...game, status: DEMO_STATUS[game.slug].status, lastUpdatedAt: daysBefore(now, DEMO_STATUS[game.slug].daysAgo) })))
    .onConflictDoNothing();
  await db
    .insert(shoppingAreas)
    .values([
      { id: DEMO.areas.global, name: "Global" },
      { id: DEMO.areas.cis, name: "CIS" },
    ])
    .onConflictDoNothing();
  await db
    .insert(shoppingAreaCountries)
    .values(DEMO.cisCountries.map((country) => ({ country, areaId: DEMO.areas.cis })))
    .onConflictDoNothing();
  const rows = Object.values(DEMO.products)
    .flatMap((byDays) => Object.values(byDays))
    .map((p) => ({ id: p.id, cheatId: p.cheatId, shoppingArea: p.area, days: p.days, price: p.price, currency, title: p.title }));
  await db.insert(products).values(rows).onConflictDoNothing();
  // Explicit ids leave the sequence behind; move it past them so later inserts don't collide.
  await db.execute(sql`select setval(pg_get_serial_sequence('products', 'id'), greatest((select max(id) from products), 1))`);
}

/**
 * The demo games' pages (docs/product/data.md#game-content) — only for a demo game that has no
 * texts at all, so an operator's texts are never written over — and the default site pages in
 * every language where none is stored (docs/product/routes.md#legal-and-support-pages).
 */
async function seedContent(db: Db, now: Date): Promise<void> {
  const described = new Set((await db.selectDistinct({ cheatId: gameTexts.cheatId }).from(gameTexts)).map((r) => r.cheatId));
  const present = new Set((await db.select({ id: cheats.id }).from(cheats)).map((r) => r.id));
  const texts = Object.values(DEMO.games)
    .filter((game) => present.has(game.id) && !described.has(game.id))
    .flatMap((game) =>
      Object.entries(DEMO_GAME_TEXTS).map(([locale, games]) => {
        const text = games[game.slug];
        return {
          cheatId: game.id,
          locale: locale as Locale,
          name: game.name,
          tagline: text.tagline,
          description: text.description,
          features: text.features,
          requirements: text.requirements,
          modes: text.modes,
          changelog: text.changelog.map(({ version, daysAgo, notes }) => ({ version, date: daysBefore(now, daysAgo).toISOString().slice(0, 10), notes })),
          faq: text.faq,
          media: DEMO_MEDIA[game.slug].map((src, i) => ({ src, alt: text.media[i]?.alt ?? "", caption: text.media[i]?.caption ?? "" })),
          statusNote: text.statusNote ?? "",
          updatedAt: now,
        };
      }),
    );
  if (texts.length > 0) await db.insert(gameTexts).values(texts).onConflictDoNothing();
  const pages = Object.entries(DEFAULT_SITE_PAGES).flatMap(([locale, byslug]) =>
    Object.entries(byslug).map(([slug, page]) => ({ slug: slug as SitePageSlug, locale: locale as Locale, ...page, updatedAt: now })),
  );
  await db.insert(sitePages).values(pages).onConflictDoNothing();
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
    await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, demo.id), isNull(sessions.revokedAt)));
  });
  return true;
}

/** Not an Argon2 hash: verifying any password against it fails. */
const RETIRED_PASSWORD_HASH = "!retired-demo-user";

/** `hashPassword` comes from the accounts module (db knows nothing of the core). */
export async function seedDemoUser(db: Db, currency: string, hashPassword: (password: string) => Promise<string>, now = new Date()): Promise<void> {
  const existing = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_USER.email));
  if (existing.length > 0) return;
  const passwordHash = await hashPassword(DEMO_USER.password);
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(users)
      .values({ email: DEMO_USER.email, username: "demo", passwordHash, balance: DEMO_USER.balance, locale: "ru", referralCode: "DEMO2026", emailVerified: true })
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
      cheatId: DEMO.games.dota2.id,
      expiresAt: new Date(now.getTime() + 30 * 86_400_000),
    });
  });
}
