// /admin/customers/{id}: the customer an operator works from (docs/product/back-office.md#customers)
// — profile, passes per game (state, expiry, frozen time), the ledger with its running balance,
// payments, sessions, referrals, notifications and mails, the audit of the account — and the
// actions, each with a reason and audited by the core: grant or remove days, adjust the balance
// (owner, after a step-up), suspend and lift, reset two-factor codes, end sessions, resend a mail.
// Each action is a form posting its `intent`; a done action comes back to the page with `?done=`.
import { Link, redirect } from "react-router";
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { balanceFormSchema, EndSessionsSchema, GrantSchema, MAX_GRANT_DAYS, ReasonOnlySchema, ResendMailSchema } from "../../../core/admin/index.ts";
import { may, SUPPORT_MAX_DAYS, type Permission } from "../../../core/operators/index.ts";
import { IdTextSchema } from "../../../core/shared/schema.ts";
import { AuditRows, DataTable, Facts, GameSelect, Money, PaymentRows, ReasonField, StepUpField, usePaymentHead } from "../../components/admin.tsx";
import { FormMessage, messagesOf, Notice, SubmitButton } from "../../components/forms.tsx";
import { Field, PageForm, replyTo, SelectField, usePageForm } from "../../components/page-form.tsx";
import { Badge, Card } from "../../components/ui/primitives.tsx";
import { actorOf, permit, requireOperatorPage, requireStepUp, stepUpState } from "../../lib/admin.server.ts";
import { useFormatDate } from "../../lib/dates.ts";
import { readSubmission, refuse } from "../../lib/forms.server.ts";
import { useT } from "../../lib/i18n.tsx";
import { notFound, pageMeta, selfPath } from "../../lib/meta.ts";
import { useHref } from "../../lib/paths.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/customer.ts";

export const handle: RouteHandle = { hydrate: false };

const task = <I extends string>(intent: I) => ({ intent: z.literal(intent) });

/** Every form of the page, by its intent. */
function customerForms(currency: string) {
  return z.discriminatedUnion("intent", [
    GrantSchema.extend(task("grant")),
    balanceFormSchema(currency).extend(task("balance")),
    ReasonOnlySchema.extend(task("suspend")),
    ReasonOnlySchema.extend(task("unsuspend")),
    ReasonOnlySchema.extend(task("reset-2fa")),
    EndSessionsSchema.extend(task("end-sessions")),
    ResendMailSchema.extend(task("resend")),
  ]);
}

/** What each form needs the role to allow (docs/product/back-office.md#roles). */
const PERMISSION = {
  grant: "grant_days",
  balance: "adjust_balance",
  suspend: "suspend",
  unsuspend: "suspend",
  "reset-2fa": "reset_two_fa",
  "end-sessions": "end_sessions",
  resend: "resend_mail",
} as const satisfies Record<string, Permission>;
type Done = keyof typeof PERMISSION;
const DONE = Object.keys(PERMISSION) as Done[];

/** The customer's id from the path; anything else names nobody (404). */
function customerId(url: URL, params: { id?: string }): number {
  const parsed = IdTextSchema.safeParse(params.id);
  if (!parsed.success) notFound(url);
  return parsed.data;
}

export async function loader({ context, request, url, params }: Route.LoaderArgs) {
  const operator = requireOperatorPage(context, request, url);
  const { t, services } = context;
  const id = customerId(url, params);
  const detail = await services.admin.customers.detail(id, t).catch((error: unknown) => {
    if (error instanceof Error && "code" in error && error.code === "not_found") notFound(url);
    throw error;
  });
  const done = url.searchParams.get("done");
  return {
    ...detail,
    /** What the operator's role may do here (docs/product/back-office.md#roles). */
    canAdjustBalance: may(operator.role, "adjust_balance"),
    maxGrantDays: operator.role === "owner" ? MAX_GRANT_DAYS : SUPPORT_MAX_DAYS,
    stepUpUntil: stepUpState(context, operator),
    games: services.catalog.cheats().map(({ id: cheatId, name }) => ({ id: cheatId, name })),
    done: (DONE as readonly string[]).includes(done ?? "") ? (done as Done) : null,
    meta: { title: t("admin.customer.title", { email: detail.user.email }), description: t("admin.customers.title") },
  };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export async function action({ context, request, url, params }: Route.ActionArgs) {
  const operator = requireOperatorPage(context, request, url);
  const id = customerId(url, params);
  const { customers } = context.services.admin;
  const submission = await readSubmission(context, request, customerForms(context.services.settings.SHOP_CURRENCY));
  if (submission.status !== "success") return refuse(context, submission);
  const form = submission.value;
  const actor = actorOf(context, operator);
  try {
    permit(context, operator, PERMISSION[form.intent]);
    switch (form.intent) {
      case "grant":
        await customers.grant(actor, id, { cheatId: form.cheat_id, days: form.days, reason: form.reason });
        break;
      case "balance":
        await requireStepUp(context, operator, form.code);
        await customers.adjustBalance(actor, id, { amount: form.amount, reason: form.reason });
        break;
      case "suspend":
        await customers.suspend(actor, id, form.reason);
        break;
      case "unsuspend":
        await customers.unsuspend(actor, id, form.reason);
        break;
      case "reset-2fa":
        await customers.resetTwoFa(actor, id, form.reason);
        break;
      case "end-sessions":
        await customers.endSessions(actor, id, { sessionId: form.session_id, reason: form.reason });
        break;
      case "resend":
        await customers.resendMail(actor, id, { mailId: form.mail_id, reason: form.reason });
        break;
    }
  } catch (error) {
    return refuse(context, submission, error);
  }
  return redirect(`${selfPath(url, false)}?done=${form.intent}`);
}

type Data = Route.ComponentProps["loaderData"];

/** The forms the page shows now, by intent. */
function shownForms(data: Data): Set<string> {
  if (data.user.role !== null) return new Set();
  const shown = new Set<string>(["grant", data.user.suspended ? "unsuspend" : "suspend"]);
  if (data.canAdjustBalance) shown.add("balance");
  if (data.user.twoFaEnabled) shown.add("reset-2fa");
  if (data.sessions.some((s) => s.live)) shown.add("end-sessions");
  if (data.mails.some((m) => m.resendable)) shown.add("resend");
  return shown;
}

/** A refusal of a form the page no longer shows (posted from an older page, or not the role's): its message at the top. */
function unshownRefusal(data: Data, answer: Route.ComponentProps["actionData"]): string[] | undefined {
  if (!answer || !("result" in answer) || shownForms(data).has(answer.intent)) return undefined;
  return messagesOf(answer.result);
}
type Reply = { lastResult: SubmissionResult<string[]> | undefined };

/** Seconds as days and hours ("3 days 4 h"). */
function useDuration() {
  const t = useT();
  return (seconds: number) => t("admin.duration", { days: Math.floor(seconds / 86_400), hours: Math.floor((seconds % 86_400) / 3600) });
}

export default function Customer({ loaderData, actionData }: Route.ComponentProps) {
  const { user, done } = loaderData;
  const t = useT();
  const href = useHref();
  return (
    <section aria-labelledby="customer-title" className="admin-customer">
      <p className="muted small">
        <Link to={href("/admin/customers")}>{t("admin.customers.title")}</Link> / #{user.id}
      </p>
      <h1 id="customer-title">
        {user.email} {user.role && <Badge tone="accent">{t(`admin.role.${user.role}`)}</Badge>} {user.suspended && <Badge tone="warning">{t("admin.customer.suspended")}</Badge>}
      </h1>
      {done && <Notice>{t(`admin.done.${done}`)}</Notice>}
      <FormMessage errors={unshownRefusal(loaderData, actionData)} />
      <div className="admin-columns">
        <Profile user={user} />
        <Passes data={loaderData} />
      </div>
      {user.role === null ? <Actions data={loaderData} actionData={actionData} /> : <Notice tone="info">{t("errors.admin_target_operator")}</Notice>}
      <Ledger data={loaderData} />
      <Payments data={loaderData} />
      <Sessions data={loaderData} lastResult={replyTo(actionData, "end-sessions")} canAct={user.role === null} />
      <Devices data={loaderData} />
      <Referrals data={loaderData} />
      <Inbox data={loaderData} />
      <Mails data={loaderData} lastResult={replyTo(actionData, "resend")} canAct={user.role === null} />
      <AccountAudit data={loaderData} />
    </section>
  );
}

function Profile({ user }: { user: Data["user"] }) {
  const t = useT();
  const date = useFormatDate();
  const rows: [string, React.ReactNode][] = [
    [t("admin.col.id"), user.id],
    [t("admin.col.username"), user.username ?? "—"],
    [t("admin.col.balance"), <Money key="b" minor={user.balance} currency={user.currency} />],
    [t("admin.customer.owed"), <Money key="o" minor={user.owed} currency={user.currency} />],
    [t("admin.customer.locale"), user.locale],
    [t("admin.customer.twoFa"), user.twoFaEnabled ? t("profile.overview.on") : t("profile.overview.off")],
    [t("admin.customer.referralCode"), <code key="r">{user.referralCode}</code>],
    [t("admin.customer.visitorId"), user.visitorId ?? "—"],
    [t("admin.customer.signupIp"), user.signupIp ?? "—"],
    [t("admin.col.created"), date(user.createdAt, { time: true })],
    [t("admin.customer.marketing"), user.allowMarketing ? t("profile.overview.on") : t("profile.overview.off")],
  ];
  if (user.pendingEmail) rows.push([t("admin.customer.pendingEmail"), user.pendingEmail]);
  if (user.suspendedAt) rows.push([t("admin.customer.suspendedAt"), `${date(user.suspendedAt, { time: true })} — ${user.suspendedReason ?? ""}`]);
  return (
    <Card as="section" className="admin-card-section">
      <h2 className="h3">{t("admin.customer.profile")}</h2>
      <Facts rows={rows} />
    </Card>
  );
}

function Passes({ data }: { data: Data }) {
  const t = useT();
  const date = useFormatDate();
  const duration = useDuration();
  return (
    <Card as="section" className="admin-card-section">
      <h2 className="h3">{t("admin.customer.passes")}</h2>
      <DataTable caption={t("admin.customer.passes")} head={[t("admin.col.game"), t("admin.col.state"), t("admin.col.expires"), t("admin.col.frozen")]} empty={data.subscriptions.length === 0}>
        {data.subscriptions.map((s) => (
          <tr key={s.cheatId}>
            <td>{s.game?.name ?? s.cheatId}</td>
            <td>
              <Badge tone={s.state === "active" ? "success" : s.state === "frozen" ? "accent" : "muted"}>{t(`sub.state.${s.state}`)}</Badge>
            </td>
            <td>{s.state === "frozen" ? "—" : date(s.expiresAt, { time: true })}</td>
            <td>{s.state === "frozen" ? duration(s.frozenLength) : "—"}</td>
          </tr>
        ))}
      </DataTable>
    </Card>
  );
}

function Actions({ data, actionData }: { data: Data; actionData: Route.ComponentProps["actionData"] }) {
  const t = useT();
  return (
    <section aria-labelledby="customer-actions" className="admin-actions">
      <h2 id="customer-actions" className="h3">
        {t("admin.customer.actions")}
      </h2>
      <div className="admin-grid">
        <GrantForm games={data.games} max={data.maxGrantDays} lastResult={replyTo(actionData, "grant")} />
        {data.canAdjustBalance && <BalanceForm currency={data.user.currency} stepUpUntil={data.stepUpUntil} lastResult={replyTo(actionData, "balance")} />}
        <ReasonForm intent={data.user.suspended ? "unsuspend" : "suspend"} lastResult={replyTo(actionData, data.user.suspended ? "unsuspend" : "suspend")} />
        {data.user.twoFaEnabled && <ReasonForm intent="reset-2fa" lastResult={replyTo(actionData, "reset-2fa")} />}
      </div>
    </section>
  );
}

const REASON = { reason: { required: true, maxLength: 500 } };

function GrantForm({ games, max, lastResult }: Reply & { games: Data["games"]; max: number }) {
  const t = useT();
  const [form, fields] = usePageForm("grant", { cheat_id: { required: true }, days: { required: true, min: -max, max }, ...REASON }, { lastResult });
  return (
    <Card as="section">
      <h3>{t("admin.grant.title")}</h3>
      <PageForm form={form}>
        <GameSelect field={fields.cheat_id} games={games} />
        <Field field={fields.days} type="number" label={t("admin.grant.days")} hint={t("admin.grant.daysHint", { max })} />
        <ReasonField field={fields.reason} />
        <SubmitButton intent="grant" block={false}>
          {t("admin.grant.submit")}
        </SubmitButton>
      </PageForm>
    </Card>
  );
}

function BalanceForm({ currency, stepUpUntil, lastResult }: Reply & { currency: string; stepUpUntil: string | null }) {
  const t = useT();
  const [form, fields] = usePageForm("balance", { amount: { required: true }, code: {}, ...REASON }, { lastResult });
  return (
    <Card as="section">
      <h3>{t("admin.balance.title")}</h3>
      <PageForm form={form}>
        <Field field={fields.amount} label={t("admin.balance.amount")} hint={t("admin.balance.amountHint")} unit={currency} inputMode="decimal" />
        <ReasonField field={fields.reason} />
        <StepUpField field={fields.code} until={stepUpUntil} />
        <SubmitButton intent="balance" block={false}>
          {t("admin.balance.submit")}
        </SubmitButton>
      </PageForm>
    </Card>
  );
}

/** Suspend, lift or reset two-factor codes: the reason alone. */
function ReasonForm({ intent, lastResult }: Reply & { intent: "suspend" | "unsuspend" | "reset-2fa" }) {
  const t = useT();
  const [form, fields] = usePageForm(intent, REASON, { lastResult });
  return (
    <Card as="section">
      <h3>{t(`admin.${intent}.title`)}</h3>
      <p className="muted small">{t(`admin.${intent}.lead`)}</p>
      <PageForm form={form}>
        <ReasonField field={fields.reason} />
        <SubmitButton intent={intent} variant={intent === "unsuspend" ? "primary" : "danger"} block={false}>
          {t(`admin.${intent}.submit`)}
        </SubmitButton>
      </PageForm>
    </Card>
  );
}

function Ledger({ data }: { data: Data }) {
  const t = useT();
  const href = useHref();
  const date = useFormatDate();
  return (
    <Card as="section" className="admin-card-section">
      <h2 className="h3">{t("admin.customer.ledger")}</h2>
      <DataTable
        caption={t("admin.customer.ledger")}
        head={[t("admin.col.date"), t("admin.col.type"), t("admin.col.amount"), t("admin.col.balanceAfter"), t("admin.col.reference")]}
        empty={data.transactions.length === 0}
      >
        {data.transactions.map((tx) => (
          <tr key={tx.id}>
            <td>{date(tx.createdAt, { time: true })}</td>
            <td>
              {t(`tx.type.${tx.type}`)}
              {tx.products[0] && <span className="muted small"> · {tx.products[0].title}</span>}
            </td>
            <td className="num">
              <Money minor={tx.amount} currency={tx.currency} />
            </td>
            <td className="num">
              <Money minor={tx.balanceAfter} currency={tx.currency} />
            </td>
            <td className="small">{tx.orderId ? <Link to={href(`/admin/payments/${tx.orderId}`)}>#{tx.orderId}</Link> : (tx.reference ?? "—")}</td>
          </tr>
        ))}
      </DataTable>
    </Card>
  );
}

function Payments({ data }: { data: Data }) {
  const t = useT();
  const head = usePaymentHead();
  return (
    <Card as="section" className="admin-card-section">
      <h2 className="h3">{t("admin.payments.title")}</h2>
      <DataTable caption={t("admin.payments.title")} head={head} empty={data.payments.length === 0}>
        <PaymentRows payments={data.payments} />
      </DataTable>
    </Card>
  );
}

function Sessions({ data, lastResult, canAct }: Reply & { data: Data; canAct: boolean }) {
  const t = useT();
  const date = useFormatDate();
  const live = data.sessions.filter((s) => s.live);
  const [form, fields] = usePageForm("end-sessions", { session_id: {}, ...REASON }, { lastResult });
  return (
    <Card as="section" className="admin-card-section">
      <h2 className="h3">{t("admin.customer.sessions")}</h2>
      <DataTable
        caption={t("admin.customer.sessions")}
        head={[t("admin.col.id"), t("admin.col.created"), t("admin.col.lastSeen"), t("admin.col.ip"), t("admin.col.state")]}
        empty={data.sessions.length === 0}
      >
        {data.sessions.map((s) => (
          <tr key={s.id}>
            <td>{s.id}</td>
            <td>{date(s.createdAt, { time: true })}</td>
            <td>{date(s.lastSeenAt, { time: true })}</td>
            <td className="small" title={s.userAgent ?? undefined}>
              {s.ip ?? "—"}
            </td>
            <td>{s.live ? <Badge tone="success">{t("admin.session.live")}</Badge> : <Badge tone="muted">{t("admin.session.ended")}</Badge>}</td>
          </tr>
        ))}
      </DataTable>
      {canAct && live.length > 0 && (
        <PageForm form={form} className="form admin-inline-form">
          <SelectField field={fields.session_id} label={t("admin.session.which")}>
            <option value="">{t("admin.session.all")}</option>
            {live.map((s) => (
              <option key={s.id} value={s.id}>
                #{s.id} · {s.ip ?? "—"}
              </option>
            ))}
          </SelectField>
          <ReasonField field={fields.reason} />
          <SubmitButton intent="end-sessions" variant="danger" block={false}>
            {t("admin.session.end")}
          </SubmitButton>
        </PageForm>
      )}
    </Card>
  );
}

/** The devices bound to the buyer's licences (docs/product/delivery.md#licences). */
function Devices({ data }: { data: Data }) {
  const t = useT();
  const date = useFormatDate();
  const gameName = (cheatId: number) => data.games.find((g) => g.id === cheatId)?.name ?? String(cheatId);
  return (
    <Card as="section" className="admin-card-section">
      <h2 className="h3">{t("admin.customer.devices")}</h2>
      <DataTable
        caption={t("admin.customer.devices")}
        head={[t("admin.col.id"), t("admin.col.game"), t("admin.col.clientVersion"), t("admin.col.created"), t("admin.col.lastSeen")]}
        empty={data.devices.length === 0}
      >
        {data.devices.map((d) => (
          <tr key={d.id}>
            <td>{d.id}</td>
            <td>{gameName(d.cheatId)}</td>
            <td>{d.clientVersion ?? "—"}</td>
            <td>{date(d.firstSeenAt, { time: true })}</td>
            <td>{date(d.lastSeenAt, { time: true })}</td>
          </tr>
        ))}
      </DataTable>
    </Card>
  );
}

function Referrals({ data }: { data: Data }) {
  const t = useT();
  const href = useHref();
  const date = useFormatDate();
  const { referrer, invited, rewards } = data.referrals;
  return (
    <Card as="section" className="admin-card-section">
      <h2 className="h3">{t("admin.customer.referrals")}</h2>
      <p>
        {t("admin.referrals.referrer")}: {referrer ? <Link to={href(`/admin/customers/${referrer.id}`)}>{referrer.email}</Link> : "—"} · {t("admin.referrals.invited", { count: invited })}
      </p>
      {rewards.length > 0 && (
        <DataTable caption={t("admin.referrals.rewards")} head={[t("admin.col.date"), t("admin.col.customer"), t("admin.col.amount"), t("admin.col.state")]}>
          {rewards.map((r) => (
            <tr key={r.id}>
              <td>{date(r.createdAt, { time: true })}</td>
              <td>
                <Link to={href(`/admin/customers/${r.buyerId}`)}>#{r.buyerId}</Link>
              </td>
              <td className="num">
                <Money minor={r.amount - r.reversed} currency={data.user.currency} />
              </td>
              <td>{r.status}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </Card>
  );
}

function Inbox({ data }: { data: Data }) {
  const t = useT();
  const date = useFormatDate();
  return (
    <Card as="section" className="admin-card-section">
      <h2 className="h3">{t("admin.customer.notifications")}</h2>
      <DataTable caption={t("admin.customer.notifications")} head={[t("admin.col.date"), t("admin.col.title"), t("admin.col.state")]} empty={data.notifications.length === 0}>
        {data.notifications.map((n) => (
          <tr key={n.id}>
            <td>{date(n.createdAt, { time: true })}</td>
            <td>{n.title}</td>
            <td>{n.read ? t("admin.notification.read") : t("admin.notification.unread")}</td>
          </tr>
        ))}
      </DataTable>
    </Card>
  );
}

function Mails({ data, lastResult, canAct }: Reply & { data: Data; canAct: boolean }) {
  const t = useT();
  const date = useFormatDate();
  const resendable = data.mails.filter((m) => m.resendable);
  const [form, fields] = usePageForm("resend", { mail_id: { required: true }, ...REASON }, { lastResult });
  return (
    <Card as="section" className="admin-card-section">
      <h2 className="h3">{t("admin.customer.mails")}</h2>
      <DataTable caption={t("admin.customer.mails")} head={[t("admin.col.date"), t("admin.col.title"), t("admin.col.state")]} empty={data.mails.length === 0}>
        {data.mails.map((m) => (
          <tr key={m.id}>
            <td>{date(m.createdAt, { time: true })}</td>
            <td>{m.subject}</td>
            <td>{m.status}</td>
          </tr>
        ))}
      </DataTable>
      {canAct && resendable.length > 0 && (
        <PageForm form={form} className="form admin-inline-form">
          <SelectField field={fields.mail_id} label={t("admin.mail.which")}>
            {resendable.map((m) => (
              <option key={m.id} value={m.id}>
                #{m.id} · {m.subject}
              </option>
            ))}
          </SelectField>
          <ReasonField field={fields.reason} />
          <SubmitButton intent="resend" variant="secondary" block={false}>
            {t("admin.mail.resend")}
          </SubmitButton>
        </PageForm>
      )}
    </Card>
  );
}

function AccountAudit({ data }: { data: Data }) {
  const t = useT();
  const href = useHref();
  return (
    <Card as="section" className="admin-card-section">
      <h2 className="h3">{t("admin.customer.audit")}</h2>
      <AuditRows entries={data.audit} />
      <p>
        <Link to={href(`/admin/audit?target=user:${data.user.id}`)}>{t("admin.audit.all")}</Link>
      </p>
    </Card>
  );
}
