// /payment/paypal (no layout): the return page of the payment provider (docs/product/money.md#paying-through-a-provider). PayPal
// sends the buyer back with ?token=<order id> (and ?cancel=1 when they gave up); the loader
// captures the order for the signed-in user — idempotent, so a reload shows the same result. A
// cancelled payment offers the checkout of the same order again; one that failed or that we do
// not know points to support (and to a retry when trying again may help).
import { Link, useLocation } from "react-router";
import { DomainError } from "../../../core/shared/errors.ts";
import { ORDER_ID } from "../../../core/payments/payments.schema.ts";
import { Logo } from "../../components/brand.tsx";
import { Icon } from "../../components/ui/icons.tsx";
import { productName } from "../../components/commerce.tsx";
import { LegalLinks } from "../../components/legal.tsx";
import { useLocale, useT } from "../../lib/i18n.tsx";
import { formatMoney } from "../../../i18n/format.ts";
import { useFormatDate } from "../../lib/dates.ts";
import { pageMeta, stylesheets } from "../../lib/meta.ts";
import { requireUser, storedGameProfile } from "../../lib/guards.server.ts";
import type { Route } from "./+types/paypal.ts";
import { localePath } from "../../../i18n/locales.ts";
import accountStylesheet from "../../styles/account.css?url";
import commerceStylesheet from "../../styles/commerce.css?url";

export const links = stylesheets(accountStylesheet, commerceStylesheet);

type Outcome =
  | { kind: "cancelled"; again: string }
  | { kind: "error"; message: string; retry: boolean }
  | { kind: "topup"; amount: number; balance: number; currency: string }
  | { kind: "product"; item: string; paid: number; currency: string; expiresAt: Date | null; frozen: boolean; game: string | null };

export async function loader({ context, request }: Route.LoaderArgs) {
  const auth = requireUser(context, request);
  const { t, services, locale } = context;
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const profile = storedGameProfile(context, request);
  const page = (outcome: Outcome, back = profile) => ({
    outcome,
    back,
    order: ORDER_ID.test(token) ? token : null,
    meta: { title: t("return.title"), description: t("return.title") },
  });

  if (url.searchParams.get("cancel") === "1") return page({ kind: "cancelled", again: await checkoutAgain(context, request, auth.user.id, token) });
  if (!ORDER_ID.test(token)) return page({ kind: "error", message: t("return.noOrder"), retry: false });
  try {
    const { transaction, balance, subscriptions } = await services.payments.capture(auth.user.id, token);
    const product = transaction.products[0];
    if (!product) return page({ kind: "topup", amount: transaction.amount, balance, currency: transaction.currency }, `${profile}/balance`);
    const cheat = services.catalog.cheatById(product.cheatId);
    const sub = subscriptions.find((s) => s.cheatId === product.cheatId);
    return page(
      {
        kind: "product",
        item: productName(t, cheat?.name ?? product.title, product.days),
        paid: transaction.paid,
        currency: transaction.currency,
        expiresAt: sub && sub.state === "active" ? sub.expiresAt : null,
        frozen: sub?.state === "frozen",
        game: cheat?.slug ?? null,
      },
      cheat ? localePath(locale, `/${cheat.slug}/profile/subscription`) : profile,
    );
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // The provider failed or has not settled yet: trying again may help. Anything else will not.
    const retry = error.code === "payment_failed" || error.code === "payment_pending" || error.code === "payment_not_approved";
    const message = error.code === "not_found" ? t("return.noOrder") : t(error.messageKey, error.details.params);
    return page({ kind: "error", message, retry });
  }
}

/**
 * Where a cancelled payment is tried again: the checkout of the order's product, or the balance
 * page for a top-up; the stored game's subscription page when the order is not the buyer's.
 */
async function checkoutAgain(context: Route.LoaderArgs["context"], request: Request, userId: number, token: string): Promise<string> {
  const { services, locale } = context;
  const order = ORDER_ID.test(token) ? await services.payments.order(userId, token).catch(() => undefined) : undefined;
  const game = order?.product ? services.catalog.cheatById(order.product.cheatId) : undefined;
  const profile = storedGameProfile(context, request);
  if (order?.kind === "topup") return `${profile}/balance`;
  if (game && order?.product) return localePath(locale, `/${game.slug}/profile/payment?product=${order.product.id}`);
  return `${profile}/subscription`;
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export default function PaymentReturn({ loaderData: { outcome, back, order } }: Route.ComponentProps) {
  const formatDate = useFormatDate();
  const t = useT();
  const locale = useLocale();
  const { pathname, search } = useLocation();
  const ok = outcome.kind === "topup" || outcome.kind === "product";
  return (
    <main id="main" className="layout-bare">
      <section className={`card bare-card result-card ${ok ? "result-ok" : outcome.kind === "cancelled" ? "result-neutral" : "result-error"}`} aria-labelledby="return-title">
        <Logo />
        <span className="result-icon" aria-hidden="true">
          <Icon name={ok ? "check" : outcome.kind === "cancelled" ? "close" : "alert"} size={28} />
        </span>
        {outcome.kind === "cancelled" ? (
          <>
            <h1 id="return-title">{t("return.cancelled.title")}</h1>
            <p className="muted">{t("return.cancelled.text")}</p>
          </>
        ) : outcome.kind === "error" ? (
          <>
            <h1 id="return-title">{t("return.error.title")}</h1>
            <p role="alert">{outcome.message}</p>
          </>
        ) : outcome.kind === "topup" ? (
          <>
            <h1 id="return-title">{t("return.success.title")}</h1>
            <p>{t("return.topup", { amount: formatMoney(outcome.amount, outcome.currency, locale) })}</p>
            <p className="result-figure">
              <span className="muted small">{t("return.newBalance")}</span>
              <strong>{formatMoney(outcome.balance, outcome.currency, locale)}</strong>
            </p>
          </>
        ) : (
          <>
            <h1 id="return-title">{t("return.success.title")}</h1>
            <p>{t("return.product", { item: outcome.item, amount: formatMoney(outcome.paid, outcome.currency, locale) })}</p>
            {outcome.expiresAt && (
              <p className="result-figure">
                <span className="muted small">{t("sub.expiresAt")}</span>
                <strong>{formatDate(outcome.expiresAt)}</strong>
              </p>
            )}
            {outcome.frozen && <p className="muted small">{t("payment.addsToFrozen")}</p>}
          </>
        )}
        <div className="result-actions">
          {outcome.kind === "error" && outcome.retry && (
            <a className="btn btn-primary" href={pathname + search}>
              {t("return.retry")}
            </a>
          )}
          {outcome.kind === "cancelled" && (
            <a className="btn btn-primary" href={outcome.again}>
              {t("return.again")}
            </a>
          )}
          <Link className={`btn ${(outcome.kind === "error" && outcome.retry) || outcome.kind === "cancelled" ? "btn-secondary" : "btn-primary"}`} to={back}>
            {t("return.back")}
          </Link>
        </div>
        {!ok && <p className="muted small result-help">{order ? t("return.help", { order }) : t("return.helpNoOrder")}</p>}
        <LegalLinks pages={ok ? ["refunds", "support"] : ["support", "refunds"]} />
      </section>
    </main>
  );
}
