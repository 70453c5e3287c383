// The presentation page: the product explained section by section, with answers to common questions.
import type { RouteHandle } from "../../root.tsx";
import { ButtonLink, Card } from "../../components/ui/primitives.tsx";
import { Icon, type IconName } from "../../components/ui/icons.tsx";
import { useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/presentation.ts";

export function loader({ context: { t } }: Route.LoaderArgs) {
  return { meta: { title: t("presentation.meta.title"), description: t("presentation.meta.description") } };
}

/** Static page: served without client code (docs/decisions/0001-static-storefront.md). */
export const handle: RouteHandle = { hydrate: false };

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

const SECTIONS = [
  { icon: "clock", key: "time" },
  { icon: "snowflake", key: "freeze" },
  { icon: "gift", key: "gifts" },
  { icon: "shield", key: "security" },
] as const satisfies readonly { icon: IconName; key: string }[];

export default function Presentation() {
  const t = useT();
  const href = useHref();
  return (
    <main id="main">
      <section className="hero hero-compact">
        <div className="container hero-inner">
          <p className="eyebrow">{t("presentation.eyebrow")}</p>
          <h1>{t("presentation.title")}</h1>
          <p className="lead">{t("presentation.lead")}</p>
        </div>
      </section>
      <section className="section container">
        <ul className="grid features-grid">
          {SECTIONS.map((s) => (
            <Card as="li" key={s.key} className="feature">
              <span className="feature-icon">
                <Icon name={s.icon} size={24} />
              </span>
              <h2 className="h3">{t(`presentation.${s.key}.title`)}</h2>
              <p className="muted">{t(`presentation.${s.key}.text`)}</p>
            </Card>
          ))}
        </ul>
      </section>
      <section className="section container narrow" aria-labelledby="faq-title">
        <h2 id="faq-title">{t("presentation.faq.title")}</h2>
        {([1, 2, 3] as const).map((n) => (
          <details key={n} className="faq">
            <summary>{t(`presentation.faq.${n}.q`)}</summary>
            <p className="muted">{t(`presentation.faq.${n}.a`)}</p>
          </details>
        ))}
        <div className="cta-row">
          <ButtonLink to={href("/auth/register")}>{t("presentation.cta")}</ButtonLink>
        </div>
      </section>
    </main>
  );
}
