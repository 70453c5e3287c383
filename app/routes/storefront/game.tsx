// A game page: the game's subscriptions with prices for the visitor's shopping area (docs/product/data.md#shopping-areas).
import type { RouteHandle } from "../../root.tsx";
import { Badge, ButtonLink, Card } from "../../components/ui/primitives.tsx";
import { Icon } from "../../components/ui/icons.tsx";
import { useLocale, useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { formatMoney } from "../../../i18n/format.ts";
import { notFound, pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/game.ts";

export function loader({ context, params, request }: Route.LoaderArgs) {
  const { services, shoppingArea, t } = context;
  const cheat = services.catalog.cheatBySlug(params.game ?? "");
  if (!cheat) notFound(request);
  const products = services.catalog.productsFor(cheat.id, shoppingArea);
  return {
    game: cheat,
    products,
    meta: { title: t("game.meta.title", { game: cheat.name }), description: t("game.meta.description", { game: cheat.name }) },
  };
}

/** Static page: served without client code (docs/decisions/0001-static-storefront.md). */
export const handle: RouteHandle = { hydrate: false };

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export default function Game({ loaderData: { game, products } }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const href = useHref();
  const best = products.reduce<number | undefined>((bestId, p) => {
    const perDay = p.price / p.days;
    const current = products.find((x) => x.id === bestId);
    return !current || perDay < current.price / current.days ? p.id : bestId;
  }, undefined);
  return (
    <main>
      <section className={`hero hero-compact game-hero game-${game.slug}`}>
        <div className="container hero-inner">
          <p className="eyebrow">
            <Icon name="gamepad" size={16} /> {game.name}
          </p>
          <h1>{t("game.title", { game: game.name })}</h1>
          <p className="lead">{t("game.lead")}</p>
        </div>
      </section>
      <section className="section container" aria-labelledby="plans-title">
        <h2 id="plans-title">{t("game.products.title")}</h2>
        {products.length === 0 ? (
          <p className="muted">{t("game.empty")}</p>
        ) : (
          <ul className="grid plans-grid">
            {products.map((p) => (
              <Card as="li" key={p.id} className={`plan${p.id === best ? " plan-best" : ""}`}>
                {p.id === best && <Badge>{t("game.product.best")}</Badge>}
                <h3>{t("plural.days", { count: p.days })}</h3>
                <p className="plan-price">{formatMoney(p.price, p.currency, locale)}</p>
                <p className="muted small">
                  {t("game.product.perDay", { price: formatMoney(Math.round(p.price / p.days), p.currency, locale) })}
                </p>
                <ButtonLink to={href(`/${game.slug}/profile/payment?product=${p.id}`)} block reloadDocument>
                  {t("game.product.buy")}
                </ButtonLink>
              </Card>
            ))}
          </ul>
        )}
        <ul className="checklist">
          {([1, 2, 3] as const).map((n) => (
            <li key={n}>
              <Icon name="check" size={18} /> {t(`game.perk.${n}`)}
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
