// `GET /v2/admin/stats` on the wire (docs/product/back-office.md#dashboard).
import type { Dashboard } from "../../../core/dashboard/index.ts";

export function dashboardDto(stats: Dashboard) {
  return {
    from: stats.from,
    to: stats.to,
    time_zone: stats.timeZone,
    days: stats.days.map((d) => ({ date: d.date, revenue: d.revenue, payments: d.payments, new_users: d.newUsers, active_subscriptions: d.activeSubscriptions, frozen: d.frozen })),
    by_game: stats.byGame.map((g) => ({ date: g.date, cheat_id: g.cheatId, held: g.held, frozen: g.frozen })),
    totals: { revenue: stats.totals.revenue, payments: stats.totals.payments, new_users: stats.totals.newUsers },
  };
}
