// /admin/customers: the search (docs/product/back-office.md#customers) — an e-mail or its start, a
// username, an id, a referral code, a visitor id or a payment reference — and the users it finds,
// each a link to the customer's page. A GET form: the address of a search can be shared.
import { Form, Link } from "react-router";
import { UserSearchSchema } from "../../../core/admin/index.ts";
import { DataTable, Money } from "../../components/admin.tsx";
import { FormMessage } from "../../components/forms.tsx";
import { Badge } from "../../components/ui/primitives.tsx";
import { requireOperatorPage } from "../../lib/admin.server.ts";
import { useFormatDate } from "../../lib/dates.ts";
import { useT } from "../../lib/i18n.tsx";
import { pageMeta } from "../../lib/meta.ts";
import { useHref } from "../../lib/paths.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/customers.ts";

export const handle: RouteHandle = { hydrate: false };

export async function loader({ context, request, url }: Route.LoaderArgs) {
  requireOperatorPage(context, request, url);
  const { t, services } = context;
  const q = url.searchParams.get("q");
  const meta = { title: t("admin.customers.title"), description: t("admin.customers.title") };
  const currency = services.settings.SHOP_CURRENCY;
  if (q === null) return { q: "", users: null, error: null, currency, meta };
  const parsed = UserSearchSchema.safeParse({ q });
  if (!parsed.success) return { q, users: null, error: t("admin.customers.qInvalid"), currency, meta };
  const users = await services.admin.customers.search(parsed.data.q);
  return {
    q,
    users: users.map((u) => ({ ...u, createdAt: u.createdAt.toISOString() })),
    error: null,
    currency,
    meta,
  };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export default function Customers({ loaderData: { q, users, error, currency } }: Route.ComponentProps) {
  const t = useT();
  const href = useHref();
  const date = useFormatDate();
  return (
    <section aria-labelledby="customers-title">
      <h1 id="customers-title">{t("admin.customers.title")}</h1>
      <Form method="get" className="admin-search" role="search">
        <div className="field">
          <label htmlFor="customer-q">{t("admin.customers.q")}</label>
          <input id="customer-q" name="q" type="search" defaultValue={q} maxLength={254} aria-describedby="customer-q-hint" aria-invalid={error ? true : undefined} />
          <p className="field-hint" id="customer-q-hint">
            {t("admin.customers.qHint")}
          </p>
        </div>
        <button type="submit" className="btn btn-primary">
          {t("admin.customers.search")}
        </button>
      </Form>
      <FormMessage errors={error ? [error] : undefined} />
      {users && (
        <>
          <p className="muted" role="status">
            {t("admin.customers.found", { count: users.length })}
          </p>
          <DataTable
            caption={t("admin.customers.results")}
            head={[t("admin.col.id"), t("admin.col.email"), t("admin.col.username"), t("admin.col.balance"), t("admin.col.created"), t("admin.col.state")]}
            empty={users.length === 0}
          >
            {users.map((u) => (
              <tr key={u.id}>
                <td>{u.id}</td>
                <td>
                  <Link to={href(`/admin/customers/${u.id}`)}>{u.email}</Link>
                </td>
                <td>{u.username ?? "—"}</td>
                <td className="num">
                  <Money minor={u.balance} currency={currency} />
                </td>
                <td>{date(u.createdAt, { time: true })}</td>
                <td>
                  {u.role && <Badge tone="accent">{t(`admin.role.${u.role}`)}</Badge>} {u.suspended && <Badge tone="warning">{t("admin.customer.suspended")}</Badge>}
                </td>
              </tr>
            ))}
          </DataTable>
        </>
      )}
    </section>
  );
}
