// Default layout: the same chrome as the landing pages, for pages without a layout of their own.
import { Outlet } from "react-router";
import { NotificationsProvider } from "../../components/notifications.tsx";
import { SiteFooter, SiteHeader } from "../../components/site-chrome.tsx";

export default function DefaultLayout() {
  return (
    <NotificationsProvider>
      <div className="layout layout-default">
        <SiteHeader />
        <Outlet />
        <SiteFooter />
      </div>
    </NotificationsProvider>
  );
}
