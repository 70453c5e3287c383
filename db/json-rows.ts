// A table's rows as one JSON value inside a bigger statement, so that a parent row and its
// children come in one round trip (docs/decisions/0056-signed-in-data-in-one-statement.md). The
// JSON is mapped back to the table's rows by Drizzle's own column mappings: the rows are the same
// objects a `select()` of the table returns (Date for timestamps, numbers for bigint, parsed jsonb).
import { getTableColumns, sql, type Column, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

/**
 * `rows` (a `select * from table …` fragment, with its own where, order and limit) aggregated into
 * one JSON array, in the order of `orderBy` (a column of the table, `direction`); each row then
 * goes through `map` (the module's own row → domain mapping, the one its queries use).
 */
export function jsonRows<T extends PgTable, R>(table: T, rows: SQL, orderBy: Column, direction: "asc" | "desc", map: (row: T["$inferSelect"]) => R): SQL<R[]> {
  const columns = Object.entries(getTableColumns(table));
  const fromJson = (value: unknown): R[] => {
    // node-postgres and PGlite both parse json; a driver that did not gives the text.
    const list = (typeof value === "string" ? JSON.parse(value) : value) as Record<string, unknown>[];
    return list.map((json) => {
      const row: Record<string, unknown> = {};
      for (const [key, column] of columns) {
        const field = json[column.name];
        row[key] = field === null || field === undefined ? null : column.mapFromDriverValue(field);
      }
      return map(row as T["$inferSelect"]);
    });
  };
  const order = sql`${sql.identifier("r")}.${sql.identifier(orderBy.name)} ${sql.raw(direction)}`;
  return sql`(select coalesce(json_agg(r order by ${order}), '[]') from (${rows}) r)`.mapWith(fromJson);
}
