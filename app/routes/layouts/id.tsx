// The "id" layout of the auth pages: one centred card, the logo and the language switcher.
import { Outlet } from "react-router";
import { Logo } from "../../components/brand.tsx";
import { LanguageSwitcher } from "../../components/site-chrome.tsx";
import { stylesheets } from "../../lib/meta.ts";
import accountStylesheet from "../../styles/account.css?url";

export const links = stylesheets(accountStylesheet);

export default function IdLayout() {
  return (
    <div className="layout layout-id">
      <header className="id-header">
        <Logo />
        <LanguageSwitcher />
      </header>
      <main id="main" className="id-main">
        <Outlet />
      </main>
    </div>
  );
}
