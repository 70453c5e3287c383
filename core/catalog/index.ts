// The catalogue: games (cheats) with their texts per language, shopping areas and products
// (docs/product/data.md#catalogue). It is small and read on every public page, so it is held in
// memory and reloaded when it changes; `version` lets caches of rendered pages notice the change.
import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { cheats, gameTexts, products, shoppingAreaCountries, shoppingAreas, type GameStatus, type ProductSnapshot } from "../../db/schema/index.ts";
import { DEFAULT_LOCALE, type Locale } from "../../i18n/locales.ts";
import { createChanges } from "../shared/changes.ts";

export const GLOBAL_AREA = "global";

export { GAME_STATUSES, type GameStatus } from "../../db/schema/index.ts";
export type { GameFeature, GameMedia, GameMode, GameQuestion, GameRelease, GameRequirement } from "../../db/schema/index.ts";

export type Cheat = {
  id: number;
  slug: string;
  name: string;
  /** docs/product/data.md#game-content */
  status: GameStatus;
  lastUpdatedAt: Date;
  /** Listed and given a page; a hidden game's subscriptions keep working. */
  visible: boolean;
};

/** What a game's page says in one language (docs/product/data.md#game-content). */
export type GameContent = Omit<typeof gameTexts.$inferSelect, "cheatId">;

/** The languages a game's texts are looked for in, after the page's own: English, then Russian. */
const CONTENT_FALLBACK: readonly Locale[] = ["en", DEFAULT_LOCALE];

/** A product of the catalogue (docs/product/data.md#catalogue): days of one game's subscription, in one area. */
export type Product = {
  id: number;
  cheatId: number;
  shoppingArea: string;
  type: "subscription";
  days: number;
  /** Minor units of `currency`. */
  price: number;
  currency: string;
  title: string;
};

/**
 * A product as it was sold (docs/product/data.md#ledger): what a ledger row or a payment order
 * keeps of it, whatever the catalogue says later. Its area is not kept.
 */
export type SoldProduct = Omit<Product, "shoppingArea" | "type"> & { type: string };

export function soldProduct(product: Product): SoldProduct {
  const { id, cheatId, type, days, price, currency, title } = product;
  return { id, cheatId, type, days, price, currency, title };
}

/** The stored form of a sold product (the `products` and `product` JSON columns). */
export function toSnapshot(product: SoldProduct): ProductSnapshot {
  return { id: product.id, cheat_id: product.cheatId, type: product.type, params: { days: product.days }, price: product.price, currency: product.currency, title: product.title };
}

export function fromSnapshot(stored: ProductSnapshot): SoldProduct {
  return { id: stored.id, cheatId: stored.cheat_id, type: stored.type, days: stored.params.days, price: stored.price, currency: stored.currency, title: stored.title };
}

type Snapshot = {
  cheats: Cheat[];
  cheatBySlug: Map<string, Cheat>;
  areaByCountry: Map<string, string>;
  products: Product[];
  /** cheat id → language → texts */
  texts: Map<number, Map<Locale, GameContent>>;
};

export type Catalog = ReturnType<typeof createCatalog>;

export function createCatalog({ db }: { db: Db }) {
  let snapshot: Snapshot | undefined;
  const changes = createChanges();

  async function load(): Promise<Snapshot> {
    const [cheatRows, countryRows, productRows, textRows] = await Promise.all([
      db.select().from(cheats).orderBy(asc(cheats.sort), asc(cheats.id)),
      db
        .select({ country: shoppingAreaCountries.country, areaId: shoppingAreaCountries.areaId })
        .from(shoppingAreaCountries)
        .innerJoin(shoppingAreas, eq(shoppingAreas.id, shoppingAreaCountries.areaId)),
      db.select().from(products).where(eq(products.active, true)).orderBy(asc(products.days), asc(products.id)),
      db.select().from(gameTexts),
    ]);
    const cheatList = cheatRows.map(({ id, slug, name, status, lastUpdatedAt, visible }) => ({ id, slug, name, status, lastUpdatedAt, visible }));
    const texts = new Map<number, Map<Locale, GameContent>>();
    for (const { cheatId, ...text } of textRows) {
      const byLocale = texts.get(cheatId) ?? new Map<Locale, GameContent>();
      byLocale.set(text.locale, text);
      texts.set(cheatId, byLocale);
    }
    return {
      cheats: cheatList,
      cheatBySlug: new Map(cheatList.map((c) => [c.slug, c])),
      areaByCountry: new Map(countryRows.map((r) => [r.country, r.areaId])),
      products: productRows.map((p) => ({
        id: p.id,
        cheatId: p.cheatId,
        shoppingArea: p.shoppingArea,
        type: "subscription" as const,
        days: p.days,
        price: p.price,
        currency: p.currency,
        title: p.title,
      })),
      texts,
    };
  }

  function current(): Snapshot {
    if (!snapshot) throw new Error("catalog not loaded: call catalog.reload() at boot");
    return snapshot;
  }

  return {
    /** Reads the catalogue from the database; call at boot and after every change of it. */
    async reload() {
      snapshot = await load();
      changes.changed();
    },
    /** Increases whenever the catalogue changed. */
    get version() {
      return changes.version;
    },
    onChange: changes.onChange,
    /** Every game, hidden ones included (a profile, a gift, a mail names them); lists for visitors filter on `visible`. */
    cheats: () => current().cheats,
    cheatBySlug: (slug: string) => current().cheatBySlug.get(slug),
    cheatById: (id: number) => current().cheats.find((c) => c.id === id),
    /**
     * What a game's page says in `locale`: its own texts, else English, else Russian, else any
     * (an operator may add a game in one language first); undefined for a game with no texts.
     */
    gameContent(cheatId: number, locale: Locale): GameContent | undefined {
      const byLocale = current().texts.get(cheatId);
      if (!byLocale) return undefined;
      for (const l of [locale, ...CONTENT_FALLBACK]) {
        const text = byLocale.get(l);
        if (text) return text;
      }
      return byLocale.values().next().value;
    },
    /** A game's name for people (a notice, a mail); its id when the game is gone. */
    gameName(cheatId: number): string {
      return this.cheatById(cheatId)?.name ?? String(cheatId);
    },
    /** The shopping area of a two-letter country code; no match is the global area. */
    areaForCountry(country: string | null | undefined): string {
      if (!country) return GLOBAL_AREA;
      return current().areaByCountry.get(country.trim().toUpperCase()) ?? GLOBAL_AREA;
    },
    /**
     * Products of the shopping area, per cheat: the area's own for a cheat where it has any, else
     * the global ones (docs/product/data.md#shopping-areas).
     */
    productsForArea(area: string): Product[] {
      const all = current().products;
      const ownCheats = new Set(all.filter((p) => p.shoppingArea === area).map((p) => p.cheatId));
      return all.filter((p) => (p.shoppingArea === area ? true : p.shoppingArea === GLOBAL_AREA && !ownCheats.has(p.cheatId)));
    },
    productsFor(cheatId: number, area: string): Product[] {
      return this.productsForArea(area).filter((p) => p.cheatId === cheatId);
    },
    /** A product the buyer's area offers (by the fallback rule); what buying, gifting and ordering accept. */
    productInArea(productId: number, area: string): Product | undefined {
      return this.productsForArea(area).find((p) => p.id === productId);
    },
    productById: (id: number) => current().products.find((p) => p.id === id),
  };
}
