// Queries of the accounts module that other modules use too.
import { and, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { users } from "../../db/schema/index.ts";

/**
 * The user named by an e-mail address (it contains "@") or a username, case-insensitively. A
 * deleted account is nobody (docs/product/accounts.md#deleting-an-account).
 */
export async function findUserByLogin(db: Db, login: string): Promise<typeof users.$inferSelect | undefined> {
  const value = login.trim().normalize("NFC").toLowerCase();
  const column = value.includes("@") ? users.email : users.username;
  const rows = await db
    .select()
    .from(users)
    .where(and(sql`lower(${column}) = ${value}`, isNull(users.deletedAt)))
    .limit(1);
  return rows[0];
}
