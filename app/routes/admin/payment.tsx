// /admin/payments/{id}: one payment and its refund (docs/product/back-office.md#payments) — full
// (no amount) or partial, through the provider's refund API, applied once by the core
// (docs/product/money.md#refunds-and-reversals), after a step-up. The form carries a request key
// made when the page was drawn, so a form sent twice (a double click, a reload) is one refund.
import { Link, redirect } from "react-router";
import { z } from "zod";
import { refundFormSchema } from "../../../core/admin/index.ts";
import { may } from "../../../core/operators/index.ts";
import { IdTextSchema } from "../../../core/shared/schema.ts";
import { Facts, Money, ReasonField, StepUpField } from "../../components/admin.tsx";
import { Notice, SubmitButton } from "../../components/forms.tsx";
import { Field, PageForm, replyTo, usePageForm } from "../../components/page-form.tsx";
import { Badge, Card } from "../../components/ui/primitives.tsx";
import { actorOf, permit, requireOperatorPage, requireStepUp, stepUpState } from "../../lib/admin.server.ts";
import { useFormatDate } from "../../lib/dates.ts";
import { readSubmission, refuse } from "../../lib/forms.server.ts";
import { useT } from "../../lib/i18n.tsx";
import { notFound, pageMeta, selfPath } from "../../lib/meta.ts";
import { useHref } from "../../lib/paths.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/payment.ts";
import { DomainError } from "../../../core/shared/errors.ts";

/** The refund's request key: one per drawn form; a refused form keeps its own (the same refund if the provider got it). */
const RequestKey = z.uuid("validation.invalid");

export const handle: RouteHandle = { hydrate: false };

async function paymentOf(context: Route.LoaderArgs["context"], url: URL, params: { id?: string }) {
  const parsed = IdTextSchema.safeParse(params.id);
  if (!parsed.success) notFound(url);
  try {
    return await context.services.admin.payments.byId(parsed.data);
  } catch (error) {
    if (error instanceof DomainError && error.code === "not_found") notFound(url);
    throw error;
  }
}

export async function loader({ context, request, url, params }: Route.LoaderArgs) {
  const operator = requireOperatorPage(context, request, url);
  const payment = await paymentOf(context, url, params);
  const { t } = context;
  return {
    payment,
    canRefund: may(operator.role, "refund") && (payment.status === "completed" || payment.status === "partially_refunded") && payment.amount > payment.refunded,
    stepUpUntil: stepUpState(context, operator),
    requestKey: crypto.randomUUID(),
    refunded: url.searchParams.get("done") === "refund",
    meta: { title: t("admin.payment.title", { id: payment.id }), description: t("admin.payments.title") },
  };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export async function action({ context, request, url, params }: Route.ActionArgs) {
  const operator = requireOperatorPage(context, request, url);
  const payment = await paymentOf(context, url, params);
  const submission = await readSubmission(context, request, refundFormSchema(payment.currency).extend({ request_key: RequestKey }));
  if (submission.status !== "success") return refuse(context, submission);
  const form = submission.value;
  try {
    permit(context, operator, "refund");
    await requireStepUp(context, operator, form.code);
    await context.services.admin.payments.refund(actorOf(context, operator), payment.id, { amount: form.amount, reason: form.reason, requestKey: form.request_key });
  } catch (error) {
    return refuse(context, submission, error);
  }
  return redirect(`${selfPath(url, false)}?done=refund`);
}

export default function Payment({ loaderData: { payment, canRefund, stepUpUntil, requestKey, refunded }, actionData }: Route.ComponentProps) {
  const t = useT();
  const href = useHref();
  const date = useFormatDate();
  const rows: [string, React.ReactNode][] = [
    [
      t("admin.col.customer"),
      <Link key="c" to={href(`/admin/customers/${payment.userId}`)}>
        {payment.userEmail ?? `#${payment.userId}`}
      </Link>,
    ],
    [t("admin.col.date"), date(payment.createdAt, { time: true })],
    [t("admin.col.provider"), payment.provider],
    [t("admin.col.state"), <Badge key="s">{t(`admin.payment.status.${payment.status}`)}</Badge>],
    [t("admin.col.amount"), <Money key="a" minor={payment.amount} currency={payment.currency} />],
    [t("admin.col.refunded"), <Money key="r" minor={payment.refunded} currency={payment.currency} />],
    [t("admin.payment.product"), payment.product?.title ?? t("tx.type.topup")],
    [t("admin.payment.providerOrder"), payment.providerOrderId ?? "—"],
    [t("admin.payment.capture"), payment.captureId ?? "—"],
  ];
  if (payment.disputedAt) rows.push([t("admin.payment.disputed"), date(payment.disputedAt, { time: true })]);
  return (
    <section aria-labelledby="payment-title">
      <p className="muted small">
        <Link to={href("/admin/payments")}>{t("admin.payments.title")}</Link> / #{payment.id}
      </p>
      <h1 id="payment-title">{t("admin.payment.title", { id: payment.id })}</h1>
      {refunded && <Notice>{t("admin.done.refund")}</Notice>}
      <div className="admin-columns">
        <Card as="section" className="admin-card-section">
          <Facts rows={rows} />
        </Card>
        {canRefund && <RefundForm currency={payment.currency} left={payment.amount - payment.refunded} stepUpUntil={stepUpUntil} requestKey={requestKey} lastResult={replyTo(actionData)} />}
      </div>
    </section>
  );
}

function RefundForm({
  currency,
  left,
  stepUpUntil,
  requestKey,
  lastResult,
}: {
  currency: string;
  left: number;
  stepUpUntil: string | null;
  requestKey: string;
  lastResult: ReturnType<typeof replyTo>;
}) {
  const t = useT();
  const [form, fields] = usePageForm("refund", { amount: {}, reason: { required: true, maxLength: 500 }, code: {} }, { lastResult });
  return (
    <Card as="section">
      <h2 className="h3">{t("admin.refund.title")}</h2>
      <p className="muted small">
        {t("admin.refund.left")}: <Money minor={left} currency={currency} />
      </p>
      <PageForm form={form}>
        <input type="hidden" name="request_key" value={typeof lastResult?.initialValue?.request_key === "string" ? lastResult.initialValue.request_key : requestKey} />
        <Field field={fields.amount} label={t("admin.refund.amount")} hint={t("admin.refund.amountHint")} unit={currency} inputMode="decimal" />
        <ReasonField field={fields.reason} />
        <StepUpField field={fields.code} until={stepUpUntil} />
        <SubmitButton variant="danger" block={false}>
          {t("admin.refund.submit")}
        </SubmitButton>
      </PageForm>
    </Card>
  );
}
