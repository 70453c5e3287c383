// The empty layout: the page alone (single sign-on, link confirmations).
import { Outlet } from "react-router";
import { stylesheets } from "../../lib/meta.ts";
import accountStylesheet from "../../styles/account.css?url";

export const links = stylesheets(accountStylesheet);

export default function EmptyLayout() {
  return (
    <main id="main" className="layout layout-empty">
      <Outlet />
    </main>
  );
}
