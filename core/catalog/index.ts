// The catalogue: games (cheats), shopping areas and products (docs/product/data.md#catalogue). It is small and read on
// every public page, so it is held in memory and reloaded when it changes; `version` lets caches
// of rendered pages notice the change.
import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { cheats, products, shoppingAreaCountries, shoppingAreas } from "../../db/schema/index.ts";

export const GLOBAL_AREA = "global";

export type Cheat = { id: number; slug: string; name: string };

/** A product as the API shows it (docs/product/data.md#catalogue). */
export type Product = {
  id: number;
  cheat_id: number;
  shopping_area: string;
  type: "subscription";
  params: { days: number };
  price: number;
  currency: string;
  title: string;
};

type Snapshot = {
  cheats: Cheat[];
  cheatBySlug: Map<string, Cheat>;
  areaByCountry: Map<string, string>;
  products: Product[];
};

export type Catalog = ReturnType<typeof createCatalog>;

export function createCatalog({ db }: { db: Db }) {
  let snapshot: Snapshot | undefined;
  let version = 0;
  const listeners = new Set<() => void>();

  async function load(): Promise<Snapshot> {
    const [cheatRows, countryRows, productRows] = await Promise.all([
      db.select().from(cheats).orderBy(asc(cheats.sort), asc(cheats.id)),
      db
        .select({ country: shoppingAreaCountries.country, areaId: shoppingAreaCountries.areaId })
        .from(shoppingAreaCountries)
        .innerJoin(shoppingAreas, eq(shoppingAreas.id, shoppingAreaCountries.areaId)),
      db.select().from(products).where(eq(products.active, true)).orderBy(asc(products.days), asc(products.id)),
    ]);
    const cheatList = cheatRows.map(({ id, slug, name }) => ({ id, slug, name }));
    return {
      cheats: cheatList,
      cheatBySlug: new Map(cheatList.map((c) => [c.slug, c])),
      areaByCountry: new Map(countryRows.map((r) => [r.country, r.areaId])),
      products: productRows.map((p) => ({
        id: p.id,
        cheat_id: p.cheatId,
        shopping_area: p.shoppingArea,
        type: "subscription" as const,
        params: { days: p.days },
        price: p.price,
        currency: p.currency,
        title: p.title,
      })),
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
      version++;
      for (const listener of listeners) listener();
    },
    /** Increases whenever the catalogue changed. */
    get version() {
      return version;
    },
    onChange(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    cheats: () => current().cheats,
    cheatBySlug: (slug: string) => current().cheatBySlug.get(slug),
    cheatById: (id: number) => current().cheats.find((c) => c.id === id),
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
      const ownCheats = new Set(all.filter((p) => p.shopping_area === area).map((p) => p.cheat_id));
      return all.filter((p) =>
        p.shopping_area === area ? true : p.shopping_area === GLOBAL_AREA && !ownCheats.has(p.cheat_id),
      );
    },
    productsFor(cheatId: number, area: string): Product[] {
      return this.productsForArea(area).filter((p) => p.cheat_id === cheatId);
    },
    productById: (id: number) => current().products.find((p) => p.id === id),
    /** A subscription product of the cheat in the area by its number of days. */
    productByDays(cheatId: number, area: string, days: number): Product | undefined {
      return this.productsFor(cheatId, area).find((p) => p.params.days === days);
    },
  };
}
