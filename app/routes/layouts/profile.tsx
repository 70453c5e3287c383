// The profile layout: signed-in only; the game switcher and the sections of the game's profile.
// Remembers the game in the `game` cookie, which /profile and sign-ins follow (docs/product/routes.md#cookies).
import { data, Link, NavLink, Outlet, useParams } from "react-router";
import { Shell, SiteFooter, SiteHeader } from "../../components/site-chrome.tsx";
import { Icon } from "../../components/ui/icons.tsx";
import { useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { readCookie, requireProfile } from "../../lib/guards.server.ts";
import { serializeCookie } from "../../../server/http/cookies.ts";
import type { Route } from "./+types/profile.ts";
import { stylesheets } from "../../lib/meta.ts";
import accountStylesheet from "../../styles/account.css?url";
import commerceStylesheet from "../../styles/commerce.css?url";

export const links = stylesheets(accountStylesheet, commerceStylesheet);

export function loader({ context, request, url, params }: Route.LoaderArgs) {
  const { auth, game: cheat } = requireProfile(context, url, params);
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (readCookie(request, "game") !== cheat.slug) {
    headers.append("Set-Cookie", serializeCookie("game", cheat.slug, { maxAge: 365 * 24 * 3600, secure: context.services.settings.secureCookies }));
  }
  return data(
    {
      games: context.services.catalog.cheats().map(({ slug, name }) => ({ slug, name })),
      user: { email: auth.user.email, username: auth.user.username },
    },
    { headers },
  );
}

/** The sections of a game's profile; later sections join this list. */
export const PROFILE_SECTIONS = [
  { path: "", key: "overview", icon: "user" },
  { path: "/subscription", key: "subscription", icon: "clock" },
  { path: "/balance", key: "balance", icon: "bolt" },
  { path: "/referral", key: "referral", icon: "globe" },
  { path: "/settings", key: "settings", icon: "shield" },
] as const;

export default function ProfileLayout({ loaderData: { games, user } }: Route.ComponentProps) {
  const { game } = useParams();
  const t = useT();
  const href = useHref();
  return (
    <Shell kind="profile">
      <SiteHeader signedIn />
      <div className="container profile-shell">
        <aside className="profile-aside">
          <p className="profile-user">
            <Icon name="user" size={18} /> <span title={user.email}>{user.username ?? user.email}</span>
          </p>
          <nav aria-label={t("profile.games")} className="game-switcher">
            {games.map((g) => (
              <NavLink key={g.slug} to={href(`/${g.slug}/profile`)} className={g.slug === game ? "active" : undefined} aria-current={g.slug === game ? "page" : undefined}>
                <Icon name="gamepad" size={16} /> {g.name}
              </NavLink>
            ))}
          </nav>
          <nav aria-label={t("profile.sections")} className="profile-nav">
            {PROFILE_SECTIONS.map((s) => (
              <NavLink key={s.key} to={href(`/${game}/profile${s.path}`)} end>
                <Icon name={s.icon} size={16} /> {t(`profile.nav.${s.key}`)}
              </NavLink>
            ))}
          </nav>
          <Link to={href(`/give/subscription?game=${game}`)} className="btn btn-secondary btn-small give-link">
            <Icon name="gift" size={16} /> {t("profile.nav.give")}
          </Link>
        </aside>
        <main id="main" className="profile-main">
          <Outlet />
        </main>
      </div>
      <SiteFooter />
    </Shell>
  );
}
