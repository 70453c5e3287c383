// The demo catalogue's names (db/seed.ts DEMO) say what is seeded: every named product is the
// catalogue's product of that game, area, length and price, and nothing is seeded unnamed.
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { openTestDatabase } from "../../tests/kit/database.ts";
import { products } from "../../db/schema/index.ts";
import { DEMO, seedCatalog } from "../../db/seed.ts";
import { createCatalog, type Catalog } from "./index.ts";

let database: Database;
let catalog: Catalog;

beforeAll(async () => {
  database = await openTestDatabase();
  await seedCatalog(database.db, "USD");
  await seedCatalog(database.db, "USD"); // safe to run at every start
  catalog = createCatalog({ db: database.db });
  await catalog.reload();
});
afterAll(async () => {
  await database.close();
});

describe("the demo catalogue by name", () => {
  it("names each game by its id and slug", () => {
    expect(catalog.cheats().map(({ id, slug, name }) => ({ id, slug, name }))).toEqual(Object.values(DEMO.games).map(({ id, slug, name }) => ({ id, slug, name })));
  });

  it("names every seeded product, each as the catalogue has it", async () => {
    const named = Object.values(DEMO.products).flatMap((byDays) => Object.values(byDays));
    const seeded = await database.db.select({ id: products.id }).from(products).orderBy(asc(products.id));
    expect(named.map((p) => p.id).sort((a, b) => a - b)).toEqual(seeded.map((row) => row.id));
    for (const p of named) {
      expect(catalog.productById(p.id), `product ${p.id}`).toEqual({
        id: p.id,
        cheatId: p.cheatId,
        shoppingArea: p.area,
        type: "subscription",
        days: p.days,
        price: p.price,
        currency: "USD",
        title: p.title,
      });
    }
  });

  it("the CIS area's dota2 prices replace the global ones there (the fallback rule), other games stay global", () => {
    const cis = catalog.areaForCountry(DEMO.cisCountries[0]);
    expect(cis).toBe(DEMO.areas.cis);
    expect(catalog.productsFor(DEMO.games.dota2.id, cis).map((p) => p.id)).toEqual(Object.values(DEMO.products.dota2Cis).map((p) => p.id));
    expect(catalog.productsFor(DEMO.games.cs2.id, cis).map((p) => p.id)).toEqual(Object.values(DEMO.products.cs2).map((p) => p.id));
  });
});
