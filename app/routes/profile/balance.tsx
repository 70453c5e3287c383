// /{game}/profile/balance: the balance (and what a refund left owed), a top-up through the payment
// provider, and the transactions (docs/product/data.md#ledger) in pages of 10, newest first, keyed by id
// (?before=<last id>).
// "Load more" is a GET form (a new page without JavaScript; with it, a fetcher appends the page).
import { useEffect, useState } from "react";
import {
  Form,
  isRouteErrorResponse,
  Link,
  redirect,
  useActionData,
  useFetcher,
  useLoaderData,
  useLocation,
  type ClientLoaderFunctionArgs,
  type MetaArgs,
} from "react-router";
import { minorDigits } from "../../../core/shared/money.ts";
import { Card } from "../../components/ui/primitives.tsx";
import { Icon } from "../../components/ui/icons.tsx";
import { FormAlert, SubmitButton, fieldError } from "../../components/forms.tsx";
import { notificationForStatus, useNotifications } from "../../components/notifications.tsx";
import { productName } from "../../components/commerce.tsx";
import { useLocale, useT } from "../../lib/i18n.tsx";
import { formatDate, formatMoney } from "../../../i18n/format.ts";
import { pageMeta, selfPath } from "../../lib/meta.ts";
import { requireProfile } from "../../lib/guards.server.ts";
import { formFailure, parseForm, readForm, type FormResult } from "../../lib/forms.server.ts";
import { TRANSACTIONS_PAGE_SIZE, TransactionsPageSchema } from "../../../core/ledger/ledger.schema.ts";
import { topUpFormSchema } from "../../../core/payments/payments.schema.ts";
import type { ActionArgs, LoaderArgs } from "../../lib/route-args.ts";
import type { Transaction } from "../../../core/ledger/index.ts";
import type { MessageKey, Translate } from "../../../i18n/translate.ts";

/** A transaction as the list shows it: the ledger's row with its products named. */
type Row = Omit<Transaction, "products"> & { items: string[] };

/** One page of transactions; a failure carries the status the page reacts to
 * (docs/product/routes.md#failed-calls-in-the-browser). */
type TransactionPage = { ok: true; rows: Row[]; done: boolean } | { ok: false; status: number; rows: Row[] };

export async function loader({ context, request, params }: LoaderArgs) {
  const { auth } = requireProfile(context, request, params);
  const { t, services } = context;
  const user = services.accounts.user(auth.user);
  const before = new URL(request.url).searchParams.get("before");

  // Deferred half: the transactions. Never fails the page: a failure is shown in place of the list.
  let page: TransactionPage;
  // The API's rule for ?before= (transaction ids are bigserial: any id a JS number holds exactly).
  const parsedBefore = before === null ? undefined : TransactionsPageSchema.shape.before.safeParse(before);
  const beforeId = parsedBefore?.success ? parsedBefore.data : undefined;
  if (parsedBefore && !parsedBefore.success) {
    page = { ok: false, status: 400, rows: [] };
  } else {
    try {
      const list = await services.ledger.list(auth.user.id, { limit: TRANSACTIONS_PAGE_SIZE, before: beforeId });
      const rows = list.map(({ products, ...tx }): Row => ({
        ...tx,
        items: products.map((p) => productName(t, services.catalog.cheatById(p.cheatId)?.name ?? p.title, p.days)),
      }));
      page = { ok: true, rows, done: rows.length < TRANSACTIONS_PAGE_SIZE };
    } catch (error) {
      services.logger.error({ err: error }, "transactions: list failed");
      page = { ok: false, status: 500, rows: [] };
    }
  }

  return {
    balance: user.balance,
    owed: user.owed,
    currency: user.currency,
    topup: { min: services.settings.TOPUP_MIN, max: services.settings.TOPUP_MAX, digits: minorDigits(user.currency) },
    before: beforeId ?? null,
    page,
    meta: { title: t("balance.title"), description: t("balance.title") },
  };
}

/**
 * In the browser, "Load more" (a fetcher, ?before=) that fails even where the loader could not
 * catch it — a dead server, a 500 — answers a failed page, which the list turns into the
 * notification (docs/product/routes.md#failed-calls-in-the-browser) instead of the error screen. Redirects (a session that ended) still apply.
 */
export async function clientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  if (!new URL(request.url).searchParams.has("before")) return serverLoader<typeof loader>();
  try {
    return await serverLoader<typeof loader>();
  } catch (error) {
    if (error instanceof Response) throw error;
    const failed: TransactionPage = { ok: false, status: isRouteErrorResponse(error) ? error.status : 500, rows: [] };
    // Only the fetcher reads this answer, and it reads the page alone.
    return { page: failed } as Awaited<ReturnType<typeof loader>>;
  }
}

export const meta = ({ data }: MetaArgs<typeof loader>) => pageMeta(data);

export async function action({ context, request, params }: ActionArgs) {
  const { auth } = requireProfile(context, request, params);
  const fields = await readForm(request);
  const { services, shoppingArea, locale } = context;
  try {
    if (fields.intent !== "topup") return redirect(selfPath(request));
    const { amount } = parseForm(topUpFormSchema(services.settings.SHOP_CURRENCY), fields);
    const order = await services.payments.createOrder(auth.user.id, { amount, area: shoppingArea, locale });
    return redirect(order.approveUrl);
  } catch (error) {
    return formFailure(context, error, fields, "topup");
  }
}

export default function Balance() {
  const { balance, owed, currency, topup, before, page } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const t = useT();
  const locale = useLocale();
  const { pathname } = useLocation();
  const step = 1 / 10 ** topup.digits;
  const major = (minor: number) => minor / 10 ** topup.digits;
  return (
    <section aria-labelledby="balance-title" className="commerce">
      <h1 id="balance-title">{t("balance.title")}</h1>
      <div className="commerce-grid">
        <Card className="balance-card">
          <p className="muted small">{t("balance.current")}</p>
          <p className="stat" data-testid="balance">{formatMoney(balance, currency, locale)}</p>
          <p className="muted small">{t("balance.lead")}</p>
          {owed > 0 && (
            // What a refund left uncovered (docs/product/money.md#owed): the buyer sees it and how it is paid off.
            <div className="balance-owed">
              <p className="muted small">{t("balance.owed.title")}</p>
              <p className="stat" data-testid="owed">{formatMoney(owed, currency, locale)}</p>
              <p className="muted small">{t("balance.owed.note")}</p>
            </div>
          )}
        </Card>
        <Card as="section" className="topup-card">
          <h2 className="h3">{t("balance.topup.title")}</h2>
          <FormAlert result={result} intent="topup" />
          <Form method="post" className="form topup-form">
            <div className={`field${fieldError(result, "amount", "topup") ? " field-invalid" : ""}`}>
              <label htmlFor="amount">{t("balance.topup.amount", { currency })}</label>
              <div className="amount-input">
                <input
                  id="amount"
                  name="amount"
                  type="number"
                  inputMode="decimal"
                  min={major(topup.min)}
                  max={major(topup.max)}
                  step={step}
                  required
                  defaultValue={result?.values?.amount ?? ""}
                  aria-invalid={fieldError(result, "amount", "topup") ? true : undefined}
                  aria-describedby={fieldError(result, "amount", "topup") ? "amount-error" : "amount-hint"}
                />
                <span className="amount-currency" aria-hidden="true">{currency}</span>
              </div>
              {fieldError(result, "amount", "topup") ? (
                <p className="field-error" id="amount-error" role="alert">{fieldError(result, "amount", "topup")}</p>
              ) : (
                <p className="field-hint" id="amount-hint">
                  {t("balance.topup.range", { min: formatMoney(topup.min, currency, locale), max: formatMoney(topup.max, currency, locale) })}
                </p>
              )}
            </div>
            <SubmitButton intent="topup" block={false}>{t("balance.topup.submit")}</SubmitButton>
            <p className="muted small">{t("balance.topup.note")}</p>
          </Form>
        </Card>
      </div>
      <Transactions key={`${pathname}|${before ?? ""}|${page.rows[0]?.id ?? ""}`} page={page} before={before} />
    </section>
  );
}

function Transactions({ page, before }: { page: TransactionPage; before: number | null }) {
  const t = useT();
  const { pathname } = useLocation();
  const fetcher = useFetcher<typeof loader>();
  const { notify } = useNotifications();
  const [rows, setRows] = useState<Row[]>(page.rows);
  const [done, setDone] = useState(page.ok ? page.done : true);
  const [failed, setFailed] = useState(!page.ok);

  // A page fetched with JavaScript is appended; a failed one becomes a notification (docs/product/routes.md#failed-calls-in-the-browser).
  const fetched = fetcher.state === "idle" ? fetcher.data?.page : undefined;
  useEffect(() => {
    if (!fetched) return;
    if (!fetched.ok) {
      setFailed(true);
      const n = notificationForStatus(fetched.status, t);
      if (n) notify(n);
      return;
    }
    setFailed(false);
    setRows((current) => {
      const seen = new Set(current.map((r) => r.id));
      return [...current, ...fetched.rows.filter((r) => !seen.has(r.id))];
    });
    setDone(fetched.done);
  }, [fetched, notify, t]);

  const last = rows.at(-1);
  const loading = fetcher.state !== "idle";
  return (
    <Card as="section" className="transactions">
      <div className="section-head">
        <h2 className="h3" id="transactions-title">{t("balance.tx.title")}</h2>
        {before !== null && (
          <Link to={pathname} className="small">
            {t("balance.tx.newest")}
          </Link>
        )}
      </div>
      {rows.length === 0 && !failed ? (
        <p className="muted empty">{t("balance.tx.empty")}</p>
      ) : rows.length > 0 ? (
        <TransactionTable rows={rows} />
      ) : null}
      {failed && (
        <p className="alert alert-error" role="alert">
          <Icon name="alert" size={18} /> <span>{t("balance.tx.failed")}</span>
        </p>
      )}
      {rows.length > 0 && done && !failed && (
        <p className="muted small tx-end" role="status">
          {t("balance.tx.noMore")}
        </p>
      )}
      {last && (!done || failed) && (
        <fetcher.Form method="get" action={pathname} className="load-more">
          <input type="hidden" name="before" value={last.id} />
          <button type="submit" className="btn btn-secondary" disabled={loading} aria-busy={loading || undefined}>
            {t("balance.tx.more")}
          </button>
        </fetcher.Form>
      )}
    </Card>
  );
}

/** The message of each status the ledger writes (db check transactions_status). */
const STATUS_MESSAGES = new Map<string, MessageKey>([
  ["completed", "tx.status.completed"],
  ["reversed", "tx.status.reversed"],
]);

/** A transaction's status in words; one this page does not know yet shows as it is stored. */
function statusText(t: Translate, status: string): string {
  const key = STATUS_MESSAGES.get(status);
  return key ? t(key) : status;
}

function TransactionTable({ rows }: { rows: Row[] }) {
  const t = useT();
  const locale = useLocale();
  return (
    <div className="table-wrap">
      <table className="tx-table" aria-labelledby="transactions-title">
        <thead>
          <tr>
            <th scope="col">{t("balance.tx.date")}</th>
            <th scope="col">{t("balance.tx.type")}</th>
            <th scope="col">{t("balance.tx.details")}</th>
            <th scope="col" className="num">{t("balance.tx.amount")}</th>
            <th scope="col">{t("balance.tx.status")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            // A balance change shows its sign; a product paid by the provider shows what was paid.
            const amount = row.amount !== 0 ? row.amount : row.paid;
            const tone = row.amount > 0 ? "plus" : row.amount < 0 ? "minus" : "";
            const via = row.source === "paypal" || row.source === "demo" ? t(`tx.source.${row.source}`) : null;
            return (
              <tr key={row.id}>
                <td data-label={t("balance.tx.date")}>
                  <time dateTime={row.createdAt.toISOString()}>{formatDate(row.createdAt)}</time>
                </td>
                <td data-label={t("balance.tx.type")}>{t(`tx.type.${row.type}`)}</td>
                <td data-label={t("balance.tx.details")} className="details">
                  {row.items.length > 0 && <span>{row.items.join(", ")}</span>}
                  {via && <span className="muted tx-source">{row.items.length > 0 ? " · " : ""}{via}</span>}
                  {!row.items.length && !via && <span className="muted">—</span>}
                </td>
                <td data-label={t("balance.tx.amount")} className={`num amount ${tone}`}>
                  {row.amount > 0 ? "+" : row.amount < 0 ? "−" : ""}
                  {formatMoney(Math.abs(amount), row.currency, locale)}
                </td>
                <td data-label={t("balance.tx.status")}>
                  <span className={`tx-status tx-status-${row.status}`}>{statusText(t, row.status)}</span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
