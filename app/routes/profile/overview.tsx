// /{game}/profile: the account at a glance for this game.
import { Link, useLoaderData, useParams, type MetaArgs } from "react-router";
import { Card } from "../../components/ui/primitives.tsx";
import { useLocale, useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { formatDate, formatPrice } from "../../lib/format.ts";
import { pageMeta } from "../../lib/meta.ts";
import { requireProfile } from "../../lib/guards.server.ts";
import type { LoaderArgs } from "../../lib/route-args.ts";

export function loader({ context, request, params }: LoaderArgs) {
  const { auth, game } = requireProfile(context, request, params);
  const { t, services } = context;
  return {
    user: services.accounts.view(auth.user),
    game: { slug: game.slug, name: game.name },
    meta: { title: t("profile.overview.title", { game: game.name }), description: t("profile.overview.title", { game: game.name }) },
  };
}

export const meta = ({ data }: MetaArgs<typeof loader>) => pageMeta(data);

export default function Overview() {
  const { user, game } = useLoaderData<typeof loader>();
  const { game: slug } = useParams();
  const t = useT();
  const locale = useLocale();
  const href = useHref();
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">{t("profile.overview.title", { game: game.name })}</h1>
      <div className="grid stats-grid">
        <Card>
          <p className="muted small">{t("profile.overview.balance")}</p>
          <p className="stat">{formatPrice(user.balance, user.currency, locale)}</p>
        </Card>
        <Card>
          <p className="muted small">{t("profile.overview.twoFa")}</p>
          <p className="stat">{user.two_fa_enabled ? t("profile.overview.on") : t("profile.overview.off")}</p>
          {!user.two_fa_enabled && <Link to={href(`/${slug}/profile/settings#two-fa`)}>{t("profile.overview.enableTwoFa")}</Link>}
        </Card>
        <Card>
          <p className="muted small">{t("profile.overview.account")}</p>
          <p className="stat stat-small">{user.email}</p>
          <p className="muted small">{t("profile.overview.since", { date: formatDate(user.created_at, false) })}</p>
        </Card>
      </div>
    </section>
  );
}
