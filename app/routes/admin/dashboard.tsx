// /admin: the dashboard (docs/product/back-office.md#dashboard) — totals and charts of a period
// (revenue, payments, new buyers, passes held by game, frozen passes), days in the shop's time zone.
// The period picker is a plain GET form (from, to) with shortcuts for the last 7, 30 and 90 days.
import { formatMoney } from "../../../i18n/format.ts";
import { BarChart, LineChart } from "../../components/admin-charts.tsx";
import { Card } from "../../components/ui/primitives.tsx";
import { dashboardData } from "../../lib/admin-dashboard.server.ts";
import { useLangTag, useLocale, useT } from "../../lib/i18n.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/dashboard.ts";

export const loader = (args: Route.LoaderArgs) => dashboardData(args);

export const meta = ({ data }: Route.MetaArgs) => [...pageMeta(data), { name: "robots", content: "noindex" }];

export default function Dashboard({ loaderData: { stats, games, currency } }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const langTag = useLangTag();
  const number = (n: number) => new Intl.NumberFormat(langTag).format(n);
  const money = (n: number) => formatMoney(n, currency, locale);
  const labels = stats.days.map((d) => d.date);
  const series = games
    .filter((g) => stats.byGame.some((b) => b.cheatId === g.id))
    .map((g) => ({ name: g.name, points: labels.map((label) => ({ label, value: stats.byGame.find((b) => b.cheatId === g.id && b.date === label)?.held ?? 0 })) }));
  const shortcut = (days: number) => {
    const to = stats.to;
    const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
    return `?from=${from}&to=${to}`;
  };
  return (
    <section aria-labelledby="dashboard-title" className="admin-grid-page">
      <h1 id="dashboard-title">{t("adminDashboard.title")}</h1>
      <form method="get" className="admin-form" aria-label={t("adminDashboard.period")}>
        <label>
          {t("adminDashboard.from")}
          <input type="date" name="from" defaultValue={stats.from} required />
        </label>
        <label>
          {t("adminDashboard.to")}
          <input type="date" name="to" defaultValue={stats.to} required />
        </label>
        <button type="submit" className="btn btn-primary">
          {t("adminDashboard.show")}
        </button>
        {[7, 30, 90].map((days) => (
          <a key={days} href={shortcut(days)}>
            {t("adminDashboard.lastDays", { days })}
          </a>
        ))}
      </form>
      <p className="muted small">{t("adminDashboard.timeZone", { zone: stats.timeZone })}</p>
      <div className="admin-totals">
        <Card>
          <p className="muted small">{t("adminDashboard.revenue")}</p>
          <p className="stat">{money(stats.totals.revenue)}</p>
        </Card>
        <Card>
          <p className="muted small">{t("adminDashboard.payments")}</p>
          <p className="stat">{number(stats.totals.payments)}</p>
        </Card>
        <Card>
          <p className="muted small">{t("adminDashboard.newUsers")}</p>
          <p className="stat">{number(stats.totals.newUsers)}</p>
        </Card>
        <Card>
          <p className="muted small">{t("adminDashboard.held")}</p>
          <p className="stat">{number(stats.days.at(-1)?.activeSubscriptions ?? 0)}</p>
        </Card>
      </div>
      <div className="admin-grid">
        <Card>
          <BarChart title={t("adminDashboard.revenuePerDay")} points={stats.days.map((d) => ({ label: d.date, value: d.revenue }))} format={money} />
        </Card>
        <Card>
          <BarChart title={t("adminDashboard.paymentsPerDay")} points={stats.days.map((d) => ({ label: d.date, value: d.payments }))} format={number} />
        </Card>
        <Card>
          <BarChart title={t("adminDashboard.newUsersPerDay")} points={stats.days.map((d) => ({ label: d.date, value: d.newUsers }))} format={number} />
        </Card>
        <Card>
          <LineChart title={t("adminDashboard.heldByGame")} labels={labels} series={series} format={number} />
        </Card>
        <Card>
          <BarChart title={t("adminDashboard.frozenPerDay")} points={stats.days.map((d) => ({ label: d.date, value: d.frozen }))} format={number} />
        </Card>
      </div>
    </section>
  );
}
