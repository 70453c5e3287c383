// Games (cheats), shopping areas with their countries, and products priced per area.
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  char,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

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
    /** working | updating | detected | maintenance: the last two stop every pass entitling (docs/product/delivery.md#entitlement). */
    status: text("status").$type<GameStatus>().notNull().default("working"),
  },
  (t) => [check("cheats_status", sql`${t.status} in ('working', 'updating', 'detected', 'maintenance')`)],
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
    uniqueIndex("products_area_cheat_days").on(t.shoppingArea, t.cheatId, t.days).where(sql`${t.active}`),
    index("products_cheat").on(t.cheatId),
  ],
);
