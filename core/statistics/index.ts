// Statistics of a user (docs/product/api.md#commerce-calls): per cheat, and of all their transactions by month.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { subscriptions, transactions } from "../../db/schema/index.ts";

/** What a user bought of one game (docs/product/api.md#commerce-calls). */
export type CheatStatistics = {
  cheatId: number;
  /** Days bought (from the balance or by provider), not gifts. */
  totalDays: number;
  totalSpent: number;
  purchases: number;
  freezes: number;
  /** When the subscription to the game began; null without one. */
  activeSince: Date | null;
  expiresAt: Date | null;
};

/** All of a user's transactions, by month (UTC, "YYYY-MM", newest first). */
export type TransactionStatistics = {
  count: number;
  totalSpent: number;
  totalToppedUp: number;
  byMonth: { month: string; spent: number; toppedUp: number }[];
};

export function createStatistics({ db }: { db: Db }) {
  return {
    async forCheat(userId: number, cheatId: number): Promise<CheatStatistics> {
      // Purchases (from balance or by provider) of this cheat's products.
      const [totals] = await db
        .select({
          purchases: sql<string>`count(*)`,
          days: sql<string>`coalesce(sum((${transactions.products}->0->'params'->>'days')::int), 0)`,
          spent: sql<string>`coalesce(sum(${transactions.paid}), 0)`,
        })
        .from(transactions)
        .where(and(eq(transactions.userId, userId), eq(transactions.type, "purchase"), sql`(${transactions.products}->0->>'cheat_id')::int = ${cheatId}`));
      const [sub] = await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, userId), eq(subscriptions.cheatId, cheatId)));
      return {
        cheatId,
        totalDays: Number(totals?.days ?? 0),
        totalSpent: Number(totals?.spent ?? 0),
        purchases: Number(totals?.purchases ?? 0),
        freezes: sub?.freezeCount ?? 0,
        activeSince: sub?.createdAt ?? null,
        expiresAt: sub?.expiresAt ?? null,
      };
    },

    async transactions(userId: number): Promise<TransactionStatistics> {
      const spentTypes = sql`${transactions.type} in ('purchase', 'gift')`;
      const rows = await db
        .select({
          month: sql<string>`to_char(${transactions.createdAt} at time zone 'UTC', 'YYYY-MM')`,
          count: sql<string>`count(*)`,
          spent: sql<string>`coalesce(sum(case when ${spentTypes} then ${transactions.paid} else 0 end), 0)`,
          toppedUp: sql<string>`coalesce(sum(case when ${transactions.type} = 'topup' then ${transactions.paid} else 0 end), 0)`,
        })
        .from(transactions)
        .where(eq(transactions.userId, userId))
        .groupBy(sql`1`)
        .orderBy(sql`1 desc`);
      const byMonth = rows.map((r) => ({ month: r.month, spent: Number(r.spent), toppedUp: Number(r.toppedUp) }));
      return {
        count: rows.reduce((n, r) => n + Number(r.count), 0),
        totalSpent: byMonth.reduce((n, r) => n + r.spent, 0),
        totalToppedUp: byMonth.reduce((n, r) => n + r.toppedUp, 0),
        byMonth,
      };
    },
  };
}
