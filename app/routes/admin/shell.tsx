// A stand-in layout of the back office for the dashboard and the catalogue pages, until the admin
// layout (app/routes/admin/layout.tsx, with the whole nav) lands: at that merge these routes move
// under it and this file goes.
import { Link, Outlet } from "react-router";
import { localePath } from "../../../i18n/locales.ts";
import { useLocale, useT } from "../../lib/i18n.tsx";
import { stylesheets } from "../../lib/meta.ts";
import stylesheet from "../../styles/admin-catalogue.css?url";

export const links = stylesheets(stylesheet);

export default function AdminShell() {
  const t = useT();
  const locale = useLocale();
  return (
    <main className="admin-shell">
      <nav aria-label={t("adminCatalogue.nav.label")}>
        <ul>
          <li>
            <Link to={localePath(locale, "/admin")}>{t("adminCatalogue.nav.dashboard")}</Link>
          </li>
          <li>
            <Link to={localePath(locale, "/admin/catalogue")}>{t("adminCatalogue.nav.catalogue")}</Link>
          </li>
        </ul>
      </nav>
      <Outlet />
    </main>
  );
}
