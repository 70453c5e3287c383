// /admin/compensation: N days to every pass of a game held now (docs/product/back-office.md#compensation)
// — active or frozen, the set fixed when the call starts — with a reason, after a step-up; owner
// only. The form carries an Idempotency-Key made when the page was drawn: the same form sent again
// (a double click, a reload, a call that died part-way) is the same compensation, resumed, never a
// second one. The call answers when every pass is extended, with the count; the buyers' mails follow.
import { z } from "zod";
import { CompensationSchema } from "../../../core/admin/index.ts";
import { may } from "../../../core/operators/index.ts";
import { GameSelect, ReasonField, StepUpField } from "../../components/admin.tsx";
import { FormMessage, Notice, SubmitButton } from "../../components/forms.tsx";
import { Field, PageForm, replyTo, usePageForm } from "../../components/page-form.tsx";
import { Card } from "../../components/ui/primitives.tsx";
import { actorOf, permit, requireOperatorPage, requireStepUp, stepUpState } from "../../lib/admin.server.ts";
import { readSubmission, refuse } from "../../lib/forms.server.ts";
import { useT } from "../../lib/i18n.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/compensation.ts";

export const handle: RouteHandle = { hydrate: false };

const CompensationForm = CompensationSchema.extend({ idempotency_key: z.uuid("validation.invalid") });

export function loader({ context, request, url }: Route.LoaderArgs) {
  const operator = requireOperatorPage(context, request, url);
  const { t, services } = context;
  return {
    allowed: may(operator.role, "compensate"),
    games: services.catalog.cheats().map(({ id, name }) => ({ id, name })),
    stepUpUntil: stepUpState(context, operator),
    idempotencyKey: crypto.randomUUID(),
    meta: { title: t("admin.compensation.title"), description: t("admin.compensation.lead") },
  };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export async function action({ context, request, url }: Route.ActionArgs) {
  const operator = requireOperatorPage(context, request, url);
  const submission = await readSubmission(context, request, CompensationForm);
  if (submission.status !== "success") return refuse(context, submission);
  const form = submission.value;
  const { admin, background, catalog } = context.services;
  try {
    permit(context, operator, "compensate");
    await requireStepUp(context, operator, form.code);
    const result = await admin.compensations.compensate(actorOf(context, operator), {
      cheatId: form.cheat_id,
      days: form.days,
      reason: form.reason,
      idempotencyKey: form.idempotency_key,
    });
    // The mails follow the answer; the jobs send whatever a stopped process left.
    void background.run(() => admin.compensations.sendMails(result.id));
    return { ok: true as const, affected: result.affected, days: result.days, game: catalog.cheatById(result.cheatId)?.name ?? "" };
  } catch (error) {
    return refuse(context, submission, error);
  }
}

export default function Compensation({ loaderData: { allowed, games, stepUpUntil, idempotencyKey }, actionData }: Route.ComponentProps) {
  const t = useT();
  const lastResult = replyTo(actionData);
  const [form, fields] = usePageForm(
    "compensation",
    { cheat_id: { required: true }, days: { required: true, min: 1, max: 365 }, reason: { required: true, maxLength: 500 }, code: {} },
    { lastResult },
  );
  const done = actionData && "affected" in actionData ? actionData : undefined;
  const postedKey = lastResult?.initialValue?.idempotency_key;
  return (
    <section aria-labelledby="compensation-title">
      <h1 id="compensation-title">{t("admin.compensation.title")}</h1>
      <p className="muted">{t("admin.compensation.lead")}</p>
      {done && <Notice>{t("admin.compensation.done", { count: done.affected, days: done.days, game: done.game })}</Notice>}
      {allowed ? (
        <Card as="section" className="admin-narrow">
          <PageForm form={form}>
            <input type="hidden" name="idempotency_key" value={typeof postedKey === "string" ? postedKey : idempotencyKey} />
            <GameSelect field={fields.cheat_id} games={games} />
            <Field field={fields.days} type="number" label={t("admin.compensation.days")} hint={t("admin.compensation.daysHint")} />
            <ReasonField field={fields.reason} />
            <StepUpField field={fields.code} until={stepUpUntil} />
            <SubmitButton block={false}>{t("admin.compensation.submit")}</SubmitButton>
          </PageForm>
        </Card>
      ) : (
        <FormMessage errors={[t("errors.admin_owner_only")]} />
      )}
    </section>
  );
}
