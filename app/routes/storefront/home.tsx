// The landing home page: what the shop offers, its games with starting prices, how buying works.
import type { RouteHandle } from "../../root.tsx";
import { ButtonLink, Card } from "../../components/ui/primitives.tsx";
import { Icon, type IconName } from "../../components/ui/icons.tsx";
import { useLocale, useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { formatMoney } from "../../../i18n/format.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/home.ts";

export function loader({ context }: Route.LoaderArgs) {
  const { services, shoppingArea, t } = context;
  const { catalog } = services;
  const games = catalog
    .cheats()
    .filter((cheat) => cheat.visible)
    .map((cheat) => {
      const prices = catalog.productsFor(cheat.id, shoppingArea).map((p) => p);
      const cheapest = prices.reduce<(typeof prices)[number] | undefined>((min, p) => (!min || p.price < min.price ? p : min), undefined);
      return { slug: cheat.slug, name: cheat.name, fromPrice: cheapest?.price, currency: cheapest?.currency };
    });
  return { games, meta: { title: t("home.meta.title"), description: t("home.meta.description") } };
}

/** Static page: served without client code (docs/decisions/0001-static-storefront.md). */
export const handle: RouteHandle = { hydrate: false };

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

const FEATURES = [
  { icon: "shield", key: "undetected" },
  { icon: "bolt", key: "updates" },
  { icon: "snowflake", key: "freeze" },
  { icon: "headset", key: "support" },
] as const satisfies readonly { icon: IconName; key: string }[];

export default function Home({ loaderData: { games } }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const href = useHref();
  return (
    <main id="main">
      <section className="hero">
        <div className="container hero-inner">
          <p className="eyebrow">{t("home.hero.eyebrow")}</p>
          <h1>{t("home.hero.title")}</h1>
          <p className="lead">{t("home.hero.subtitle")}</p>
          <div className="hero-actions">
            <ButtonLink to={href("/dota2")} data-prefetch>
              {t("home.hero.cta")}
              <Icon name="arrowRight" size={18} />
            </ButtonLink>
            <ButtonLink to={href("/presentation")} variant="secondary" data-prefetch>
              {t("home.hero.secondary")}
            </ButtonLink>
          </div>
        </div>
      </section>

      <section className="section container" aria-labelledby="games-title">
        <h2 id="games-title">{t("home.games.title")}</h2>
        <ul className="grid games-grid">
          {games.map((game) => (
            <Card as="li" key={game.slug} className={`game-card game-${game.slug}`}>
              <div className="game-art" aria-hidden="true">
                <Icon name="gamepad" size={40} />
              </div>
              <h3>{game.name}</h3>
              {game.fromPrice !== undefined && game.currency && <p className="price-from">{t("home.games.from", { price: formatMoney(game.fromPrice, game.currency, locale) })}</p>}
              <ButtonLink to={href(`/${game.slug}`)} variant="secondary" block data-prefetch aria-label={t("home.games.openLabel", { game: game.name })}>
                {t("home.games.open")}
              </ButtonLink>
            </Card>
          ))}
        </ul>
      </section>

      <section className="section container" aria-labelledby="features-title">
        <h2 id="features-title">{t("home.features.title")}</h2>
        <ul className="grid features-grid">
          {FEATURES.map((f) => (
            <Card as="li" key={f.key} className="feature">
              <span className="feature-icon">
                <Icon name={f.icon} size={24} />
              </span>
              <h3>{t(`home.features.${f.key}.title`)}</h3>
              <p className="muted">{t(`home.features.${f.key}.text`)}</p>
            </Card>
          ))}
        </ul>
      </section>

      <section className="section container" aria-labelledby="steps-title">
        <h2 id="steps-title">{t("home.steps.title")}</h2>
        <ol className="steps">
          {([1, 2, 3] as const).map((n) => (
            <li key={n}>
              <span className="step-number">{n}</span>
              <div>
                <h3>{t(`home.steps.${n}.title`)}</h3>
                <p className="muted">{t(`home.steps.${n}.text`)}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>
    </main>
  );
}
