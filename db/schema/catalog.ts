// Games (cheats) with their texts per language, shopping areas with their countries, and products
// priced per area.
import { sql } from "drizzle-orm";
import { bigint, boolean, check, char, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { Locale } from "../../i18n/locales.ts";

/** What a game's software is doing now (docs/product/data.md#game-content): shown as a badge on its page. */
export const GAME_STATUSES = ["working", "updating", "detected", "maintenance"] as const;
export type GameStatus = (typeof GAME_STATUSES)[number];

export const cheats = pgTable(
  "cheats",
  {
    id: integer("id").primaryKey(),
    /** The URL segment of the game, e.g. "dota2". */
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    sort: integer("sort").notNull().default(0),
    status: text("status").$type<GameStatus>().notNull().default("working"),
    /** When the game's software was last updated (or its status last checked): "updated on" of its page. */
    lastUpdatedAt: timestamp("last_updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** A hidden game is neither listed nor has a page; its subscriptions keep working. */
    visible: boolean("visible").notNull().default(true),
  },
  (t) => [check("cheats_status", sql`${t.status} in ('working', 'updating', 'detected', 'maintenance')`)],
);

/** One feature of a game: a short title and a sentence. */
export type GameFeature = { title: string; text: string };
/** One line of the system requirements: "Operating system" → "Windows 10 or 11, 64-bit". */
export type GameRequirement = { label: string; value: string };
/** A supported game mode, with a few words on what the software does there. */
export type GameMode = { name: string; text: string };
/** One release of the game's software: its version, day (YYYY-MM-DD) and what changed. */
export type GameRelease = { version: string; date: string; notes: string[] };
export type GameQuestion = { question: string; answer: string };
/** An illustration: a path of ours ("/games/dota2/lanes.svg") or an https URL, with its text alternative. */
export type GameMedia = { src: string; alt: string; caption: string };

/**
 * What a game's page says, per language (docs/product/data.md#game-content). Edited by operators
 * (the back office); the demo catalogue ships texts for its three games in every language.
 */
export const gameTexts = pgTable(
  "game_texts",
  {
    cheatId: integer("cheat_id")
      .notNull()
      .references(() => cheats.id, { onDelete: "cascade" }),
    locale: text("locale").$type<Locale>().notNull(),
    name: text("name").notNull(),
    /** One sentence under the page title. */
    tagline: text("tagline").notNull(),
    description: text("description").notNull(),
    features: jsonb("features").$type<GameFeature[]>().notNull().default([]),
    requirements: jsonb("requirements").$type<GameRequirement[]>().notNull().default([]),
    modes: jsonb("modes").$type<GameMode[]>().notNull().default([]),
    changelog: jsonb("changelog").$type<GameRelease[]>().notNull().default([]),
    faq: jsonb("faq").$type<GameQuestion[]>().notNull().default([]),
    media: jsonb("media").$type<GameMedia[]>().notNull().default([]),
    /** A word on the status ("an update for patch 7.37 is on its way"); empty for none. */
    statusNote: text("status_note").notNull().default(""),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.cheatId, t.locale] }), check("game_texts_locale", sql`${t.locale} in ('ru', 'en', 'cn', 'es', 'hi', 'pt', 'id')`)],
);

export const shoppingAreas = pgTable("shopping_areas", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
});

export const shoppingAreaCountries = pgTable(
  "shopping_area_countries",
  {
    country: char("country", { length: 2 }).primaryKey(),
    areaId: text("area_id")
      .notNull()
      .references(() => shoppingAreas.id, { onDelete: "cascade" }),
  },
  (t) => [check("country_upper", sql`${t.country} ~ '^[A-Z]{2}$'`)],
);

export const products = pgTable(
  "products",
  {
    id: serial("id").primaryKey(),
    cheatId: integer("cheat_id")
      .notNull()
      .references(() => cheats.id),
    shoppingArea: text("shopping_area")
      .notNull()
      .references(() => shoppingAreas.id),
    type: text("type").notNull().default("subscription"),
    days: integer("days").notNull(),
    /** Minor units of `currency`. */
    price: bigint("price", { mode: "number" }).notNull(),
    currency: char("currency", { length: 3 }).notNull(),
    title: text("title").notNull(),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("product_type", sql`${t.type} in ('subscription')`),
    check("product_days_positive", sql`${t.days} > 0 and ${t.days} <= 3650`),
    check("product_price_positive", sql`${t.price} > 0`),
    uniqueIndex("products_area_cheat_days")
      .on(t.shoppingArea, t.cheatId, t.days)
      .where(sql`${t.active}`),
    index("products_cheat").on(t.cheatId),
  ],
);
