// Landing layout: header, the page, footer; notifications available to the page.
import { Outlet } from "react-router";
import { NotificationsProvider } from "../../components/notifications.tsx";
import { SiteFooter, SiteHeader } from "../../components/site-chrome.tsx";

export default function LandingLayout() {
  return (
    <NotificationsProvider>
      <div className="layout layout-landing">
        <SiteHeader />
        <Outlet />
        <SiteFooter />
      </div>
    </NotificationsProvider>
  );
}
