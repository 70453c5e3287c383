// Route rules (docs/product/routes.md#route-rules): redirects every page request consults first.
import { sql } from "drizzle-orm";
import { check, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

export const routeRules = pgTable(
  "route_rules",
  {
    id: serial("id").primaryKey(),
    /** The full requested path, locale prefix included: exact ("/old"), or a prefix ending in "*" ("/old/*"). */
    from: text("from").notNull().unique(),
    /** A path of this site ("/new") or an absolute http(s) URL, which leaves the site. */
    to: text("to").notNull(),
    /** 301 (moved for good) or 302. */
    status: integer("status").notNull().default(302),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("route_rules_status", sql`${t.status} in (301, 302)`), check("route_rules_from", sql`${t.from} like '/%'`)],
);
