// The site layout (docs/product/routes.md#layouts): header, the page, footer. The landing pages
// and every page without a layout of its own (a game, the 404) sit in it.
import { Outlet } from "react-router";
import { Shell, SiteFooter, SiteHeader } from "../../components/site-chrome.tsx";

export default function SiteLayout() {
  return (
    <Shell kind="site">
      <SiteHeader />
      <Outlet />
      <SiteFooter />
    </Shell>
  );
}
