// /admin/payments: every payment (docs/product/back-office.md#payments), newest first, filtered by
// status, provider and period (days in UTC, as the API reads them), cursor paged, with the link to
// the same list as CSV (the API's export, signed in by the page's cookie). Each row opens the
// payment, where it is refunded.
import { Form } from "react-router";
import { PAYMENT_ORDER_STATUSES, paymentFilterOf, PaymentsQuerySchema } from "../../../core/admin/index.ts";
import { DataTable, NextPage, PaymentRows, usePaymentHead } from "../../components/admin.tsx";
import { FormMessage } from "../../components/forms.tsx";
import { requireOperatorPage } from "../../lib/admin.server.ts";
import { useT } from "../../lib/i18n.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/payments.ts";

export const handle: RouteHandle = { hydrate: false };

const PROVIDERS = ["paypal", "demo"] as const;
const FILTERS = ["status", "provider", "from", "to"] as const;

export async function loader({ context, request }: Route.LoaderArgs) {
  requireOperatorPage(context, request);
  const { t, services } = context;
  const url = new URL(request.url);
  // An empty field of the filter form is no filter.
  const params = Object.fromEntries([...url.searchParams].filter(([name, value]) => value !== "" && (name === "cursor" || (FILTERS as readonly string[]).includes(name))));
  const filter = Object.fromEntries(FILTERS.map((name) => [name, params[name] ?? ""])) as Record<(typeof FILTERS)[number], string>;
  const meta = { title: t("admin.payments.title"), description: t("admin.payments.title") };
  const statuses = [...PAYMENT_ORDER_STATUSES];
  const parsed = PaymentsQuerySchema.safeParse(params);
  if (!parsed.success) return { filter, statuses, payments: [], nextCursor: null, csv: null, error: t("admin.payments.filterInvalid"), meta };
  const q = parsed.data;
  const page = await services.admin.payments.list({ ...paymentFilterOf(q), before: q.cursor, limit: q.limit });
  const csvQuery = new URLSearchParams(Object.entries(params).filter(([name]) => name !== "cursor"));
  csvQuery.set("format", "csv");
  return {
    filter,
    statuses,
    payments: page.payments,
    nextCursor: page.nextCursor === null ? null : String(page.nextCursor),
    csv: `/v2/admin/payments?${csvQuery}`,
    error: null,
    meta,
  };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export default function Payments({ loaderData: { filter, statuses, payments, nextCursor, csv, error } }: Route.ComponentProps) {
  const t = useT();
  const head = usePaymentHead();
  const search = new URLSearchParams(Object.entries(filter).filter(([, value]) => value !== "")).toString();
  return (
    <section aria-labelledby="payments-title">
      <h1 id="payments-title">{t("admin.payments.title")}</h1>
      <Form method="get" className="admin-filters" aria-label={t("admin.filters")}>
        <div className="field">
          <label htmlFor="payments-status">{t("admin.col.state")}</label>
          <select id="payments-status" name="status" defaultValue={filter.status}>
            <option value="">{t("admin.filter.any")}</option>
            {statuses.map((status) => (
              <option key={status} value={status}>
                {t(`admin.payment.status.${status}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="payments-provider">{t("admin.col.provider")}</label>
          <select id="payments-provider" name="provider" defaultValue={filter.provider}>
            <option value="">{t("admin.filter.any")}</option>
            {PROVIDERS.map((provider) => (
              <option key={provider} value={provider}>
                {provider}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="payments-from">{t("admin.filter.from")}</label>
          <input id="payments-from" name="from" type="date" defaultValue={filter.from} />
        </div>
        <div className="field">
          <label htmlFor="payments-to">{t("admin.filter.to")}</label>
          <input id="payments-to" name="to" type="date" defaultValue={filter.to} />
        </div>
        <button type="submit" className="btn btn-primary">
          {t("admin.filter.apply")}
        </button>
      </Form>
      <FormMessage errors={error ? [error] : undefined} />
      {csv && (
        <p>
          <a href={csv} className="btn btn-secondary btn-small" download>
            {t("admin.payments.csv")}
          </a>
        </p>
      )}
      <DataTable caption={t("admin.payments.title")} head={head} empty={payments.length === 0}>
        <PaymentRows payments={payments} />
      </DataTable>
      <NextPage cursor={nextCursor} search={search} />
    </section>
  );
}
