// Pieces of the back-office pages (docs/product/back-office.md#pages): the reason every write
// takes, the step-up field of the forms that move money, a table that scrolls sideways on a
// phone, the "next page" link of a cursor-paged list and a money figure.
import type { FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import type { AdminPayment } from "../../core/admin/index.ts";
import type { AuditEntry } from "../../core/audit/index.ts";
import { formatMoney } from "../../i18n/format.ts";
import { useLocale, useT } from "../lib/i18n.tsx";
import { useHref } from "../lib/paths.ts";
import { useFormatDate } from "../lib/dates.ts";
import { Field, SelectField } from "./page-form.tsx";
import { FormMessage, Notice } from "./forms.tsx";
import { Badge } from "./ui/primitives.tsx";

type Metadata = FieldMetadata<string | undefined>;

/** Why: required on every operator write, kept in the audit log. */
export function ReasonField({ field }: { field: Metadata }) {
  const t = useT();
  return <Field field={field} label={t("admin.field.reason")} hint={t("admin.field.reasonHint")} maxLength={500} />;
}

/**
 * The step-up of a form that moves money (docs/product/back-office.md#step-up): while the window
 * is open, when it closes; otherwise a field for a code from the authenticator app, which opens
 * it for five minutes as the form is sent.
 */
export function StepUpField({ field, until }: { field: Metadata; until: string | null }) {
  const t = useT();
  const date = useFormatDate();
  if (until) return <Notice tone="info">{t("admin.stepUp.open", { until: date(until, { time: true }) })}</Notice>;
  return (
    <fieldset className="step-up">
      <legend>{t("admin.stepUp.title")}</legend>
      <Field field={field} label={t("admin.stepUp.code")} hint={t("admin.stepUp.hint")} inputMode="numeric" autoComplete="one-time-code" />
    </fieldset>
  );
}

/** A data table with its caption; scrolls sideways inside its frame on a narrow screen. */
export function DataTable({ caption, head, children, empty }: { caption: string; head: ReactNode[]; children: ReactNode; empty?: boolean }) {
  const t = useT();
  return (
    <div className="table-frame" role="region" aria-label={caption} tabIndex={0}>
      <table className="data-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {head.map((cell, i) => (
              <th key={i} scope="col">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {empty ? (
            <tr>
              <td colSpan={head.length} className="muted">
                {t("admin.table.empty")}
              </td>
            </tr>
          ) : (
            children
          )}
        </tbody>
      </table>
    </div>
  );
}

/** The link to the next page of a cursor-paged list: the same filter with `cursor`. */
export function NextPage({ cursor, filter }: { cursor: string | null; filter: Record<string, string> }) {
  const t = useT();
  if (cursor === null) return null;
  const query = new URLSearchParams(Object.entries(filter).filter(([, value]) => value !== ""));
  query.set("cursor", cursor);
  return (
    <p className="pager">
      <Link to={`?${query}`} className="btn btn-secondary btn-small" rel="next">
        {t("admin.table.next")}
      </Link>
    </p>
  );
}

/** A field of a list's filter form: its label and control (`id` is the control's). */
export function FilterField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}

/**
 * A filtered, cursor-paged list (the audit log, the payments): the filter form (a GET of the
 * page, so it works without JavaScript), the loader's message when the filter was refused, the
 * list itself and the link to its next page, which keeps the filter.
 */
export function FilteredList({
  filter,
  fields,
  error,
  nextCursor,
  children,
}: {
  filter: Record<string, string>;
  fields: ReactNode;
  error: string | null;
  nextCursor: string | null;
  children: ReactNode;
}) {
  const t = useT();
  return (
    <>
      <Form method="get" className="admin-filters" aria-label={t("admin.filters")}>
        {fields}
        <button type="submit" className="btn btn-primary">
          {t("admin.filter.apply")}
        </button>
      </Form>
      <FormMessage errors={error ? [error] : undefined} />
      {children}
      <NextPage cursor={nextCursor} filter={filter} />
    </>
  );
}

export function Money({ minor, currency }: { minor: number; currency: string }) {
  const locale = useLocale();
  return <span className="money">{formatMoney(minor, currency, locale)}</span>;
}

/** The rows of a payments table, each a link to its payment. */
export function PaymentRows({ payments }: { payments: AdminPayment[] }) {
  const t = useT();
  const date = useFormatDate();
  const href = useHref();
  return payments.map((p) => (
    <tr key={p.id}>
      <td>
        <Link to={href(`/admin/payments/${p.id}`)}>#{p.id}</Link>
      </td>
      <td>{date(p.createdAt, { time: true })}</td>
      <td>{p.userEmail ?? p.userId}</td>
      <td>{p.provider}</td>
      <td>
        <Badge tone={p.status === "completed" ? "success" : p.status === "created" || p.status === "approved" ? "muted" : "warning"}>{t(`admin.payment.status.${p.status}`)}</Badge>
      </td>
      <td className="num">
        <Money minor={p.amount} currency={p.currency} />
      </td>
      <td className="num">{p.refunded > 0 ? <Money minor={p.refunded} currency={p.currency} /> : "—"}</td>
    </tr>
  ));
}

/** The head of a payments table (this page's and the payments list's). */
export function usePaymentHead() {
  const t = useT();
  return [t("admin.col.id"), t("admin.col.date"), t("admin.col.customer"), t("admin.col.provider"), t("admin.col.state"), t("admin.col.amount"), t("admin.col.refunded")];
}

/** The audit entries table (this page's and the audit log's). */
export function AuditRows({ entries }: { entries: AuditEntry[] }) {
  const t = useT();
  const date = useFormatDate();
  const href = useHref();
  return (
    <DataTable
      caption={t("admin.audit.title")}
      head={[t("admin.col.date"), t("admin.col.actor"), t("admin.col.action"), t("admin.col.target"), t("admin.col.reason"), t("admin.col.change")]}
      empty={entries.length === 0}
    >
      {entries.map((e) => (
        <tr key={e.id}>
          <td>{date(e.at, { time: true })}</td>
          <td>{e.actorId === null ? t("admin.audit.commandLine") : <Link to={href(`/admin/audit?actor=${e.actorId}`)}>#{e.actorId}</Link>}</td>
          <td>
            <code>{e.action}</code>
          </td>
          <td>{e.targetType === "user" && e.targetId ? <Link to={href(`/admin/customers/${e.targetId}`)}>user:{e.targetId}</Link> : `${e.targetType}:${e.targetId ?? ""}`}</td>
          <td>{e.reason}</td>
          <td className="small audit-change">
            <code>{JSON.stringify(e.before)}</code> → <code>{JSON.stringify(e.after)}</code>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** Terms and their values, two columns (one on a phone). */
export function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="admin-facts">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The game of a form (grant, compensation): its options are the catalogue's games. */
export function GameSelect({ field, games, label }: { field: Metadata; games: { id: number; name: string }[]; label?: string }) {
  const t = useT();
  return (
    <SelectField field={field} label={label ?? t("admin.col.game")}>
      {games.map((g) => (
        <option key={g.id} value={g.id}>
          {g.name}
        </option>
      ))}
    </SelectField>
  );
}
