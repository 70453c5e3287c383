// The dashboard page's loader (app/routes/admin/dashboard.tsx), on the server only.
import { data, type AppLoadContext } from "react-router";
import { StatsQuerySchema } from "../../core/catalog/manage.schema.ts";
import { requireOperatorPage } from "./admin.server.ts";

export async function dashboardData({ context, request, url }: { context: AppLoadContext; request: Request; url: URL }) {
  requireOperatorPage(context, request, url);
  const { services, t } = context;
  const params = Object.fromEntries(url.searchParams);
  const parsed = StatsQuerySchema.safeParse(params);
  let stats;
  try {
    stats = await services.dashboard.stats(parsed.success ? parsed.data : {});
  } catch {
    // A reversed or too long period: the last 30 days, and the picker says so.
    stats = await services.dashboard.stats({});
  }
  const games = services.catalog.cheats().map((g) => ({ id: g.id, name: g.name }));
  return data(
    { stats, games, currency: services.settings.SHOP_CURRENCY, meta: { title: t("adminDashboard.title"), description: t("adminDashboard.title") } },
    { headers: { "Cache-Control": "no-store" } },
  );
}
