// The back office's "Delivery" section under its layout (app/routes/admin/layout.tsx): owners only
// (app/lib/operator.server.ts), a heading and the tabs of its two pages, builds and webhook endpoints.
import { NavLink, Outlet } from "react-router";
import { localePath } from "../../../i18n/locales.ts";
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

export function loader({ context, url }: Route.LoaderArgs) {
  requireOperatorPage(context, url, "delivery");
  return null;
}

export default function DeliveryLayout() {
  const t = useT();
  const locale = useLocale();
  return (
    <div className="admin-delivery">
      <h1 className="h2">{t("delivery.admin.title")}</h1>
      <nav className="tabs" aria-label={t("delivery.admin.title")}>
        <NavLink to={localePath(locale, "/admin/delivery/builds")}>{t("delivery.admin.nav.builds")}</NavLink>
        <NavLink to={localePath(locale, "/admin/delivery/webhooks")}>{t("delivery.admin.nav.webhooks")}</NavLink>
      </nav>
      <Outlet />
    </div>
  );
}
