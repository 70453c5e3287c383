// /{game}/profile/balance: the balance (and what a refund left owed), a top-up through the payment
// provider, and the transactions (docs/product/data.md#ledger) in pages of 10, newest first, keyed by id
// (?before=<last id>).
// "Load more" is a GET form (a new page without JavaScript; with it, a fetcher appends the page).
import { useEffect, useState } from "react";
import { isRouteErrorResponse, Link, redirect, useFetcher, useLocation } from "react-router";
import { minorDigits } from "../../../core/shared/money.ts";
import { Card } from "../../components/ui/primitives.tsx";
import { Icon } from "../../components/ui/icons.tsx";
import { SubmitButton } from "../../components/forms.tsx";
import { Field, PageForm, replyTo, serverForm } from "../../components/fields.tsx";
import { notificationForStatus, useNotifications } from "../../components/notifications.tsx";
import { productName } from "../../components/commerce.tsx";
import { useLocale, useT } from "../../lib/i18n.tsx";
import { formatMoney } from "../../../i18n/format.ts";
import { useFormatDate } from "../../lib/dates.ts";
import { pageMeta } from "../../lib/meta.ts";
import { requireProfile } from "../../lib/guards.server.ts";
import { readSubmission, refuse } from "../../lib/forms.server.ts";
import { TRANSACTIONS_PAGE_SIZE, TransactionsPageSchema } from "../../../core/ledger/ledger.schema.ts";
import { topUpFormSchema } from "../../../core/payments/payments.schema.ts";
import { ProviderLogo } from "../../components/payment-logos.tsx";
import { DomainError } from "../../../core/shared/errors.ts";
import { z } from "zod";
import type { Route } from "./+types/balance.ts";
import type { Transaction } from "../../../core/ledger/index.ts";
import type { MessageKey, Translate } from "../../../i18n/translate.ts";
import type { Constraint, SubmissionResult } from "@conform-to/dom";

/** A transaction as the list shows it: the ledger's row with its products named. */
type Row = Omit<Transaction, "products"> & { items: string[] };

/** A receipt as the list shows it (docs/product/money.md#receipts): its lines named as its mail names them. */
type ReceiptRow = { id: number; number: string; createdAt: Date; lines: string[]; method: string; amount: number; currency: string };

/** One page of transactions; a failure carries the status the page reacts to
 * (docs/product/routes.md#failed-calls-in-the-browser). */
type TransactionPage = { ok: true; rows: Row[]; done: boolean } | { ok: false; status: number; rows: Row[] };

export async function loader({ context, url, params }: Route.LoaderArgs) {
  const { auth } = requireProfile(context, url, params);
  const { t, services } = context;
  const user = services.accounts.user(auth.user);
  const before = url.searchParams.get("before");

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

  // Deferred half too: the receipts (the latest 50). A failure shows a line in place of the list.
  let receipts: ReceiptRow[] | null;
  try {
    receipts = (await services.receipts.list(auth.user.id, 50)).map((receipt) => {
      const { lines, method } = services.receipts.describe(receipt, t);
      return { id: receipt.id, number: receipt.number, createdAt: receipt.createdAt, lines: lines.map((l) => l.text), method, amount: receipt.amount, currency: receipt.currency };
    });
  } catch (error) {
    services.logger.error({ err: error }, "receipts: list failed");
    receipts = null;
  }

  const { TOPUP_MIN, TOPUP_MAX } = services.settings;
  const unit = 10 ** minorDigits(user.currency);
  return {
    balance: user.balance,
    owed: user.owed,
    currency: user.currency,
    // The amount in the currency's major units, its range the setting's (the use case checks it).
    topup: {
      min: TOPUP_MIN,
      max: TOPUP_MAX,
      // Each with the amount the form posts (major units), so the browser needs no currency table.
      presets: TOPUP_PRESETS.filter((major) => major * unit >= TOPUP_MIN && major * unit <= TOPUP_MAX).map((major) => ({ minor: major * unit, posted: String(major) })),
      constraint: { amount: { required: true, min: TOPUP_MIN / unit, max: TOPUP_MAX / unit, step: 1 / unit } },
    },
    before: beforeId ?? null,
    providers: services.paymentProviders.map((p) => (p.provider.name === "btcpay" ? "btcpay" : "paypal")),
    page,
    receipts,
    meta: { title: t("balance.title"), description: t("balance.title") },
  };
}

/** What "Load more" gets when the server could not answer at all: the failed page alone. */
type PageOnly = { page: TransactionPage };

/**
 * In the browser, "Load more" (a fetcher, ?before=) that fails even where the loader could not
 * catch it — a dead server, a 500 — answers a failed page, which the list turns into the
 * notification (docs/product/routes.md#failed-calls-in-the-browser) instead of the error screen. Redirects (a session that ended) still apply.
 */
export async function clientLoader({ url, serverLoader }: Route.ClientLoaderArgs): Promise<Awaited<ReturnType<typeof loader>> | PageOnly> {
  if (!url.searchParams.has("before")) return serverLoader();
  try {
    return await serverLoader();
  } catch (error) {
    if (error instanceof Response) throw error;
    return { page: { ok: false, status: isRouteErrorResponse(error) ? error.status : 500, rows: [] } };
  }
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data && "meta" in data ? data : undefined);

export async function action({ context, request, url, params }: Route.ActionArgs) {
  const { auth } = requireProfile(context, url, params);
  const { services, shoppingArea, locale } = context;
  const submission = await readSubmission(
    context,
    request,
    topUpFormSchema(services.settings.SHOP_CURRENCY).extend({ intent: z.literal("topup"), provider: z.enum(["paypal", "btcpay"]).optional() }),
  );
  if (submission.status !== "success") return refuse(context, submission);
  try {
    // The provider the buyer picked among those on (docs/product/money.md#choosing-a-provider); the first one when not asked.
    const payments = submission.value.provider ? services.paymentsFor(submission.value.provider) : services.payments;
    if (!payments) return refuse(context, submission, new DomainError("not_found", "errors.provider_off"));
    const order = await payments.createOrder(auth.user.id, { amount: submission.value.amount, area: shoppingArea, locale });
    return redirect(order.approveUrl);
  } catch (error) {
    return refuse(context, submission, error);
  }
}

export default function Balance({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const { pathname } = useLocation();
  // The failed page alone is for the "Load more" fetcher; a navigation that got it has nothing else to show.
  if (!("balance" in loaderData)) throw new Error("the balance page's data did not load");
  const { balance, owed, currency, topup, before, page, receipts } = loaderData;
  return (
    <section aria-labelledby="balance-title" className="commerce">
      <h1 id="balance-title">{t("balance.title")}</h1>
      <div className="commerce-grid">
        <Card className="balance-card">
          <p className="muted small">{t("balance.current")}</p>
          <p className="stat" data-testid="balance">
            {formatMoney(balance, currency, locale)}
          </p>
          <p className="muted small">{t("balance.lead")}</p>
          {owed > 0 && (
            // What a refund left uncovered (docs/product/money.md#owed): the buyer sees it and how it is paid off.
            <div className="balance-owed">
              <p className="muted small">{t("balance.owed.title")}</p>
              <p className="stat" data-testid="owed">
                {formatMoney(owed, currency, locale)}
              </p>
              <p className="muted small">{t("balance.owed.note")}</p>
            </div>
          )}
        </Card>
        <Card as="section" className="topup-card">
          <h2 className="h3">{t("balance.topup.title")}</h2>
          <TopUp
            constraint={topup.constraint}
            currency={currency}
            range={t("balance.topup.range", { min: formatMoney(topup.min, currency, locale), max: formatMoney(topup.max, currency, locale) })}
            lastResult={replyTo(actionData, "topup")}
            providers={loaderData.providers}
          />
          <TopUpPresets presets={topup.presets} currency={currency} />
        </Card>
      </div>
      <Transactions key={`${pathname}|${before ?? ""}|${page.rows[0]?.id ?? ""}`} page={page} before={before} />
      <Receipts receipts={receipts} />
    </section>
  );
}

/** Ready amounts, in the currency's major units: about a week, a month and a season of one game. */
const TOPUP_PRESETS = [5, 10, 20, 50];

/** One post each, no typing: the same action as the form above, with the amount filled in. */
function TopUpPresets({ presets, currency }: { presets: { minor: number; posted: string }[]; currency: string }) {
  const t = useT();
  const locale = useLocale();
  if (presets.length === 0) return null;
  return (
    <div className="topup-presets">
      <p className="muted small">{t("balance.topup.presets")}</p>
      <ul>
        {presets.map(({ minor, posted }) => {
          const amount = formatMoney(minor, currency, locale);
          return (
            <li key={minor}>
              <form method="post">
                <input type="hidden" name="intent" value="topup" />
                <input type="hidden" name="amount" value={posted} />
                <button type="submit" className="btn btn-secondary btn-small" aria-label={t("balance.topup.presetLabel", { amount })}>
                  {amount}
                </button>
              </form>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** The top-up: an amount as a person types it; the action sends the buyer to the provider. */
function TopUp({
  constraint,
  currency,
  range,
  lastResult,
  providers,
}: {
  constraint: { amount: Constraint };
  currency: string;
  range: string;
  lastResult: SubmissionResult<string[]> | undefined;
  providers: string[];
}) {
  const t = useT();
  // The form's state from the server's last answer, without Conform in the browser (this page hydrates: docs/decisions/0047-hydrated-forms-without-conform.md).
  const { form, fields } = serverForm("topup", constraint, { lastResult });
  return (
    <PageForm form={form} className="form topup-form">
      <Field field={fields.amount} type="number" inputMode="decimal" unit={currency} label={t("balance.topup.amount", { currency })} hint={range} />
      {providers.length > 1 && (
        <fieldset className="provider-choice">
          <legend className="small">{t("payment.methods")}</legend>
          {providers.map((id, i) => (
            <label key={id} className="radio">
              <input type="radio" name="provider" value={id} defaultChecked={i === 0} />
              <ProviderLogo id={id} /> {t(id === "btcpay" ? "receipt.method.btcpay" : "receipt.method.paypal")}
            </label>
          ))}
        </fieldset>
      )}
      {providers.length === 1 && <input type="hidden" name="provider" value={providers[0]} />}
      <SubmitButton intent="topup" block={false}>
        {t("balance.topup.submit")}
      </SubmitButton>
      <p className="muted small">{t("balance.topup.note")}</p>
    </PageForm>
  );
}

function Transactions({ page, before }: { page: TransactionPage; before: number | null }) {
  const t = useT();
  const { pathname } = useLocation();
  const fetcher = useFetcher<typeof clientLoader>();
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
        <h2 className="h3" id="transactions-title">
          {t("balance.tx.title")}
        </h2>
        {before !== null && (
          <Link to={pathname} className="small">
            {t("balance.tx.newest")}
          </Link>
        )}
      </div>
      {rows.length === 0 && !failed ? <p className="muted empty">{t("balance.tx.empty")}</p> : rows.length > 0 ? <TransactionTable rows={rows} /> : null}
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

/** The buyer's receipts (docs/product/money.md#receipts), newest first; each was also mailed. */
function Receipts({ receipts }: { receipts: ReceiptRow[] | null }) {
  const formatDate = useFormatDate();
  const t = useT();
  const locale = useLocale();
  return (
    <Card as="section" className="receipts">
      <div className="section-head">
        <h2 className="h3" id="receipts-title">
          {t("balance.receipts.title")}
        </h2>
      </div>
      <p className="muted small">{t("balance.receipts.lead")}</p>
      {receipts === null ? (
        <p className="muted empty" role="alert">
          {t("balance.receipts.failed")}
        </p>
      ) : receipts.length === 0 ? (
        <p className="muted empty">{t("balance.receipts.empty")}</p>
      ) : (
        <div className="table-wrap">
          <table className="tx-table receipts-table" aria-labelledby="receipts-title">
            <thead>
              <tr>
                <th scope="col">{t("balance.receipts.number")}</th>
                <th scope="col">{t("balance.receipts.date")}</th>
                <th scope="col">{t("balance.receipts.items")}</th>
                <th scope="col">{t("balance.receipts.method")}</th>
                <th scope="col" className="num">
                  {t("balance.receipts.amount")}
                </th>
              </tr>
            </thead>
            <tbody>
              {receipts.map((receipt) => (
                <tr key={receipt.id} data-receipt={receipt.number}>
                  <td data-label={t("balance.receipts.number")}>{receipt.number}</td>
                  <td data-label={t("balance.receipts.date")}>
                    <time dateTime={receipt.createdAt.toISOString()}>{formatDate(receipt.createdAt)}</time>
                  </td>
                  <td data-label={t("balance.receipts.items")} className="details">
                    {receipt.lines.join(", ")}
                  </td>
                  <td data-label={t("balance.receipts.method")}>{receipt.method}</td>
                  <td data-label={t("balance.receipts.amount")} className="num amount">
                    {formatMoney(receipt.amount, receipt.currency, locale)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

function TransactionTable({ rows }: { rows: Row[] }) {
  const formatDate = useFormatDate();
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
            <th scope="col" className="num">
              {t("balance.tx.amount")}
            </th>
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
                  {via && (
                    <span className="muted tx-source">
                      {row.items.length > 0 ? " · " : ""}
                      {via}
                    </span>
                  )}
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
