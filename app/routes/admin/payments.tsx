// /admin/payments: every payment (docs/product/back-office.md#payments), newest first, filtered by
// status, provider and period (days in UTC, as the API reads them), cursor paged, with the link to
// the same list as CSV (the API's export, signed in by the page's cookie). Each row opens the
// payment, where it is refunded.
import { PAYMENT_ORDER_STATUSES, paymentFilterOf, PaymentsQuerySchema } from "../../../core/admin/index.ts";
import { DataTable, FilteredList, FilterField, PaymentRows, usePaymentHead } from "../../components/admin.tsx";
import { listQuery, requireOperatorPage } from "../../lib/admin.server.ts";
import { useT } from "../../lib/i18n.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/payments.ts";

export const handle: RouteHandle = { hydrate: false };

const PROVIDERS = ["paypal", "demo"] as const;
const FILTERS = ["status", "provider", "from", "to"] as const;

export async function loader({ context, request, url }: Route.LoaderArgs) {
  requireOperatorPage(context, request, url);
  const { t, services } = context;
  const { params, filter } = listQuery(url, FILTERS);
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
  const fields = (
    <>
      <FilterField id="payments-status" label={t("admin.col.state")}>
        <select id="payments-status" name="status" defaultValue={filter.status}>
          <option value="">{t("admin.filter.any")}</option>
          {statuses.map((status) => (
            <option key={status} value={status}>
              {t(`admin.payment.status.${status}`)}
            </option>
          ))}
        </select>
      </FilterField>
      <FilterField id="payments-provider" label={t("admin.col.provider")}>
        <select id="payments-provider" name="provider" defaultValue={filter.provider}>
          <option value="">{t("admin.filter.any")}</option>
          {PROVIDERS.map((provider) => (
            <option key={provider} value={provider}>
              {provider}
            </option>
          ))}
        </select>
      </FilterField>
      <FilterField id="payments-from" label={t("admin.filter.from")}>
        <input id="payments-from" name="from" type="date" defaultValue={filter.from} />
      </FilterField>
      <FilterField id="payments-to" label={t("admin.filter.to")}>
        <input id="payments-to" name="to" type="date" defaultValue={filter.to} />
      </FilterField>
    </>
  );
  return (
    <section aria-labelledby="payments-title">
      <h1 id="payments-title">{t("admin.payments.title")}</h1>
      <FilteredList filter={filter} fields={fields} error={error} nextCursor={nextCursor}>
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
      </FilteredList>
    </section>
  );
}
