// The empty layout: the page alone (single sign-on, link confirmations).
import { Outlet } from "react-router";
import accountStylesheet from "../../styles/account.css?url";

export const links = () => [{ rel: "stylesheet", href: accountStylesheet }];

export default function EmptyLayout() {
  return (
    <main className="layout layout-empty">
      <Outlet />
    </main>
  );
}
