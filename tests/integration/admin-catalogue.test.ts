// The catalogue in the back office (docs/product/back-office.md#catalogue, issue 10 point 5): every
// call answers guests 401, buyers 403, and `support` 403 on writes (reads are everyone's); a write
// without a reason is refused; every write is one audit entry with before and after; reserved and
// taken slugs are refused; a new game with a product is on sale at once (no restart); a price change
// shows in the next answer; areas move countries; route rules redirect; the site pages change per
// language; the demo catalogue never comes back over an operator's changes.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { manualClock } from "../../core/shared/clock.ts";
import { RESERVED_SLUGS } from "../../core/catalog/manage.schema.ts";
import { products, shoppingAreaCountries } from "../../db/schema/index.ts";
import { DEMO, seedCatalog } from "../../db/seed.ts";
import { GAMES, PRODUCTS, registerUser, useShop, type Reply } from "../kit/shop.ts";
import { auditCount, auditEntries, useStaff } from "./admin-kit.ts";

const clock = manualClock(new Date("2026-06-01T00:00:00.000Z"));
const shop = useShop({ clock });

const { owner, support, buyer } = useStaff(shop, clock);

const texts = (name: string) => ({
  en: { name, tagline: `${name}, safely.`, description: `All about ${name}.`, features: [{ title: "Radar", text: "Sees all." }], faq: [{ question: "Safe?", answer: "Yes." }], status_note: "" },
});

let serial = 0;
const fresh = (tag: string) => `${tag}-${process.pid % 1000}-${++serial}`;

type Method = "GET" | "POST" | "PATCH" | "DELETE";
type Call = { method: Method; path: () => string; body?: () => Record<string, unknown>; write: boolean };

/** Every catalogue call, with a body an owner may send. */
const CALLS: Record<string, Call> = {
  games: { method: "GET", path: () => "/v2/admin/games", write: false },
  game: { method: "GET", path: () => `/v2/admin/games/${GAMES.dota2.id}`, write: false },
  createGame: { method: "POST", path: () => "/v2/admin/games", body: () => ({ slug: fresh("g"), name: "Game", texts: texts("Game"), reason: "new game" }), write: true },
  updateGame: { method: "PATCH", path: () => `/v2/admin/games/${GAMES.cs2.id}`, body: () => ({ order: 3, reason: "order" }), write: true },
  products: { method: "GET", path: () => "/v2/admin/products", write: false },
  createProduct: {
    method: "POST",
    path: () => "/v2/admin/products",
    body: () => ({ cheat_id: GAMES.cs2.id, area: "global", days: 100 + serial++, price: 9999, reason: "new plan" }),
    write: true,
  },
  updateProduct: { method: "PATCH", path: () => `/v2/admin/products/${PRODUCTS.cs2.days90.id}`, body: () => ({ title: "Counter-Strike 2 · 90d", reason: "title" }), write: true },
  areas: { method: "GET", path: () => "/v2/admin/areas", write: false },
  createArea: { method: "POST", path: () => "/v2/admin/areas", body: () => ({ id: fresh("area").replace(/-/g, "_"), name: "Area", reason: "new area" }), write: true },
  updateArea: { method: "PATCH", path: () => "/v2/admin/areas/cis", body: () => ({ name: "CIS", reason: "name" }), write: true },
  rules: { method: "GET", path: () => "/v2/admin/route-rules", write: false },
  createRule: { method: "POST", path: () => "/v2/admin/route-rules", body: () => ({ from: `/${fresh("old")}`, to: "/cs2", status: 301, reason: "moved" }), write: true },
  deleteRule: { method: "DELETE", path: () => "/v2/admin/route-rules/999999", body: () => ({ reason: "gone" }), write: true },
  pages: { method: "GET", path: () => "/v2/admin/pages", write: false },
  writePage: { method: "PATCH", path: () => "/v2/admin/pages/terms/en", body: () => ({ title: "Terms", summary: "The terms.", body: "We sell passes.", reason: "lawyer" }), write: true },
};

const call = (name: string, token?: string, extra: Record<string, unknown> = {}): Promise<Reply> => {
  const c = CALLS[name]!;
  return shop.call(c.method, c.path(), { token, json: c.body ? { ...c.body(), ...extra } : undefined });
};

describe("who may call the catalogue", () => {
  it("answers a guest 401 and a buyer 403 on every call, and writes nothing", async () => {
    const before = await auditCount(shop);
    for (const name of Object.keys(CALLS)) {
      const guest = await call(name);
      expect(guest.status, name).toBe(401);
      expect(guest.body, name).toMatchObject({ status: false, code: "unauthenticated" });
      expect(guest.headers.get("cache-control"), name).toBe("no-store");
      const bought = await call(name, buyer.token);
      expect(bought.status, name).toBe(403);
      expect(bought.body.code, name).toBe("forbidden");
    }
    expect(await auditCount(shop)).toBe(before);
  });

  it("lets support read everything and change nothing (403, in the operator's language)", async () => {
    const before = await auditCount(shop);
    for (const [name, c] of Object.entries(CALLS)) {
      const reply = await call(name, support.token);
      if (c.write) {
        expect(reply.status, name).toBe(403);
        expect(reply.body.code, name).toBe("forbidden");
        expect(reply.body.message, name).toBe(shop.services.catalogs.t("en")("errors.admin_owner_only"));
      } else {
        expect(reply.status, `${name}: ${reply.text}`).toBe(200);
      }
    }
    const ru = await shop.call("PATCH", `/v2/admin/games/${GAMES.cs2.id}`, { token: support.token, lang: "ru", json: { order: 1, reason: "x" } });
    expect(ru.body.message).toBe(shop.services.catalogs.t("ru")("errors.admin_owner_only"));
    expect(await auditCount(shop)).toBe(before);
  });

  it("refuses every write without a reason (400, the field named), and changes nothing", async () => {
    const before = await auditCount(shop);
    for (const [name, c] of Object.entries(CALLS)) {
      if (!c.write) continue;
      const reply = await call(name, owner.token, { reason: "  " });
      expect(reply.status, `${name}: ${reply.text}`).toBe(400);
      expect(reply.body.errors?.reason, name).toBe(shop.services.catalogs.t("en")("validation.reason_required"));
    }
    expect(await auditCount(shop)).toBe(before);
  });

  it("writes one audit entry per write of an owner, with the reason, actor and address; no step-up code is asked (no money moves)", async () => {
    for (const [name, c] of Object.entries(CALLS)) {
      if (!c.write || name === "deleteRule") continue;
      const before = await auditCount(shop);
      const reply = await call(name, owner.token);
      expect(reply.status, `${name}: ${reply.text}`).toBe(200);
      expect(await auditCount(shop), name).toBe(before + 1);
      const [entry] = await auditEntries(shop);
      expect(entry!.actorId, name).toBe(owner.id);
      expect(entry!.reason, name).toBe((c.body!() as { reason: string }).reason);
      expect(entry!.ip, name).not.toBeNull();
    }
    const missing = await call("deleteRule", owner.token);
    expect(missing.status).toBe(404);
  });
});

describe("games", () => {
  it("refuses every reserved slug, a malformed one and a taken one, and says why in the operator's language", async () => {
    for (const slug of RESERVED_SLUGS) {
      const reply = await shop.call("POST", "/v2/admin/games", { token: owner.token, lang: "ru", json: { slug, name: "X", texts: texts("X"), reason: "try" } });
      expect(reply.status, slug).toBe(400);
      expect(reply.body.errors.slug, slug).toMatch(/./);
    }
    const admin = await shop.call("POST", "/v2/admin/games", { token: owner.token, lang: "ru", json: { slug: "Admin", name: "X", texts: texts("X"), reason: "try" } });
    expect(admin.body.errors.slug).toBe(shop.services.catalogs.t("ru")("validation.slug_reserved"));
    const bad = await shop.call("POST", "/v2/admin/games", { token: owner.token, json: { slug: "a b", name: "X", texts: texts("X"), reason: "try" } });
    expect(bad.body.errors.slug).toBe(shop.services.catalogs.t("en")("validation.slug"));
    const taken = await shop.call("POST", "/v2/admin/games", { token: owner.token, json: { slug: "dota2", name: "X", texts: texts("X"), reason: "try" } });
    expect(taken.status).toBe(409);
    expect(taken.body.errors.slug).toBe(shop.services.catalogs.t("en")("validation.slug_taken"));
    const rename = await shop.call("PATCH", `/v2/admin/games/${GAMES.cs2.id}`, { token: owner.token, json: { slug: "support", reason: "try" } });
    expect(rename.status).toBe(400);
    const noTexts = await shop.call("POST", "/v2/admin/games", { token: owner.token, json: { slug: fresh("g"), name: "X", texts: {}, reason: "try" } });
    expect(noTexts.body.errors.texts).toBe(shop.services.catalogs.t("en")("validation.texts_required"));
    const media = await shop.call("POST", "/v2/admin/games", {
      token: owner.token,
      json: { slug: fresh("g"), name: "X", texts: { en: { ...texts("X").en, media: [{ src: "javascript:alert(1)", alt: "", caption: "" }] } }, reason: "try" },
    });
    expect(media.body.errors["texts.en.media.0.src"]).toBe(shop.services.catalogs.t("en")("validation.media_src"));
  });

  it("adds a game with every content field and a product, on sale at once; hides and orders it; status with its note", async () => {
    const slug = fresh("valorant");
    const full = {
      name: "Valorant",
      tagline: "Aim, calmly.",
      description: "Everything for Valorant.",
      features: [{ title: "Aim", text: "Helps aiming." }],
      requirements: [{ label: "OS", value: "Windows 11" }],
      modes: [{ name: "Ranked", text: "Works in ranked." }],
      changelog: [{ version: "1.0", date: "2026-05-30", notes: ["First release"] }],
      faq: [{ question: "Ban?", answer: "No." }],
      media: [{ src: "/media/valorant/1.svg", alt: "Screen", caption: "The menu" }],
      status_note: "All good.",
    };
    const created = await shop.call("POST", "/v2/admin/games", {
      token: owner.token,
      json: { slug, name: "Valorant", status: "working", order: 10, texts: { en: full, ru: { ...full, name: "Валорант" } }, reason: "new game" },
    });
    expect(created.status, created.text).toBe(200);
    const game = created.body.game;
    expect(game).toMatchObject({ slug, name: "Valorant", status: "working", visible: true, order: 10 });
    expect(game.id).toBeGreaterThan(GAMES.cs2.id);
    expect(game.texts.en).toMatchObject(full);
    expect(game.texts.ru.name).toBe("Валорант");
    const [entry] = await auditEntries(shop, "cheat.create");
    expect(entry).toMatchObject({ targetType: "cheat", targetId: String(game.id), before: null });
    expect((entry!.after as { slug: string }).slug).toBe(slug);

    const product = await shop.call("POST", "/v2/admin/products", { token: owner.token, json: { cheat_id: game.id, area: "global", days: 30, price: 2500, reason: "launch price" } });
    expect(product.status, product.text).toBe(200);
    expect(product.body.product).toMatchObject({ cheat_id: game.id, shopping_area: "global", days: 30, price: 2500, currency: "USD", active: true, title: "Valorant · 30d" });
    // On sale without a restart: the storefront's data lists the game and its plan, and a buyer buys it.
    const data = await shop.call("GET", "/v2/web/frontend/data");
    expect(data.body.cheats.map((c: { slug: string }) => c.slug)).toContain(slug);
    expect(data.body.products).toContainEqual(expect.objectContaining({ id: product.body.product.id, price: 2500 }));
    const payer = await registerUser(shop, { balance: 5000 });
    const bought = await shop.call("POST", "/v2/web/user/purchase", { token: payer.token, json: { product_id: product.body.product.id } });
    expect(bought.status, bought.text).toBe(200);

    // The same plan twice on sale is refused; taken off sale, then another is fine.
    const twin = await shop.call("POST", "/v2/admin/products", { token: owner.token, json: { cheat_id: game.id, area: "global", days: 30, price: 2000, reason: "again" } });
    expect(twin.status).toBe(409);
    expect(twin.body.errors.days).toBe(shop.services.catalogs.t("en")("validation.product_taken"));

    const hidden = await shop.call("PATCH", `/v2/admin/games/${game.id}`, {
      token: owner.token,
      json: { visible: false, status: "maintenance", texts: { en: { ...full, status_note: "Patch day." } }, reason: "patch" },
    });
    expect(hidden.status, hidden.text).toBe(200);
    expect(hidden.body.game).toMatchObject({ visible: false, status: "maintenance" });
    expect(hidden.body.game.texts.en.status_note).toBe("Patch day.");
    expect(hidden.body.game.texts.ru.name).toBe("Валорант");
    expect(new Date(hidden.body.game.last_updated_at).getTime()).toBe(clock.now().getTime());
    expect(shop.services.catalog.cheatBySlug(slug)?.visible).toBe(false);
    const [update] = await auditEntries(shop, "cheat.update");
    expect(update!.before).toMatchObject({ visible: true, status: "working", texts: { en: { statusNote: "All good." } } });
    expect(update!.after).toMatchObject({ visible: false, status: "maintenance", texts: { en: { statusNote: "Patch day." } } });

    const unknown = await shop.call("PATCH", "/v2/admin/games/987654", { token: owner.token, json: { order: 1, reason: "x" } });
    expect(unknown.status).toBe(404);
  });
});

describe("products", () => {
  it("changes a price, shown in the next answer; a sale keeps what it was sold for; taking off sale removes the plan", async () => {
    const id = PRODUCTS.minecraft.days7.id;
    const changed = await shop.call("PATCH", `/v2/admin/products/${id}`, { token: owner.token, json: { price: 777, reason: "summer sale" } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.product.price).toBe(777);
    const data = await shop.call("GET", "/v2/web/frontend/data");
    expect(data.body.products.find((p: { id: number }) => p.id === id).price).toBe(777);
    const [entry] = await auditEntries(shop, "price.update");
    expect(entry).toMatchObject({ targetType: "product", targetId: String(id), before: { price: PRODUCTS.minecraft.days7.price }, after: { price: 777 }, reason: "summer sale" });

    const off = await shop.call("PATCH", `/v2/admin/products/${id}`, { token: owner.token, json: { active: false, reason: "retired" } });
    expect(off.body.product.active).toBe(false);
    const after = await shop.call("GET", "/v2/web/frontend/data");
    expect(after.body.products.some((p: { id: number }) => p.id === id)).toBe(false);
    const listed = await shop.call("GET", `/v2/admin/products?cheat_id=${GAMES.minecraft.id}`, { token: support.token });
    expect(listed.body.products.find((p: { id: number }) => p.id === id)).toMatchObject({ active: false, price: 777 });
    expect(listed.body.products.every((p: { cheat_id: number }) => p.cheat_id === GAMES.minecraft.id)).toBe(true);

    const bad = await shop.call("PATCH", `/v2/admin/products/${id}`, { token: owner.token, json: { price: 0, reason: "x" } });
    expect(bad.body.errors.price).toBe(shop.services.catalogs.t("en")("validation.price"));
    const noArea = await shop.call("POST", "/v2/admin/products", { token: owner.token, json: { cheat_id: GAMES.dota2.id, area: "mars", days: 3, price: 100, reason: "x" } });
    expect(noArea.body.errors.area).toBe(shop.services.catalogs.t("en")("validation.area_unknown"));
    const noGame = await shop.call("POST", "/v2/admin/products", { token: owner.token, json: { cheat_id: 4242, area: "global", days: 3, price: 100, reason: "x" } });
    expect(noGame.body.errors.cheat_id).toBe(shop.services.catalogs.t("en")("validation.game_unknown"));
  });
});

describe("shopping areas", () => {
  it("adds an area with countries (moved from another area), prices by it, and refuses countries for global", async () => {
    const made = await shop.call("POST", "/v2/admin/areas", { token: owner.token, json: { id: "baltics", name: "Baltics", countries: ["lt", "LV", "EE", "KZ"], reason: "new region" } });
    expect(made.status, made.text).toBe(200);
    expect(made.body.area).toEqual({ id: "baltics", name: "Baltics", countries: ["EE", "KZ", "LT", "LV"] });
    expect(shop.services.catalog.areaForCountry("KZ")).toBe("baltics");
    const [entry] = await auditEntries(shop, "area.create");
    expect(entry!.after).toMatchObject({ moved_from: { KZ: "cis" } });
    const price = await shop.call("POST", "/v2/admin/products", { token: owner.token, json: { cheat_id: GAMES.cs2.id, area: "baltics", days: 7, price: 555, reason: "regional" } });
    expect(price.status, price.text).toBe(200);
    expect(shop.services.catalog.productsFor(GAMES.cs2.id, "baltics").map((p) => p.price)).toEqual([555]);

    const renamed = await shop.call("PATCH", "/v2/admin/areas/baltics", { token: owner.token, json: { countries: ["LT"], reason: "smaller" } });
    expect(renamed.body.area.countries).toEqual(["LT"]);
    expect(shop.services.catalog.areaForCountry("EE")).toBe("global");
    const global = await shop.call("PATCH", "/v2/admin/areas/global", { token: owner.token, json: { countries: ["US"], reason: "x" } });
    expect(global.status).toBe(400);
    expect(global.body.errors.countries).toBe(shop.services.catalogs.t("en")("validation.area_global_countries"));
    const twice = await shop.call("POST", "/v2/admin/areas", { token: owner.token, json: { id: "baltics", name: "B", reason: "x" } });
    expect(twice.status).toBe(409);
    const badCountry = await shop.call("POST", "/v2/admin/areas", { token: owner.token, json: { id: "eu", name: "EU", countries: ["DEU"], reason: "x" } });
    expect(badCountry.body.errors["countries.0"]).toBe(shop.services.catalogs.t("en")("validation.country"));
    const missing = await shop.call("PATCH", "/v2/admin/areas/nowhere", { token: owner.token, json: { name: "N", reason: "x" } });
    expect(missing.status).toBe(404);
  });
});

describe("route rules", () => {
  it("adds and removes rules, audited; refuses chains and bad paths; the page request follows the table", async () => {
    const added = await shop.call("POST", "/v2/admin/route-rules", { token: owner.token, json: { from: "/old-dota/*", to: "/dota2", status: 301, reason: "old links" } });
    expect(added.status, added.text).toBe(200);
    const rule = added.body.rules.find((r: { from: string }) => r.from === "/old-dota/*");
    expect(rule).toMatchObject({ to: "/dota2", status: 301 });
    expect((await shop.services.routeRules.lookup("/old-dota/x"))?.location).toBe("/dota2");
    const [entry] = await auditEntries(shop, "route_rule.create");
    expect(entry).toMatchObject({ targetType: "route_rule", targetId: String(rule.id), reason: "old links" });

    const chain = await shop.call("POST", "/v2/admin/route-rules", { token: owner.token, json: { from: "/older", to: "/old-dota/y", reason: "x" } });
    expect(chain.status).toBe(400);
    expect(chain.body.errors.to).toBe(shop.services.catalogs.t("en")("validation.route_rule_chain"));
    const badStatus = await shop.call("POST", "/v2/admin/route-rules", { token: owner.token, json: { from: "/a", to: "/b", status: 307, reason: "x" } });
    expect(badStatus.body.errors.status).toBe(shop.services.catalogs.t("en")("validation.redirect_status"));

    const removed = await shop.call("DELETE", `/v2/admin/route-rules/${rule.id}`, { token: owner.token, json: { reason: "no longer" } });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.rules.some((r: { id: number }) => r.id === rule.id)).toBe(false);
    expect(await shop.services.routeRules.lookup("/old-dota/x")).toBeUndefined();
    const [gone] = await auditEntries(shop, "route_rule.delete");
    expect(gone).toMatchObject({ targetId: String(rule.id), before: { from: "/old-dota/*" }, after: null });
  });
});

describe("legal and support texts", () => {
  it("writes a page in one language; the site shows it; the other languages keep theirs", async () => {
    const before = shop.services.content.page("privacy", "ru")!;
    const written = await shop.call("PATCH", "/v2/admin/pages/privacy/es", {
      token: owner.token,
      json: { title: "Privacidad", summary: "Lo que guardamos.", body: "## Datos\nSolo lo necesario.", reason: "abogado" },
    });
    expect(written.status, written.text).toBe(200);
    expect(written.body.page).toMatchObject({ slug: "privacy", locale: "es", title: "Privacidad" });
    expect(shop.services.content.page("privacy", "es")!.body).toBe("## Datos\nSolo lo necesario.");
    expect(shop.services.content.page("privacy", "ru")!.body).toBe(before.body);
    const [entry] = await auditEntries(shop, "site_page.update");
    expect(entry).toMatchObject({ targetType: "site_page", targetId: "privacy:es" });
    const unknown = await shop.call("PATCH", "/v2/admin/pages/cookies/en", { token: owner.token, json: { title: "T", summary: "", body: "B", reason: "x" } });
    expect(unknown.status).toBe(400);
  });
});

describe("the demo catalogue", () => {
  it("never comes back over an operator's changes when the shop starts again", async () => {
    const { db } = shop.services;
    await shop.call("PATCH", `/v2/admin/products/${PRODUCTS.dota2.days1.id}`, { token: owner.token, json: { active: false, price: 150, reason: "retired" } });
    await shop.call("PATCH", "/v2/admin/areas/cis", { token: owner.token, json: { countries: ["RU"], reason: "smaller" } });
    await seedCatalog(db, shop.services.settings.SHOP_CURRENCY);
    const [product] = await db.select().from(products).where(eq(products.id, PRODUCTS.dota2.days1.id));
    expect(product).toMatchObject({ active: false, price: 150 });
    const cis = await db
      .select()
      .from(shoppingAreaCountries)
      .where(and(eq(shoppingAreaCountries.areaId, DEMO.areas.cis)));
    expect(cis.map((c) => c.country)).toEqual(["RU"]);
  });
});
