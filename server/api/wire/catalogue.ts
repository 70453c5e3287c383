// The catalogue calls' wire format (docs/product/back-office.md#catalogue): the core's managed
// games, products, areas, route rules and site pages → the spec's snake_case JSON.
import type { GameContent } from "../../../core/catalog/index.ts";
import type { ManagedArea, ManagedGame, ManagedProduct, ManagedSitePage } from "../../../core/catalog/manage.ts";
import type { RouteRule } from "../../../core/route-rules/index.ts";
import type { GameTextSchema } from "../../../core/catalog/manage.schema.ts";
import type { z } from "zod";
import { productDto } from "./commerce.ts";

function gameTextDto(text: GameContent) {
  const { locale: _, statusNote, updatedAt, ...rest } = text;
  return { ...rest, status_note: statusNote, updated_at: updatedAt.toISOString() };
}

/** A game's texts as written on the wire → the core's (camelCase) form. */
export function gameTextInput(text: z.infer<typeof GameTextSchema>) {
  const { status_note, ...rest } = text;
  return { ...rest, statusNote: status_note };
}

export function adminGameDto(game: ManagedGame) {
  return {
    id: game.id,
    cheat_id: game.id,
    slug: game.slug,
    name: game.name,
    status: game.status,
    visible: game.visible,
    order: game.order,
    last_updated_at: game.lastUpdatedAt.toISOString(),
    texts: Object.fromEntries(Object.entries(game.texts).map(([locale, text]) => [locale, gameTextDto(text)])),
  };
}

/** A product as the storefront writes it, with what only operators see: on sale or not, and since when. */
export function adminProductDto(product: ManagedProduct) {
  return { ...productDto({ ...product, type: "subscription" }), days: product.days, active: product.active, created_at: product.createdAt.toISOString() };
}

export function areaDto(area: ManagedArea) {
  return { id: area.id, name: area.name, countries: area.countries };
}

export function routeRuleDto(rule: RouteRule) {
  return { id: rule.id, from: rule.from, to: rule.to, status: rule.status, created_at: rule.createdAt.toISOString() };
}

export function sitePageDto(page: ManagedSitePage) {
  return { slug: page.slug, locale: page.locale, title: page.title, summary: page.summary, body: page.body, updated_at: page.updatedAt.toISOString() };
}
