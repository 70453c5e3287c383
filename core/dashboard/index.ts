// The dashboard (docs/product/back-office.md#dashboard): per day of a period, in the shop's time
// zone (SHOP_TIME_ZONE) — revenue (net of refunds), payments, new buyers, passes held (active or
// frozen) and frozen, and passes held per game. Payments and sign-ups are counted from their own
// tables; passes held are history the subscriptions table does not keep, so a job takes a daily
// snapshot (`snapshot`, at every run of the jobs: the last one of a day stands for it), and today's
// figures are counted live.
import { and, gte, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { passSnapshots } from "../../db/schema/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";

export type DashboardDay = { date: string; revenue: number; payments: number; newUsers: number; activeSubscriptions: number; frozen: number };
export type GameDay = { date: string; cheatId: number; held: number; frozen: number };
export type Dashboard = {
  from: string;
  to: string;
  timeZone: string;
  days: DashboardDay[];
  byGame: GameDay[];
  totals: { revenue: number; payments: number; newUsers: number };
};

/** The longest period one request may ask for. */
export const MAX_PERIOD_DAYS = 366;

/** Payments that took money (a refunded one counts, its refunds taken off the revenue). */
const PAID = sql.raw(`('completed', 'partially_refunded', 'refunded', 'reversed')`);

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** The day (YYYY-MM-DD) of an instant in a time zone. */
export function dayIn(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(instant);
}

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

export type DashboardService = ReturnType<typeof createDashboard>;

export function createDashboard({ db, clock, timeZone }: { db: Db; clock: Clock; timeZone: string }) {
  /** Passes held and frozen per game now. */
  async function heldNow(): Promise<{ cheatId: number; held: number; frozen: number }[]> {
    const now = clock.now().toISOString();
    const rows = rowsOf<{ cheat_id: number; held: number; frozen: number }>(
      await db.execute(sql`
        select cheat_id, count(*)::int as held, count(*) filter (where frozen_length > 0)::int as frozen
        from subscriptions where frozen_length > 0 or expires_at > ${now}::timestamptz
        group by cheat_id order by cheat_id`),
    );
    return rows.map((r) => ({ cheatId: Number(r.cheat_id), held: Number(r.held), frozen: Number(r.frozen) }));
  }

  return {
    timeZone,

    /** Today's snapshot of passes held per game (written again by every run of the day). */
    async snapshot(): Promise<number> {
      const day = dayIn(clock.now(), timeZone);
      const rows = await heldNow();
      for (const row of rows) {
        await db
          .insert(passSnapshots)
          .values({ day, cheatId: row.cheatId, held: row.held, frozen: row.frozen, takenAt: clock.now() })
          .onConflictDoUpdate({ target: [passSnapshots.day, passSnapshots.cheatId], set: { held: row.held, frozen: row.frozen, takenAt: clock.now() } });
      }
      return rows.length;
    },

    /** The period's days, `from` to `to` inclusive (YYYY-MM-DD in the shop's time zone; default the last 30 days). */
    async stats(period: { from?: string; to?: string }): Promise<Dashboard> {
      const today = dayIn(clock.now(), timeZone);
      const to = period.to ?? today;
      const from = period.from ?? addDays(to, -29);
      const length = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
      if (!(length >= 1)) throw new DomainError("validation_failed", "errors.validation_failed", { fields: { from: "validation.period" } });
      if (length > MAX_PERIOD_DAYS) throw new DomainError("validation_failed", "errors.validation_failed", { fields: { to: "validation.period_long" } });
      const start = sql`(${from}::date)::timestamp at time zone ${timeZone}`;
      const end = sql`(${addDays(to, 1)}::date)::timestamp at time zone ${timeZone}`;
      const dayOf = (column: string) =>
        sql
          .raw(`to_char(${column} at time zone `)
          .append(sql`${timeZone}`)
          .append(sql.raw(`, 'YYYY-MM-DD')`));
      const [payments, users, snapshots] = await Promise.all([
        db.execute(sql`
          select ${dayOf("created_at")} as day, count(*)::int as n, coalesce(sum(amount - refunded), 0)::bigint as revenue
          from payment_orders where status in ${PAID} and created_at >= ${start} and created_at < ${end} group by 1`),
        db.execute(sql`select ${dayOf("created_at")} as day, count(*)::int as n from users where created_at >= ${start} and created_at < ${end} group by 1`),
        db
          .select()
          .from(passSnapshots)
          .where(and(gte(passSnapshots.day, from), lte(passSnapshots.day, to))),
      ]);
      const paid = new Map(rowsOf<{ day: string; n: number; revenue: number }>(payments).map((r) => [r.day, { n: Number(r.n), revenue: Number(r.revenue) }]));
      const joined = new Map(rowsOf<{ day: string; n: number }>(users).map((r) => [r.day, Number(r.n)]));
      const byGame: GameDay[] = snapshots.filter((s) => s.day !== today).map((s) => ({ date: s.day, cheatId: s.cheatId, held: s.held, frozen: s.frozen }));
      if (today >= from && today <= to) for (const row of await heldNow()) byGame.push({ date: today, ...row });
      byGame.sort((a, b) => a.date.localeCompare(b.date) || a.cheatId - b.cheatId);
      const days: DashboardDay[] = [];
      for (let day = from; day <= to; day = addDays(day, 1)) {
        const games = byGame.filter((g) => g.date === day);
        days.push({
          date: day,
          revenue: paid.get(day)?.revenue ?? 0,
          payments: paid.get(day)?.n ?? 0,
          newUsers: joined.get(day) ?? 0,
          activeSubscriptions: games.reduce((n, g) => n + g.held, 0),
          frozen: games.reduce((n, g) => n + g.frozen, 0),
        });
      }
      return {
        from,
        to,
        timeZone,
        days,
        byGame,
        totals: { revenue: days.reduce((n, d) => n + d.revenue, 0), payments: days.reduce((n, d) => n + d.payments, 0), newUsers: days.reduce((n, d) => n + d.newUsers, 0) },
      };
    },
  };
}
