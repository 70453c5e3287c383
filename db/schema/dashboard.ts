// The dashboard's history (docs/product/back-office.md#dashboard): passes held per game per day,
// written by the daily snapshot job, since the subscriptions table holds only the present.
import { date, integer, pgTable, primaryKey, timestamp } from "drizzle-orm/pg-core";

export const passSnapshots = pgTable(
  "pass_snapshots",
  {
    /** The day in the shop's time zone (SHOP_TIME_ZONE). */
    day: date("day", { mode: "string" }).notNull(),
    cheatId: integer("cheat_id").notNull(),
    /** Passes held (active or frozen) when the snapshot was taken. */
    held: integer("held").notNull(),
    /** Of those, frozen ones. */
    frozen: integer("frozen").notNull(),
    takenAt: timestamp("taken_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.day, t.cheatId] })],
);
