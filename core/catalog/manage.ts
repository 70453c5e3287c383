// Catalogue management in the back office (docs/product/back-office.md#catalogue): games with their
// texts per language, status and note, visibility and order; products priced per shopping area;
// shopping areas and their countries; route rules; the site pages per language. Every write is
// the owner's (permission `catalog`), takes a reason, runs in one transaction with its audit entry
// (before and after) under one catalogue-wide lock (so checks and writes of two operators never
// interleave), and then announces the change (`changed`): the server's change bus reloads the
// catalogue and drops the page caches of every app process (docs/product/operations.md#change-bus).
import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { cheats, gameTexts, products, shoppingAreaCountries, shoppingAreas, sitePages, type GameStatus, type SitePageSlug } from "../../db/schema/index.ts";
import type { Locale } from "../../i18n/locales.ts";
import type { Actor } from "../admin/customers.ts";
import type { Audit, NewAuditEntry } from "../audit/index.ts";
import type { Operators } from "../operators/index.ts";
import type { RouteRule, RouteRuleInput, RouteRules } from "../route-rules/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import type { MessageKey } from "../../i18n/translate.ts";
import { GLOBAL_AREA, type GameContent } from "./index.ts";

/** What changed, for the change bus: the catalogue (games, products, areas), the site pages, the route rules. */
export type ChangeKind = "catalog" | "content" | "route_rules";

/** A game's texts in one language as an operator writes them. */
export type GameTextInput = Omit<GameContent, "locale" | "updatedAt">;

export type ManagedGame = {
  id: number;
  slug: string;
  name: string;
  status: GameStatus;
  visible: boolean;
  order: number;
  lastUpdatedAt: Date;
  texts: Partial<Record<Locale, GameContent>>;
};

export type GameInput = { slug: string; name: string; status: GameStatus; visible: boolean; order: number; texts: Partial<Record<Locale, GameTextInput>> };

export type ManagedProduct = typeof products.$inferSelect;
export type ManagedArea = { id: string; name: string; countries: string[] };
export type ManagedSitePage = typeof sitePages.$inferSelect;

export type CatalogAdmin = ReturnType<typeof createCatalogAdmin>;

const refuse = (field: string, key: MessageKey) => new DomainError("validation_failed", "errors.validation_failed", { fields: { [field]: key } });
const conflict = (field: string, key: MessageKey) => new DomainError("conflict", "errors.conflict", { fields: { [field]: key } });

export function createCatalogAdmin(deps: { db: Db; clock: Clock; audit: Audit; operators: Operators; routeRules: RouteRules; currency: string; changed: (kind: ChangeKind) => Promise<void> }) {
  const { db, clock, audit, operators, routeRules, currency, changed } = deps;

  /**
   * One catalogue write: the owner's, in a transaction holding the catalogue lock, with its audit
   * entry; the change is announced after the commit.
   */
  async function write<T>(
    actor: Actor,
    kind: ChangeKind,
    run: (tx: Tx, record: (entry: Omit<NewAuditEntry, "actorId" | "ip" | "reason">) => Promise<void>) => Promise<T>,
    reason: string,
  ): Promise<T> {
    operators.require(actor.operator, "catalog");
    const result = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('nova.catalogue'))`);
      return run(tx, async (entry) => {
        await audit.record(tx, { ...entry, actorId: actor.operator.id, ip: actor.ip, reason });
      });
    });
    await changed(kind);
    return result;
  }

  async function gameOf(tx: Db | Tx, id: number): Promise<ManagedGame | undefined> {
    const [row] = await tx.select().from(cheats).where(eq(cheats.id, id));
    if (!row) return undefined;
    const texts = await tx.select().from(gameTexts).where(eq(gameTexts.cheatId, id));
    return toGame(row, texts);
  }

  function toGame(row: typeof cheats.$inferSelect, texts: (typeof gameTexts.$inferSelect)[]): ManagedGame {
    return {
      id: row.id,
      slug: row.slug,
      name: row.name,
      status: row.status,
      visible: row.visible,
      order: row.sort,
      lastUpdatedAt: row.lastUpdatedAt,
      texts: Object.fromEntries(texts.map(({ cheatId: _, ...text }) => [text.locale, text])),
    };
  }

  async function writeTexts(tx: Tx, cheatId: number, texts: Partial<Record<Locale, GameTextInput>>) {
    const now = clock.now();
    for (const [locale, text] of Object.entries(texts) as [Locale, GameTextInput][]) {
      const values = { ...text, cheatId, locale, updatedAt: now };
      await tx
        .insert(gameTexts)
        .values(values)
        .onConflictDoUpdate({ target: [gameTexts.cheatId, gameTexts.locale], set: { ...text, updatedAt: now } });
    }
  }

  async function slugFree(tx: Tx, slug: string, except?: number) {
    const [taken] = await tx
      .select({ id: cheats.id })
      .from(cheats)
      .where(except === undefined ? eq(cheats.slug, slug) : and(eq(cheats.slug, slug), ne(cheats.id, except)));
    if (taken) throw conflict("slug", "validation.slug_taken");
  }

  async function productOf(tx: Db | Tx, id: number): Promise<ManagedProduct | undefined> {
    const [row] = await tx.select().from(products).where(eq(products.id, id));
    return row;
  }

  /** A product on sale for the same game, area and days (only one may be: the unique index of `products`). */
  async function onSaleTwin(tx: Tx, p: { cheatId: number; shoppingArea: string; days: number }, except?: number) {
    const [twin] = await tx
      .select({ id: products.id })
      .from(products)
      .where(
        and(
          eq(products.cheatId, p.cheatId),
          eq(products.shoppingArea, p.shoppingArea),
          eq(products.days, p.days),
          eq(products.active, true),
          except === undefined ? undefined : ne(products.id, except),
        ),
      );
    if (twin) throw conflict("days", "validation.product_taken");
  }

  async function areaOf(tx: Db | Tx, id: string): Promise<ManagedArea | undefined> {
    const [row] = await tx.select().from(shoppingAreas).where(eq(shoppingAreas.id, id));
    if (!row) return undefined;
    const countries = await tx
      .select({ country: shoppingAreaCountries.country })
      .from(shoppingAreaCountries)
      .where(eq(shoppingAreaCountries.areaId, id))
      .orderBy(asc(shoppingAreaCountries.country));
    return { id: row.id, name: row.name, countries: countries.map((c) => c.country) };
  }

  /** Gives the area exactly these countries (a country of another area moves here); what moved from where. */
  async function setCountries(tx: Tx, areaId: string, countries: string[]): Promise<Record<string, string>> {
    if (areaId === GLOBAL_AREA && countries.length > 0) throw refuse("countries", "validation.area_global_countries");
    const moved: Record<string, string> = {};
    if (countries.length > 0) {
      for (const row of await tx
        .select()
        .from(shoppingAreaCountries)
        .where(and(inArray(shoppingAreaCountries.country, countries), ne(shoppingAreaCountries.areaId, areaId)))) {
        moved[row.country] = row.areaId;
      }
      await tx.delete(shoppingAreaCountries).where(
        and(
          eq(shoppingAreaCountries.areaId, areaId),
          sql`${shoppingAreaCountries.country} not in (${sql.join(
            countries.map((c) => sql`${c}`),
            sql`, `,
          )})`,
        ),
      );
      await tx
        .insert(shoppingAreaCountries)
        .values(countries.map((country) => ({ country, areaId })))
        .onConflictDoUpdate({ target: shoppingAreaCountries.country, set: { areaId } });
    } else {
      await tx.delete(shoppingAreaCountries).where(eq(shoppingAreaCountries.areaId, areaId));
    }
    return moved;
  }

  return {
    // ---- games ----

    /** Every game, hidden ones included, in their order, with their texts in every language written. */
    async games(): Promise<ManagedGame[]> {
      const [rows, texts] = await Promise.all([db.select().from(cheats).orderBy(asc(cheats.sort), asc(cheats.id)), db.select().from(gameTexts)]);
      return rows.map((row) =>
        toGame(
          row,
          texts.filter((t) => t.cheatId === row.id),
        ),
      );
    },

    async game(id: number): Promise<ManagedGame> {
      const game = await gameOf(db, id);
      if (!game) throw new DomainError("not_found", "errors.game_not_found");
      return game;
    },

    /** Adds a game (and its one cheat, the next id) with texts in at least one language. */
    async createGame(actor: Actor, input: GameInput, reason: string): Promise<ManagedGame> {
      return write(
        actor,
        "catalog",
        async (tx, record) => {
          await slugFree(tx, input.slug);
          const [next] = await tx.select({ id: sql<number>`coalesce(max(${cheats.id}), 0) + 1` }).from(cheats);
          const id = Number(next!.id);
          await tx.insert(cheats).values({ id, slug: input.slug, name: input.name, status: input.status, visible: input.visible, sort: input.order, lastUpdatedAt: clock.now() });
          await writeTexts(tx, id, input.texts);
          const game = (await gameOf(tx, id))!;
          await record({ action: "cheat.create", targetType: "cheat", targetId: id, before: null, after: game });
          return game;
        },
        reason,
      );
    },

    /** Changes what is given; a status change moves the game's "updated on" to now. */
    async updateGame(actor: Actor, id: number, input: Partial<GameInput>, reason: string): Promise<ManagedGame> {
      return write(
        actor,
        "catalog",
        async (tx, record) => {
          const before = await gameOf(tx, id);
          if (!before) throw new DomainError("not_found", "errors.game_not_found");
          if (input.slug !== undefined && input.slug !== before.slug) await slugFree(tx, input.slug, id);
          const set: Partial<typeof cheats.$inferInsert> = {};
          if (input.slug !== undefined) set.slug = input.slug;
          if (input.name !== undefined) set.name = input.name;
          if (input.visible !== undefined) set.visible = input.visible;
          if (input.order !== undefined) set.sort = input.order;
          if (input.status !== undefined && input.status !== before.status) {
            set.status = input.status;
            set.lastUpdatedAt = clock.now();
          }
          if (Object.keys(set).length > 0) await tx.update(cheats).set(set).where(eq(cheats.id, id));
          if (input.texts) await writeTexts(tx, id, input.texts);
          const after = (await gameOf(tx, id))!;
          // Only the languages that were written are kept in the entry: the rest did not change.
          const locales = Object.keys(input.texts ?? {}) as Locale[];
          const pick = (game: ManagedGame) => ({ ...game, texts: Object.fromEntries(locales.map((l) => [l, game.texts[l] ?? null])) });
          await record({ action: "cheat.update", targetType: "cheat", targetId: id, before: pick(before), after: pick(after) });
          return after;
        },
        reason,
      );
    },

    // ---- products ----

    /** Every product, inactive ones included (optionally of one game), by game, area and days. */
    async products(cheatId?: number): Promise<ManagedProduct[]> {
      const query = db.select().from(products);
      return (cheatId === undefined ? query : query.where(eq(products.cheatId, cheatId))).orderBy(asc(products.cheatId), asc(products.shoppingArea), asc(products.days), asc(products.id));
    },

    async createProduct(actor: Actor, input: { cheatId: number; area: string; days: number; price: number; title?: string; active: boolean }, reason: string): Promise<ManagedProduct> {
      return write(
        actor,
        "catalog",
        async (tx, record) => {
          const game = await gameOf(tx, input.cheatId);
          if (!game) throw refuse("cheat_id", "validation.game_unknown");
          if (!(await areaOf(tx, input.area))) throw refuse("area", "validation.area_unknown");
          if (input.active) await onSaleTwin(tx, { cheatId: input.cheatId, shoppingArea: input.area, days: input.days });
          const [row] = await tx
            .insert(products)
            .values({
              cheatId: input.cheatId,
              shoppingArea: input.area,
              days: input.days,
              price: input.price,
              currency,
              title: input.title || `${game.name} · ${input.days}d`,
              active: input.active,
              createdAt: clock.now(),
            })
            .returning();
          await record({ action: "price.create", targetType: "product", targetId: row!.id, before: null, after: row });
          return row!;
        },
        reason,
      );
    },

    /** A new price, title, or on sale or not. A sold product keeps what it was sold as (docs/product/data.md#ledger). */
    async updateProduct(actor: Actor, id: number, input: { price?: number; title?: string; active?: boolean }, reason: string): Promise<ManagedProduct> {
      return write(
        actor,
        "catalog",
        async (tx, record) => {
          const before = await productOf(tx, id);
          if (!before) throw new DomainError("not_found", "errors.product_not_found");
          if (input.active === true && !before.active) await onSaleTwin(tx, before, id);
          const set: Partial<typeof products.$inferInsert> = {};
          if (input.price !== undefined) set.price = input.price;
          if (input.title !== undefined) set.title = input.title;
          if (input.active !== undefined) set.active = input.active;
          const [after] = Object.keys(set).length > 0 ? await tx.update(products).set(set).where(eq(products.id, id)).returning() : [before];
          await record({ action: "price.update", targetType: "product", targetId: id, before, after });
          return after!;
        },
        reason,
      );
    },

    // ---- shopping areas ----

    async areas(): Promise<ManagedArea[]> {
      const [rows, countries] = await Promise.all([
        db.select().from(shoppingAreas).orderBy(asc(shoppingAreas.id)),
        db.select().from(shoppingAreaCountries).orderBy(asc(shoppingAreaCountries.country)),
      ]);
      return rows.map((row) => ({ id: row.id, name: row.name, countries: countries.filter((c) => c.areaId === row.id).map((c) => c.country) }));
    },

    async createArea(actor: Actor, input: ManagedArea, reason: string): Promise<ManagedArea> {
      return write(
        actor,
        "catalog",
        async (tx, record) => {
          if (await areaOf(tx, input.id)) throw conflict("id", "validation.area_taken");
          await tx.insert(shoppingAreas).values({ id: input.id, name: input.name });
          const moved = await setCountries(tx, input.id, input.countries);
          const after = (await areaOf(tx, input.id))!;
          await record({ action: "area.create", targetType: "area", targetId: input.id, before: null, after: { ...after, moved_from: moved } });
          return after;
        },
        reason,
      );
    },

    async updateArea(actor: Actor, id: string, input: { name?: string; countries?: string[] }, reason: string): Promise<ManagedArea> {
      return write(
        actor,
        "catalog",
        async (tx, record) => {
          const before = await areaOf(tx, id);
          if (!before) throw new DomainError("not_found", "errors.area_not_found");
          if (input.name !== undefined) await tx.update(shoppingAreas).set({ name: input.name }).where(eq(shoppingAreas.id, id));
          const moved = input.countries === undefined ? {} : await setCountries(tx, id, input.countries);
          const after = (await areaOf(tx, id))!;
          await record({ action: "area.update", targetType: "area", targetId: id, before, after: { ...after, moved_from: moved } });
          return after;
        },
        reason,
      );
    },

    // ---- route rules ----

    rules: (): Promise<RouteRule[]> => routeRules.list(),

    async addRule(actor: Actor, input: RouteRuleInput, reason: string): Promise<RouteRule> {
      operators.require(actor.operator, "catalog");
      const rule = await routeRules.add(input, async (tx, added) => {
        await audit.record(tx, { actorId: actor.operator.id, ip: actor.ip, reason, action: "route_rule.create", targetType: "route_rule", targetId: added.id, before: null, after: added });
      });
      await changed("route_rules");
      return rule;
    },

    async removeRule(actor: Actor, id: number, reason: string): Promise<void> {
      operators.require(actor.operator, "catalog");
      const removed = await routeRules.remove(id, async (tx, rule) => {
        await audit.record(tx, { actorId: actor.operator.id, ip: actor.ip, reason, action: "route_rule.delete", targetType: "route_rule", targetId: id, before: rule, after: null });
      });
      if (!removed) throw new DomainError("not_found", "errors.route_rule_not_found");
      await changed("route_rules");
    },

    // ---- site pages ----

    /** Every stored page in every language (docs/product/routes.md#legal-and-support-pages). */
    async sitePages(): Promise<ManagedSitePage[]> {
      return db.select().from(sitePages).orderBy(asc(sitePages.slug), asc(sitePages.locale));
    },

    /** Writes a site page in one language (made when that language had none). */
    async writeSitePage(actor: Actor, slug: SitePageSlug, locale: Locale, input: { title: string; summary: string; body: string }, reason: string): Promise<ManagedSitePage> {
      return write(
        actor,
        "content",
        async (tx, record) => {
          const [before] = await tx
            .select()
            .from(sitePages)
            .where(and(eq(sitePages.slug, slug), eq(sitePages.locale, locale)));
          const now = clock.now();
          const [after] = await tx
            .insert(sitePages)
            .values({ slug, locale, ...input, updatedAt: now })
            .onConflictDoUpdate({ target: [sitePages.slug, sitePages.locale], set: { ...input, updatedAt: now } })
            .returning();
          await record({ action: "site_page.update", targetType: "site_page", targetId: `${slug}:${locale}`, before: before ?? null, after });
          return after!;
        },
        reason,
      );
    },
  };
}
