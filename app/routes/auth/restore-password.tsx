// /auth/restore-password: request a code by e-mail → enter the code (prefilled from the mailed
// link) → choose a new password. Every session of the account ends with the reset. The page runs
// no script (docs/decisions/0009-forms-on-the-server.md): each step is a form posting its intent.
import { Link, redirect } from "react-router";
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { ACCOUNT_FORMS, EMAIL_MAX, PASSWORD_MIN } from "../../../core/accounts/accounts.constraints.ts";
import { ResetRequestSchema, SetPasswordResetSchema, ValidateResetCodeSchema } from "../../../core/accounts/accounts.schema.ts";
import { localePath } from "../../../i18n/locales.ts";
import { Notice, SubmitButton } from "../../components/forms.tsx";
import { Field, PageForm, replyTo, usePageForm } from "../../components/page-form.tsx";
import { GuestCard } from "../../components/guest-card.tsx";
import { Recaptcha, type RecaptchaWidget } from "../../components/recaptcha.tsx";
import { useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { pageMeta } from "../../lib/meta.ts";
import { requireGuest } from "../../lib/guards.server.ts";
import { guestFormPage, readSubmission, refuse, requestMeta } from "../../lib/forms.server.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/restore-password.ts";

export const handle: RouteHandle = { hydrate: false };

type Step = "request" | "code" | "password";

const ResetForms = z.discriminatedUnion("intent", [
  ResetRequestSchema.extend({ intent: z.literal("request") }),
  ValidateResetCodeSchema.extend({ intent: z.literal("verify") }),
  SetPasswordResetSchema.extend({ intent: z.literal("reset") }),
]);

export function loader({ context, request, url }: Route.LoaderArgs) {
  const { t } = context;
  const page = guestFormPage(context, request, url, { title: t("auth.reset.title"), description: t("auth.reset.description") });
  const email = url.searchParams.get("email") ?? "";
  const code = /^\d{6}$/.test(url.searchParams.get("code") ?? "") ? url.searchParams.get("code")! : "";
  const step: Step = email && (code || url.searchParams.get("step") === "code") ? "code" : "request";
  return { ...page, step, email: email.slice(0, EMAIL_MAX), code, sent: url.searchParams.get("step") === "code" };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export async function action({ context, request }: Route.ActionArgs) {
  requireGuest(context, request);
  const submission = await readSubmission(context, request, ResetForms);
  // The last step posts the code the page handed it: a refused password keeps it for the next try.
  const keep = submission.payload.intent === "reset" ? ["resetCode"] : [];
  if (submission.status !== "success") return refuse(context, submission, undefined, { keep });
  const form = submission.value;
  const { accounts } = context.services;
  try {
    switch (form.intent) {
      case "request":
        await accounts.requestPasswordReset(form, requestMeta(context, request));
        return redirect(`${localePath(context.locale, "/auth/restore-password")}?step=code&email=${encodeURIComponent(form.email)}`);
      case "verify":
        await accounts.validateResetCode(form, requestMeta(context, request));
        return { ok: true as const, step: "password" as const, email: form.email, code: form.resetCode };
      case "reset":
        await accounts.setPasswordReset(form, requestMeta(context, request));
        return redirect(`${localePath(context.locale, "/auth")}?notice=password_reset`);
    }
  } catch (error) {
    return refuse(context, submission, error, { keep });
  }
}

export default function RestorePassword({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const href = useHref();
  const verified = actionData?.ok ? actionData : undefined;
  const refused = actionData && !actionData.ok ? actionData.intent : undefined;
  const step: Step = verified || refused === "reset" ? "password" : refused === "verify" ? "code" : loaderData.step;
  return (
    <GuestCard title={t("auth.reset.title")} links={<Link to={href("/auth")}>{t("auth.reset.back")}</Link>}>
      <ol className="stepper" aria-label={t("auth.reset.steps")}>
        {(["request", "code", "password"] as const).map((s, i) => (
          <li key={s} aria-current={s === step ? "step" : undefined}>
            <span>{i + 1}</span> {t(`auth.reset.step.${s}`)}
          </li>
        ))}
      </ol>
      {step === "request" && <RequestStep email={loaderData.email} recaptcha={loaderData.recaptcha} lastResult={replyTo(actionData, "request")} />}
      {step === "code" && <CodeStep email={loaderData.email} code={loaderData.code} sent={loaderData.sent} lastResult={replyTo(actionData, "verify")} />}
      {step === "password" && <PasswordStep email={verified?.email} code={verified?.code} lastResult={replyTo(actionData, "reset")} />}
    </GuestCard>
  );
}

type Reply = { lastResult: SubmissionResult<string[]> | undefined };

function RequestStep({ email, recaptcha, lastResult }: Reply & { email: string; recaptcha: RecaptchaWidget | null }) {
  const t = useT();
  const [form, fields] = usePageForm("reset-request", ACCOUNT_FORMS.resetRequest, { lastResult, defaultValue: { email } });
  return (
    <PageForm form={form}>
      <p className="muted">{t("auth.reset.requestLead")}</p>
      <Field field={fields.email} type="email" label={t("auth.field.email")} autoComplete="email" />
      <Recaptcha widget={recaptcha} />
      <SubmitButton intent="request">{t("auth.reset.requestSubmit")}</SubmitButton>
    </PageForm>
  );
}

function CodeStep({ email, code, sent, lastResult }: Reply & { email: string; code: string; sent: boolean }) {
  const t = useT();
  const href = useHref();
  const [form, fields] = usePageForm("reset-code", { email: {}, ...ACCOUNT_FORMS.resetCode }, { lastResult, defaultValue: { email, resetCode: code } });
  const shownEmail = fields.email.initialValue ?? email;
  return (
    <PageForm form={form}>
      {sent && <Notice tone="info">{t("auth.reset.sent", { email: shownEmail })}</Notice>}
      <input type="hidden" name="email" value={shownEmail} />
      <Field field={fields.resetCode} label={t("auth.reset.code")} inputMode="numeric" autoComplete="one-time-code" />
      <SubmitButton intent="verify">{t("auth.reset.verify")}</SubmitButton>
      <Link className="btn btn-ghost btn-block" to={href("/auth/restore-password")}>
        {t("auth.reset.again")}
      </Link>
    </PageForm>
  );
}

/** The new password, with the e-mail and code the second step verified (or the refused post kept). */
function PasswordStep({ email, code, lastResult }: Reply & { email?: string; code?: string }) {
  const t = useT();
  const [form, fields] = usePageForm("reset-password", { email: {}, resetCode: {}, ...ACCOUNT_FORMS.resetPassword }, { lastResult, defaultValue: { email, resetCode: code } });
  return (
    <PageForm form={form}>
      <input type="hidden" name="email" value={fields.email.initialValue ?? ""} />
      <input type="hidden" name="resetCode" value={fields.resetCode.initialValue ?? ""} />
      <Field field={fields.password} type="password" label={t("auth.field.newPassword")} hint={t("auth.field.passwordHint", { min: PASSWORD_MIN })} autoComplete="new-password" />
      <SubmitButton intent="reset">{t("auth.reset.submit")}</SubmitButton>
    </PageForm>
  );
}
