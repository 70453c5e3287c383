// /{game}/profile/referral: the user's referral link (docs/product/money.md#referrals) with a copy button where
// JavaScript runs (the link stays selectable in a read-only field without it), and what it earned.
import { Card } from "../../components/ui/primitives.tsx";
import { CopyField } from "../../components/copy-field.tsx";
import { useLangTag, useLocale, useT } from "../../lib/i18n.tsx";
import { formatMoney } from "../../../i18n/format.ts";
import { useFormatDate } from "../../lib/dates.ts";
import { pageMeta } from "../../lib/meta.ts";
import { requireProfile } from "../../lib/guards.server.ts";
import type { Route } from "./+types/referral.ts";

export async function loader({ context, url, params }: Route.LoaderArgs) {
  const { auth } = requireProfile(context, url, params);
  const { t, services } = context;
  const summary = await services.referrals.summary(auth.user.id);
  return {
    referral: summary,
    currency: services.settings.SHOP_CURRENCY,
    meta: { title: t("referral.title"), description: t("referral.lead", { percent: summary.percent }) },
  };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export default function Referral({ loaderData: { referral, currency } }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const langTag = useLangTag();
  const formatDate = useFormatDate();
  return (
    <section aria-labelledby="referral-title" className="commerce">
      <h1 id="referral-title">{t("referral.title")}</h1>
      <p className="muted">{t("referral.lead", { percent: referral.percent })}</p>
      <Card as="section" className="referral-card">
        <h2 className="h3">{t("referral.link")}</h2>
        <CopyField
          id="referral-link"
          value={referral.link}
          texts={{
            label: t("referral.link"),
            copy: t("referral.copy"),
            copied: t("referral.copied"),
            failed: t("referral.copyFailed"),
            share: t("referral.share"),
            shareText: t("referral.shareText"),
          }}
        />
        <p className="muted small">{t("referral.code", { code: referral.code })}</p>
      </Card>
      <div className="grid stats-grid">
        <Card>
          <p className="muted small">{t("referral.invited")}</p>
          <p className="stat">{new Intl.NumberFormat(langTag).format(referral.invited)}</p>
        </Card>
        <Card>
          <p className="muted small">{t("referral.earned")}</p>
          <p className="stat">{formatMoney(referral.earned, currency, locale)}</p>
        </Card>
        <Card>
          <p className="muted small">{t("referral.percent")}</p>
          <p className="stat">{new Intl.NumberFormat(langTag, { style: "percent" }).format(referral.percent / 100)}</p>
        </Card>
      </div>
      <Card as="section" aria-labelledby="friends-title">
        <h2 className="h3" id="friends-title">
          {t("referral.friends.title")}
        </h2>
        {referral.friends.length === 0 ? (
          <p className="muted">{t("referral.friends.empty")}</p>
        ) : (
          <table className="friends-table">
            <thead>
              <tr>
                <th scope="col">{t("referral.friends.friend")}</th>
                <th scope="col">{t("referral.friends.joined")}</th>
                <th scope="col" className="num">
                  {t("referral.friends.earned")}
                </th>
                <th scope="col" className="num">
                  {t("referral.friends.pending")}
                </th>
              </tr>
            </thead>
            <tbody>
              {referral.friends.map((f, i) => (
                <tr key={i}>
                  <td>{f.email}</td>
                  <td>{formatDate(f.joinedAt, { time: false })}</td>
                  <td className="num">{formatMoney(f.earned, currency, locale)}</td>
                  <td className="num">{formatMoney(f.pending, currency, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <Card as="section">
        <h2 className="h3">{t("referral.how.title")}</h2>
        <ol className="how-list">
          <li>{t("referral.how.1")}</li>
          <li>{t("referral.how.2")}</li>
          <li>{t("referral.how.3", { percent: referral.percent })}</li>
        </ol>
      </Card>
    </section>
  );
}
