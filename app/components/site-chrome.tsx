// The frame of the layouts with a header (site, profile, purchase), the header and footer of the
// public pages, and the language switcher.
import { NavLink } from "react-router";
import type { ReactNode } from "react";
import { LOCALE_NAMES, LOCALES, LANG_TAG, localePath, type Locale } from "../../i18n/locales.ts";
import { useRootData } from "../root.tsx";
import { useLocale, useT } from "../lib/i18n.tsx";
import { useHref } from "../lib/paths.ts";
import { SITE_PAGES } from "../../core/content/slugs.ts";
import { Logo } from "./brand.tsx";
import { NotificationsProvider } from "./notifications.tsx";
import { Inbox } from "./inbox.tsx";
import { Icon } from "./ui/icons.tsx";

/** A layout's frame: its class (`layout-{kind}`) and notifications for the page inside. */
export function Shell({ kind, children }: { kind: string; children: ReactNode }) {
  return (
    <NotificationsProvider>
      <div className={`layout layout-${kind}`}>{children}</div>
    </NotificationsProvider>
  );
}

export function SiteHeader({ signedIn: forced }: { signedIn?: boolean } = {}) {
  const t = useT();
  const href = useHref();
  const root = useRootData();
  const signedIn = forced ?? root?.signedIn ?? false;
  return (
    <header className="site-header">
      <div className="container header-row">
        <Logo />
        <nav className="main-nav" aria-label={t("nav.label")}>
          <MainLinks />
        </nav>
        <div className="header-actions">
          <LanguageSwitcher />
          {signedIn && <Inbox />}
          {signedIn ? (
            <AccountMenu />
          ) : (
            <a className="btn btn-secondary btn-small header-signin" href={href("/auth")}>
              <Icon name="user" size={16} />
              <span className="header-label">{t("nav.signIn")}</span>
            </a>
          )}
          {/* On a phone the links above fold into this menu (app/styles/app.css, .nav-menu). */}
          <details className="nav-menu header-menu">
            <summary aria-label={t("nav.menu")}>
              <Icon name="menu" size={18} />
            </summary>
            <nav className="menu-panel" aria-label={t("nav.label")}>
              <MainLinks />
            </nav>
          </details>
        </div>
      </div>
    </header>
  );
}

/** The header's links: home, how it works and the games (a game's name in full, never clipped). */
function MainLinks() {
  const t = useT();
  const href = useHref();
  const games = useRootData()?.games ?? [];
  return (
    <>
      {/* data-prefetch: likely next pages, fetched ahead (docs/product/routes.md#prefetch). */}
      <NavLink to={href("/")} end data-prefetch>
        {t("nav.home")}
      </NavLink>
      <NavLink to={href("/presentation")} data-prefetch>
        {t("nav.presentation")}
      </NavLink>
      {games.map((g) => (
        <NavLink key={g.slug} to={href(`/${g.slug}`)} end data-prefetch>
          {g.slug === "cs2" ? "CS2" : g.name}
        </NavLink>
      ))}
    </>
  );
}

/**
 * The signed-in visitor's menu, on every page with a header: the profile of the game last opened
 * (its balance, referral and settings pages keep the spec's URLs), giving a subscription, and
 * signing out — a plain post of the settings page's `signout` form, so it needs no script.
 */
export function AccountMenu() {
  const t = useT();
  const href = useHref();
  const game = useRootData()?.game ?? "dota2";
  const profile = `/${game}/profile`;
  return (
    <details className="account-menu header-menu">
      <summary>
        <Icon name="user" size={16} />
        <span className="header-label">{t("nav.account")}</span>
      </summary>
      <div className="menu-panel">
        <a href={href(profile)}>{t("profile.nav.overview")}</a>
        <a href={href(`${profile}/subscription`)}>{t("profile.nav.subscription")}</a>
        <a href={href(`${profile}/balance`)}>{t("profile.nav.balance")}</a>
        <a href={href(`${profile}/referral`)}>{t("profile.nav.referral")}</a>
        <a href={href(`${profile}/settings`)}>{t("profile.nav.settings")}</a>
        <a href={href(`/give/subscription?game=${game}`)}>{t("profile.nav.give")}</a>
        <form method="post" action={href(`${profile}/settings`)}>
          <button type="submit" name="intent" value="signout" className="menu-item">
            {t("nav.signOut")}
          </button>
        </form>
      </div>
    </details>
  );
}

/**
 * Links to this page in every language, its query kept (`?product=`, `?redirectTo=`); a full page
 * load, since messages change. Each link sets the `locale` cookie on the way
 * (docs/product/routes.md#language-detection), so that choosing Русский sticks at "/" too.
 */
export function LanguageSwitcher() {
  const t = useT();
  const locale = useLocale();
  // The root's data is there on every page; "/" only if the root loader itself failed.
  const root = useRootData();
  const path = root?.path ?? "/";
  const search = root?.search ?? "";
  return (
    <details className="lang-switcher">
      {/* The name includes the visible code ("RU"), so voice control users can say what they see. */}
      <summary aria-label={`${t("lang.label")}: ${locale.toUpperCase()}`}>
        <Icon name="globe" size={16} />
        <span>{locale.toUpperCase()}</span>
      </summary>
      <ul>
        {LOCALES.map((l) => (
          <li key={l}>
            <a href={switchHref(l, path, search)} hrefLang={LANG_TAG[l]} lang={LANG_TAG[l]} aria-current={l === locale ? "true" : undefined}>
              {LOCALE_NAMES[l]}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The switcher's link to `path` in `locale`: the page's query, then `locale=` (which the server turns into the cookie). */
export function switchHref(locale: Locale, path: string, search: string): string {
  const query = new URLSearchParams(search);
  query.delete("locale");
  query.append("locale", locale);
  return `${localePath(locale, path)}?${query}`;
}

export function SiteFooter() {
  const t = useT();
  const href = useHref();
  return (
    <footer className="site-footer">
      <div className="container footer-row">
        <div>
          <strong>NOVA</strong>
          <p className="muted">{t("footer.tagline")}</p>
        </div>
        <nav aria-label={t("footer.label")}>
          <a href={href("/presentation")}>{t("nav.presentation")}</a>
          <a href={href("/auth/register")}>{t("nav.register")}</a>
          {SITE_PAGES.map((slug) => (
            <a key={slug} href={href(`/${slug}`)}>
              {t(`legal.nav.${slug}`)}
            </a>
          ))}
          <a href={href("/sitemap.xml")}>{t("footer.sitemap")}</a>
        </nav>
        <p className="muted small">{t("footer.rights", { year: 2026 })}</p>
      </div>
    </footer>
  );
}
