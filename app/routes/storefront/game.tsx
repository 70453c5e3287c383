// A game's page (docs/product/routes.md#pages): what is sold — its description, features,
// illustrations, supported modes, requirements, status with the last update, changelog and
// questions (docs/product/data.md#game-content) — and its plans with prices for the visitor's
// shopping area (docs/product/data.md#shopping-areas), "Extend" for a visitor who holds a pass.
import type { RouteHandle } from "../../root.tsx";
import { ButtonLink } from "../../components/ui/primitives.tsx";
import { Icon, type IconName } from "../../components/ui/icons.tsx";
import { PlanGrid } from "../../components/plans.tsx";
import { GameStatusBadge } from "../../components/game-status.tsx";
import { useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { useFormatDate } from "../../lib/dates.ts";
import { formatDate } from "../../../i18n/format.ts";
import { useRootData } from "../../root.tsx";
import { notFound, pageMeta, stylesheets } from "../../lib/meta.ts";
import contentStylesheet from "../../styles/content.css?url";
import type { Route } from "./+types/game.ts";

export const links = stylesheets(contentStylesheet);

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const { services, shoppingArea, t, locale, auth } = context;
  const cheat = services.catalog.cheatBySlug(params.game ?? "");
  if (!cheat?.visible) notFound(url);
  const content = services.catalog.gameContent(cheat.id, locale);
  const name = content?.name ?? cheat.name;
  // Critical: a guest's page is the same for everyone (and cached); a signed-in visitor's says
  // "Extend" when they hold a pass, and when it ends.
  const subscription = auth ? await services.subscriptions.forCheat(auth.user.id, cheat.id) : null;
  return {
    game: { slug: cheat.slug, name, status: cheat.status, lastUpdatedAt: cheat.lastUpdatedAt },
    content,
    plans: services.catalog.productsFor(cheat.id, shoppingArea).map(({ id, days, price, currency }) => ({ id, days, price, currency })),
    subscription: subscription && { state: subscription.state, expiresAt: subscription.expiresAt },
    meta: { title: t("game.meta.title", { game: name }), description: content?.tagline ?? t("game.meta.description", { game: name }) },
  };
}

/** Static page: served without client code (docs/decisions/0001-static-storefront.md). */
export const handle: RouteHandle = { hydrate: false };

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

/** "19.99" for 1999 minor units of USD: the currency's own number of decimals. */
function majorUnits(minor: number, currency: string): string {
  const digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return (minor / 10 ** digits).toFixed(digits);
}

const FEATURE_ICONS: IconName[] = ["bolt", "clock", "check", "globe", "shield", "snowflake"];

export default function Game({ loaderData: { game, content, plans, subscription } }: Route.ComponentProps) {
  const t = useT();
  const href = useHref();
  const [cover, ...illustrations] = content?.media ?? [];
  const holds = subscription?.state === "active" || subscription?.state === "frozen";
  const updated = formatDate(game.lastUpdatedAt, { time: false });
  // A subscriber's end date is a time: in the buyer's zone, named, as on the profile pages.
  const buyerDate = useFormatDate();
  const publicUrl = useRootData()?.publicUrl ?? "";
  // Product with its Offers for search engines (schema.org): a data block, which the page's CSP
  // (docs/decisions/0002-csp-by-hash.md) leaves alone since it is no script to run.
  const structured = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: t("game.title", { game: game.name }),
    description: content?.tagline ?? t("game.lead"),
    image: publicUrl + (cover?.src ?? "/og.png"),
    brand: { "@type": "Brand", name: "NOVA" },
    offers: plans.map((p) => ({
      "@type": "Offer",
      name: t("plural.days", { count: p.days }),
      price: majorUnits(p.price, p.currency),
      priceCurrency: p.currency,
      availability: "https://schema.org/InStock",
      url: publicUrl + href(`/${game.slug}`),
    })),
  };
  return (
    <main id="main" className="game-page">
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON.stringify(structured).replace(/</g, "\\u003c") }} />
      <section className={`hero hero-compact game-hero game-${game.slug}`} aria-labelledby="game-title">
        <div className="container game-hero-grid">
          <div className="hero-inner">
            <p className="eyebrow">
              <Icon name="gamepad" size={16} /> {game.name}
            </p>
            <h1 id="game-title">{t("game.title", { game: game.name })}</h1>
            <p className="lead">{content?.tagline ?? t("game.lead")}</p>
            <p className="game-status">
              <GameStatusBadge status={game.status} />
              <span className="muted small">{t("game.updated", { date: updated })}</span>
            </p>
            {content?.statusNote && game.status !== "working" && (
              <p className="status-note" role="note">
                {content.statusNote}
              </p>
            )}
            <div className="hero-actions">
              <ButtonLink to="#plans">
                {t(holds ? "game.cta.extend" : "game.cta.plans")}
                <Icon name="arrowRight" size={18} />
              </ButtonLink>
            </div>
          </div>
          {cover && (
            <figure className="game-cover">
              <img src={cover.src} alt={cover.alt} width={800} height={450} />
            </figure>
          )}
        </div>
      </section>

      <section className="section container" id="plans" aria-labelledby="plans-title">
        <h2 id="plans-title">{t("game.products.title")}</h2>
        {subscription && (
          <p className="subscriber-note">
            {subscription.state === "active"
              ? t("game.subscriber.active", { date: buyerDate(subscription.expiresAt) })
              : subscription.state === "frozen"
                ? t("game.subscriber.frozen")
                : t("game.subscriber.expired", { date: buyerDate(subscription.expiresAt) })}
          </p>
        )}
        {plans.length === 0 ? <p className="muted">{t("game.empty")}</p> : <PlanGrid plans={plans} game={game.slug} extend={holds} reloadDocument />}
        <ul className="checklist">
          {([1, 2, 3] as const).map((n) => (
            <li key={n}>
              <Icon name="check" size={18} /> {t(`game.perk.${n}`)}
            </li>
          ))}
        </ul>
      </section>

      {content && (
        <>
          <section className="section container" aria-labelledby="about-title">
            <h2 id="about-title">{t("game.about.title")}</h2>
            <p className="game-description">{content.description}</p>
            {content.features.length > 0 && (
              <ul className="grid features-grid game-features">
                {content.features.map((f, i) => (
                  <li key={f.title} className="card feature">
                    <span className="feature-icon" aria-hidden="true">
                      <Icon name={FEATURE_ICONS[i % FEATURE_ICONS.length]!} size={22} />
                    </span>
                    <h3>{f.title}</h3>
                    <p className="muted">{f.text}</p>
                  </li>
                ))}
              </ul>
            )}
          </section>

          {illustrations.length > 0 && (
            <section className="section container" aria-labelledby="media-title">
              <h2 id="media-title">{t("game.media.title")}</h2>
              <ul className="game-gallery">
                {illustrations.map((m) => (
                  <li key={m.src}>
                    <figure>
                      <img src={m.src} alt={m.alt} width={800} height={450} loading="lazy" />
                      {m.caption && <figcaption>{m.caption}</figcaption>}
                    </figure>
                  </li>
                ))}
              </ul>
            </section>
          )}

          <div className="section container game-specs">
            {content.modes.length > 0 && (
              <section aria-labelledby="modes-title">
                <h2 id="modes-title">{t("game.modes.title")}</h2>
                <ul className="modes">
                  {content.modes.map((m) => (
                    <li key={m.name}>
                      <strong>{m.name}</strong>
                      <span className="muted">{m.text}</span>
                    </li>
                  ))}
                </ul>
              </section>
            )}
            {content.requirements.length > 0 && (
              <section aria-labelledby="requirements-title">
                <h2 id="requirements-title">{t("game.requirements.title")}</h2>
                <dl className="requirements">
                  {content.requirements.map((r) => (
                    <div key={r.label}>
                      <dt>{r.label}</dt>
                      <dd>{r.value}</dd>
                    </div>
                  ))}
                </dl>
              </section>
            )}
          </div>

          {content.changelog.length > 0 && (
            <section className="section container" aria-labelledby="changelog-title">
              <h2 id="changelog-title">{t("game.changelog.title")}</h2>
              <ol className="changelog">
                {content.changelog.map((release) => (
                  <li key={release.version}>
                    <h3 className="h4">
                      {t("game.changelog.version", { version: release.version })}{" "}
                      <time dateTime={release.date} className="muted small">
                        {formatDate(`${release.date}T00:00:00Z`, { time: false })}
                      </time>
                    </h3>
                    <ul>
                      {release.notes.map((note) => (
                        <li key={note}>{note}</li>
                      ))}
                    </ul>
                  </li>
                ))}
              </ol>
            </section>
          )}

          {content.faq.length > 0 && (
            <section className="section container narrow" aria-labelledby="faq-title">
              <h2 id="faq-title">{t("game.faq.title")}</h2>
              {content.faq.map((item) => (
                <details key={item.question} className="faq">
                  <summary>{item.question}</summary>
                  <p className="muted">{item.answer}</p>
                </details>
              ))}
            </section>
          )}
        </>
      )}

      <section className="section container game-closing">
        <p>{t("game.closing", { game: game.name })}</p>
        <ButtonLink to="#plans">{t(holds ? "game.cta.extend" : "game.cta.plans")}</ButtonLink>
        <p className="muted small">
          <a href={href("/refunds")}>{t("legal.nav.refunds")}</a> · <a href={href("/support")}>{t("legal.nav.support")}</a>
        </p>
      </section>
    </main>
  );
}
