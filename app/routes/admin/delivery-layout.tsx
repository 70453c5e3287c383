// INTERIM parent of the back office's delivery pages (builds, webhooks) until the back office's layout
// (app/routes/admin/layout.tsx, issue 10) is on main: at the merge, app/routes.ts puts the two delivery routes
// under that layout's "Delivery" place and this file goes. It guards like the back office (owners only:
// app/lib/operator.server.ts) and gives the two pages a heading and their tabs.
import { NavLink, Outlet } from "react-router";
import { localePath } from "../../../i18n/locales.ts";
import { Logo } from "../../components/brand.tsx";
import { LanguageSwitcher } from "../../components/site-chrome.tsx";
import { useLocale, useT } from "../../lib/i18n.tsx";
import { stylesheets } from "../../lib/meta.ts";
import { requireOperatorPage } from "../../lib/operator.server.ts";
import type { RouteHandle } from "../../root.tsx";
import accountStylesheet from "../../styles/account.css?url";
import commerceStylesheet from "../../styles/commerce.css?url";
import deliveryStylesheet from "../../styles/admin-delivery.css?url";
import type { Route } from "./+types/delivery-layout.ts";

export const links = stylesheets(accountStylesheet, commerceStylesheet, deliveryStylesheet);
export const handle: RouteHandle = { hydrate: false };

export function loader({ context, request }: Route.LoaderArgs) {
  const operator = requireOperatorPage(context, request, "delivery");
  return { email: operator.email };
}

export default function DeliveryLayout({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  return (
    <div className="layout layout-admin">
      <header className="id-header">
        <Logo />
        <span className="muted small">{loaderData.email}</span>
        <LanguageSwitcher />
      </header>
      <main className="container admin-delivery">
        <h1 className="h2">{t("delivery.admin.title")}</h1>
        <nav className="tabs" aria-label={t("delivery.admin.title")}>
          <NavLink to={localePath(locale, "/admin/delivery/builds")}>{t("delivery.admin.nav.builds")}</NavLink>
          <NavLink to={localePath(locale, "/admin/delivery/webhooks")}>{t("delivery.admin.nav.webhooks")}</NavLink>
        </nav>
        <Outlet />
      </main>
    </div>
  );
}
