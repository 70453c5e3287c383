// The purchase layout (docs/product/routes.md#layouts): a focused checkout — the logo, a way back, the language switcher
// and the page; no profile sidebar. Used by the payment page and the gift page.
import { Link, Outlet, useParams } from "react-router";
import { Logo } from "../../components/brand.tsx";
import { AccountMenu, LanguageSwitcher, Shell } from "../../components/site-chrome.tsx";
import { Icon } from "../../components/ui/icons.tsx";
import { useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { stylesheets } from "../../lib/meta.ts";
import accountStylesheet from "../../styles/account.css?url";
import commerceStylesheet from "../../styles/commerce.css?url";

export const links = stylesheets(accountStylesheet, commerceStylesheet);

export default function PurchaseLayout() {
  const { game } = useParams();
  const t = useT();
  const href = useHref();
  return (
    <Shell kind="purchase">
      <header className="purchase-header">
        <div className="container purchase-header-row">
          <Logo />
          <Link to={href(game ? `/${game}/profile/subscription` : "/profile")} className="back-link">
            <Icon name="arrowRight" size={16} className="flip" /> <span>{game ? t("purchase.back") : t("purchase.backProfile")}</span>
          </Link>
          <div className="header-actions">
            <LanguageSwitcher />
            {/* Both pages of this layout are signed-in only. */}
            <AccountMenu />
          </div>
        </div>
      </header>
      <main id="main" className="container purchase-main">
        <Outlet />
      </main>
    </Shell>
  );
}
