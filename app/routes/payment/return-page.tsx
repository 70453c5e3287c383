// The page the providers send the buyer back to (paypal.tsx, btcpay.tsx): what became of the payment.
import { Link, useLocation } from "react-router";
import { Logo } from "../../components/brand.tsx";
import { Icon } from "../../components/ui/icons.tsx";
import { LegalLinks } from "../../components/legal.tsx";
import { useLocale, useT } from "../../lib/i18n.tsx";
import { formatMoney } from "../../../i18n/format.ts";
import { useFormatDate } from "../../lib/dates.ts";
import { pageMeta, stylesheets } from "../../lib/meta.ts";
import accountStylesheet from "../../styles/account.css?url";
import commerceStylesheet from "../../styles/commerce.css?url";

export const links = stylesheets(accountStylesheet, commerceStylesheet);

export type Outcome =
  | { kind: "cancelled"; again: string }
  | { kind: "error"; message: string; retry: boolean }
  | { kind: "topup"; amount: number; balance: number; currency: string }
  | { kind: "product"; item: string; paid: number; currency: string; expiresAt: Date | null; frozen: boolean; game: string | null };

export type ReturnData = { outcome: Outcome; back: string; order: string | null; meta: { title: string; description: string } };

export const meta = ({ data }: { data: ReturnData | undefined }) => pageMeta(data);

export default function PaymentReturn({ loaderData: { outcome, back, order } }: { loaderData: ReturnData }) {
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
