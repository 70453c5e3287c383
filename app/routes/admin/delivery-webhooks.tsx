// /admin/delivery/webhooks (docs/product/delivery.md#webhooks): the endpoints (URL, events, the secret's first
// characters) each with its delivery log (event, user, status, attempts, the last answer, the next try) and a
// "resend" per delivery; adding one (its secret shown this once) and removing one. Every form asks for the reason
// the audit log keeps. Plain posts to this page's action, no client code.
import { WEBHOOK_EVENT_TYPES, WebhookForms } from "./delivery-webhooks.server.ts";

import { getInputProps } from "@conform-to/react";
import { Badge, Card } from "../../components/ui/primitives.tsx";
import { Notice, SubmitButton } from "../../components/forms.tsx";
import { Field, PageForm, replyTo, usePageForm } from "../../components/page-form.tsx";
import { useFormatDate } from "../../lib/dates.ts";
import { useT } from "../../lib/i18n.tsx";
import { pageMeta } from "../../lib/meta.ts";
import { readSubmission, refuse } from "../../lib/forms.server.ts";
import { requireOperatorPage } from "../../lib/operator.server.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/delivery-webhooks.ts";

export const handle: RouteHandle = { hydrate: false };

const ADD = { url: { required: true, maxLength: 2048 }, secret: { minLength: 16, maxLength: 200 }, events: { required: true, multiple: true }, reason: { required: true, maxLength: 500 } };
const REASON = { reason: { required: true, maxLength: 500 } };

export async function loader({ context, url }: Route.LoaderArgs) {
  requireOperatorPage(context, url, "delivery");
  return {
    endpoints: await context.services.webhooks.list(),
    eventTypes: [...WEBHOOK_EVENT_TYPES],
    meta: { title: context.t("delivery.admin.webhooks.title"), description: context.t("delivery.admin.title") },
  };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export async function action({ context, request, url }: Route.ActionArgs) {
  const operator = requireOperatorPage(context, url, "delivery");
  const submission = await readSubmission(context, request, WebhookForms);
  if (submission.status !== "success") return refuse(context, submission);
  const form = submission.value;
  const by = { actorId: operator.id, ip: context.clientIp, reason: form.reason };
  const { webhooks } = context.services;
  try {
    switch (form.intent) {
      case "add": {
        const created = await webhooks.create({ url: form.url, secret: form.secret, events: form.events }, by);
        return { ok: true as const, intent: form.intent, id: created.id, secret: created.secret, result: submission.reply({ resetForm: true }) };
      }
      case "remove":
        await webhooks.remove(form.endpoint_id, by);
        return { ok: true as const, intent: form.intent };
      case "resend":
        await webhooks.resend(form.delivery_id, by);
        return { ok: true as const, intent: form.intent };
    }
  } catch (error) {
    return refuse(context, submission, error);
  }
}

type Reply = Route.ComponentProps["actionData"];

export default function DeliveryWebhooks({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const done = actionData && "ok" in actionData && actionData.ok ? actionData : undefined;
  return (
    <>
      {done?.intent === "add" && "secret" in done && (
        <Notice>
          {t("delivery.admin.webhooks.created")} <code className="mono">{done.secret}</code>
        </Notice>
      )}
      {done?.intent === "remove" && <Notice>{t("delivery.admin.webhooks.removed")}</Notice>}
      {done?.intent === "resend" && <Notice>{t("delivery.admin.webhooks.resent")}</Notice>}
      <AddEndpoint actionData={actionData} eventTypes={loaderData.eventTypes} />
      <section aria-labelledby="endpoints-title">
        <h2 id="endpoints-title" className="h3">
          {t("delivery.admin.webhooks.title")}
        </h2>
        {loaderData.endpoints.length === 0 ? (
          <p className="muted">{t("delivery.admin.webhooks.none")}</p>
        ) : (
          loaderData.endpoints.map((e) => <EndpointCard key={e.id} endpoint={e} actionData={actionData} />)
        )}
      </section>
    </>
  );
}

function AddEndpoint({ actionData, eventTypes }: { actionData: Reply; eventTypes: readonly string[] }) {
  const t = useT();
  const [form, fields] = usePageForm("add", ADD, { lastResult: replyTo(actionData, "add") });
  return (
    <Card as="section" className="settings-card">
      <h2 className="h3">{t("delivery.admin.webhooks.add")}</h2>
      <PageForm form={form}>
        <Field field={fields.url} label={t("delivery.admin.webhooks.url")} hint={t("delivery.admin.webhooks.urlHint")} inputMode="url" />
        <Field field={fields.secret} label={t("delivery.admin.webhooks.secret")} hint={t("delivery.admin.webhooks.secretHint")} autoComplete="off" />
        <fieldset className={`field${fields.events.errors?.length ? " field-invalid" : ""}`}>
          <legend>{t("delivery.admin.webhooks.events")}</legend>
          {eventTypes.map((type) => (
            <label key={type} className="check">
              <input type="checkbox" name={fields.events.name} value={type} defaultChecked={fields.events.initialValue === undefined || [fields.events.initialValue].flat().includes(type)} />{" "}
              <code>{type}</code>
            </label>
          ))}
          {fields.events.errors?.length ? (
            <p className="field-error" role="alert">
              {fields.events.errors.join(" ")}
            </p>
          ) : null}
        </fieldset>
        <Field field={fields.reason} label={t("delivery.admin.reason")} />
        <SubmitButton intent="add" block={false}>
          {t("delivery.admin.webhooks.submit")}
        </SubmitButton>
      </PageForm>
    </Card>
  );
}

type EndpointData = Route.ComponentProps["loaderData"]["endpoints"][number];

const TONE = { delivered: "success", pending: "warning", failed: "muted" } as const;

function EndpointCard({ endpoint, actionData }: { endpoint: EndpointData; actionData: Reply }) {
  const t = useT();
  const date = useFormatDate();
  const [remove, removeFields] = usePageForm(`remove-${endpoint.id}`, REASON, { lastResult: replyTo(actionData, "remove") });
  return (
    <Card as="article" className="settings-card webhook-endpoint">
      <h3 className="h4">
        <code>{endpoint.url}</code>
      </h3>
      <p className="muted small">
        {endpoint.events.join(", ")} · {t("delivery.admin.webhooks.secretShown", { hint: endpoint.secretHint })} · {date(endpoint.createdAt, { time: true })}
      </p>
      <h4 className="label">{t("delivery.admin.webhooks.log")}</h4>
      {endpoint.deliveries.length === 0 ? (
        <p className="muted">{t("delivery.admin.webhooks.logNone")}</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>{t("delivery.admin.col.event")}</th>
                <th>{t("delivery.admin.col.user")}</th>
                <th>{t("delivery.admin.col.status")}</th>
                <th>{t("delivery.admin.col.attempts")}</th>
                <th>{t("delivery.admin.col.last")}</th>
                <th>{t("delivery.admin.col.created")}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {endpoint.deliveries.map((d) => (
                <tr key={d.id} data-delivery={d.id}>
                  <td>
                    <code>{d.type}</code>
                  </td>
                  <td>{d.userId}</td>
                  <td>
                    <Badge tone={TONE[d.status]}>{t(`delivery.admin.status.${d.status}`)}</Badge>
                    {d.status === "pending" && <p className="muted small">{t("delivery.admin.webhooks.next", { date: date(d.nextAttemptAt, { time: true }) })}</p>}
                  </td>
                  <td>{d.attempts}</td>
                  <td>{d.lastStatus !== null ? `HTTP ${d.lastStatus}` : (d.lastError ?? "–")}</td>
                  <td>{date(d.createdAt, { time: true })}</td>
                  <td>{d.status !== "pending" && <ResendForm deliveryId={d.id} actionData={actionData} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <details>
        <summary>{t("delivery.admin.webhooks.remove")}</summary>
        <PageForm form={remove}>
          <input type="hidden" name="endpoint_id" value={endpoint.id} />
          <Field field={removeFields.reason} label={t("delivery.admin.reason")} />
          <SubmitButton intent="remove" variant="danger" block={false}>
            {t("delivery.admin.webhooks.remove")}
          </SubmitButton>
        </PageForm>
      </details>
    </Card>
  );
}

function ResendForm({ deliveryId, actionData }: { deliveryId: number; actionData: Reply }) {
  const t = useT();
  const [form, fields] = usePageForm(`resend-${deliveryId}`, REASON, { lastResult: replyTo(actionData, "resend") });
  return (
    <details>
      <summary>{t("delivery.admin.webhooks.resend")}</summary>
      <PageForm form={form} className="form form-compact">
        <input type="hidden" name="delivery_id" value={deliveryId} />
        <input {...getInputProps(fields.reason, { type: "text" })} aria-label={t("delivery.admin.reason")} placeholder={t("delivery.admin.reason")} />
        <SubmitButton intent="resend" variant="secondary" block={false}>
          {t("delivery.admin.webhooks.resend")}
        </SubmitButton>
      </PageForm>
    </details>
  );
}
