// The plans of a game — on its page and on the subscription page: one card per number of days,
// the price, the price per day and what it saves per day against the 1-day plan, one plan
// emphasised (the lowest price per day), and "Buy" or, for a subscriber, "Extend".
import type { Locale } from "../../i18n/locales.ts";
import type { Translate } from "../../i18n/translate.ts";
import { formatMoney } from "../../i18n/format.ts";
import { useLocale, useT } from "../lib/i18n.tsx";
import { useHref } from "../lib/paths.ts";
import { Badge, ButtonLink, Card } from "./ui/primitives.tsx";

export type Plan = { id: number; days: number; price: number; currency: string };

/** The plan with the lowest price per day: the one the page emphasises (none when there is only one plan). */
export function bestPlan(plans: Plan[]): Plan | undefined {
  if (plans.length < 2) return undefined;
  return plans.reduce((best, p) => (p.price / p.days < best.price / best.days ? p : best));
}

/**
 * What a plan saves per day against the shortest plan (the 1-day one in the catalogue): the amount
 * in minor units and the share in percent, rounded; undefined when it saves nothing.
 */
export function savingPerDay(plan: Plan, plans: Plan[]): { amount: number; percent: number } | undefined {
  const base = plans.reduce<Plan | undefined>((shortest, p) => (!shortest || p.days < shortest.days ? p : shortest), undefined);
  if (!base || base.id === plan.id || base.currency !== plan.currency) return undefined;
  const basePerDay = base.price / base.days;
  const amount = Math.round(basePerDay - plan.price / plan.days);
  if (amount <= 0) return undefined;
  return { amount, percent: Math.round((100 * (basePerDay - plan.price / plan.days)) / basePerDay) };
}

function perDay(t: Translate, plan: Plan, locale: Locale) {
  return t("game.product.perDay", { price: formatMoney(Math.round(plan.price / plan.days), plan.currency, locale) });
}

export function PlanGrid({
  plans,
  game,
  extend,
  reloadDocument,
}: {
  plans: Plan[];
  /** The game's slug: each card leads to its checkout. */
  game: string;
  /** The visitor holds a pass of the game: the cards say "Extend". */
  extend: boolean;
  /** The page runs no script (a static page): the checkout is a full page load. */
  reloadDocument?: boolean;
}) {
  const t = useT();
  const locale = useLocale();
  const href = useHref();
  const best = bestPlan(plans);
  return (
    <ul className="grid plans-grid">
      {plans.map((p) => {
        const saving = savingPerDay(p, plans);
        return (
          <Card as="li" key={p.id} className={`plan${p.id === best?.id ? " plan-best" : ""}`}>
            {p.id === best?.id && <Badge>{t("game.product.best")}</Badge>}
            <h3>{t("plural.days", { count: p.days })}</h3>
            <p className="plan-price">{formatMoney(p.price, p.currency, locale)}</p>
            <p className="muted small">{perDay(t, p, locale)}</p>
            {saving ? (
              <p className="plan-saving small">{t("game.product.saving", { amount: formatMoney(saving.amount, p.currency, locale), percent: saving.percent })}</p>
            ) : (
              <p className="plan-saving plan-saving-none small" aria-hidden="true">
                {"\u00a0"}
              </p>
            )}
            <ButtonLink
              to={href(`/${game}/profile/payment?product=${p.id}`)}
              block
              variant={p.id === best?.id ? "primary" : "secondary"}
              reloadDocument={reloadDocument}
              aria-label={t(extend ? "game.product.extendLabel" : "game.product.buyLabel", { days: t("plural.days", { count: p.days }) })}
            >
              {t(extend ? "game.product.extend" : "game.product.buy")}
            </ButtonLink>
          </Card>
        );
      })}
    </ul>
  );
}
