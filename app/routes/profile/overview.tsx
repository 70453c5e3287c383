// /{game}/profile: the account at a glance for this game — the game's subscription, the balance,
// two-factor state and quick links to the other sections.
import { Link, useParams } from "react-router";
import { ButtonLink, Card } from "../../components/ui/primitives.tsx";
import { Icon, type IconName } from "../../components/ui/icons.tsx";
import { SubscriptionBadge, formatDuration } from "../../components/commerce.tsx";
import { useLocale, useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { formatMoney } from "../../../i18n/format.ts";
import { useFormatDate } from "../../lib/dates.ts";
import { pageMeta } from "../../lib/meta.ts";
import { requireProfile } from "../../lib/guards.server.ts";
import type { Route } from "./+types/overview.ts";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  const { auth, game } = requireProfile(context, url, params);
  const { t, services } = context;
  const subscription = await services.subscriptions.forCheat(auth.user.id, game.id);
  return {
    user: services.accounts.user(auth.user),
    game: { slug: game.slug, name: game.name },
    subscription: subscription && {
      state: subscription.state,
      expiresAt: subscription.expiresAt,
      remainingSeconds: subscription.remainingSeconds,
      freezeEndsAt: subscription.freezeEndsAt,
    },
    meta: { title: t("profile.overview.title", { game: game.name }), description: t("profile.overview.title", { game: game.name }) },
  };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

const QUICK_LINKS = [
  { path: "/subscription", key: "subscription", icon: "clock" },
  { path: "/balance", key: "balance", icon: "bolt" },
  { path: "/referral", key: "referral", icon: "globe" },
  { path: "/settings", key: "settings", icon: "shield" },
] as const satisfies readonly { path: string; key: string; icon: IconName }[];

export default function Overview({ loaderData: { user, game, subscription: sub } }: Route.ComponentProps) {
  const formatDate = useFormatDate();
  const { game: slug } = useParams();
  const t = useT();
  const locale = useLocale();
  const href = useHref();
  const state = sub?.state ?? "none";
  return (
    <section aria-labelledby="overview-title" className="commerce">
      <h1 id="overview-title">{t("profile.overview.title", { game: game.name })}</h1>
      <Card as="section" className={`sub-card sub-${state} overview-sub`}>
        <div className="sub-head">
          <span className="sub-icon" aria-hidden="true">
            <Icon name={state === "frozen" ? "snowflake" : "clock"} size={22} />
          </span>
          <div>
            <h2 className="h3">{t("profile.overview.subscription")}</h2>
            <SubscriptionBadge state={state} t={t} />
          </div>
        </div>
        <p className="sub-line">
          {!sub
            ? t("subscription.block.missing")
            : sub.state === "active"
              ? t("profile.overview.activeUntil", { date: formatDate(sub.expiresAt), left: formatDuration(t, sub.remainingSeconds) })
              : sub.state === "frozen"
                ? t("profile.overview.frozen", { left: formatDuration(t, sub.remainingSeconds), date: sub.freezeEndsAt ? formatDate(sub.freezeEndsAt) : "—" })
                : t("profile.overview.expired", { date: formatDate(sub.expiresAt) })}
        </p>
        <div className="form-row">
          <ButtonLink to={href(`/${slug}/profile/subscription`)} variant={state === "active" || state === "frozen" ? "secondary" : "primary"}>
            {state === "active" || state === "frozen" ? t("profile.overview.manage") : t("profile.overview.buy")}
          </ButtonLink>
        </div>
      </Card>
      <div className="grid stats-grid">
        <Card>
          <p className="muted small">{t("profile.overview.balance")}</p>
          <p className="stat">{formatMoney(user.balance, user.currency, locale)}</p>
          <Link to={href(`/${slug}/profile/balance`)}>{t("profile.overview.topUp")}</Link>
        </Card>
        <Card>
          <p className="muted small">{t("profile.overview.twoFa")}</p>
          <p className="stat">{user.twoFaEnabled ? t("profile.overview.on") : t("profile.overview.off")}</p>
          {!user.twoFaEnabled && <Link to={href(`/${slug}/profile/settings#two-fa`)}>{t("profile.overview.enableTwoFa")}</Link>}
        </Card>
        <Card>
          <p className="muted small">{t("profile.overview.account")}</p>
          <p className="stat stat-small">{user.email}</p>
          <p className="muted small">{t("profile.overview.since", { date: formatDate(user.createdAt, { time: false }) })}</p>
        </Card>
      </div>
      <nav aria-labelledby="quick-title" className="quick-links">
        <h2 id="quick-title" className="h3">
          {t("profile.overview.quick")}
        </h2>
        <ul className="grid quick-grid">
          {QUICK_LINKS.map((l) => (
            <li key={l.key}>
              <Link to={href(`/${slug}/profile${l.path}`)} className="quick-link">
                <Icon name={l.icon} size={20} />
                <span>{t(`profile.nav.${l.key}`)}</span>
              </Link>
            </li>
          ))}
          <li>
            <Link to={href(`/give/subscription?game=${slug}`)} className="quick-link">
              <Icon name="gift" size={20} />
              <span>{t("profile.nav.give")}</span>
            </Link>
          </li>
        </ul>
      </nav>
    </section>
  );
}
