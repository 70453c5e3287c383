// /auth/restore-password: request a code by e-mail → enter the code (prefilled from the mailed
// link) → choose a new password. Every session of the account ends with the reset.
import { Form, Link, redirect, useActionData, useLoaderData, type MetaArgs } from "react-router";
import { PASSWORD_MIN, ResetRequestSchema, SetPasswordResetSchema, ValidateResetCodeSchema } from "../../../core/accounts/accounts.schema.ts";
import { localePath } from "../../../i18n/locales.ts";
import { Field } from "../../components/ui/primitives.tsx";
import { FormAlert, Notice, SubmitButton, fieldError } from "../../components/forms.tsx";
import { Recaptcha } from "../../components/recaptcha.tsx";
import { useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { pageMeta } from "../../lib/meta.ts";
import { requireGuest } from "../../lib/guards.server.ts";
import { formFailure, parseForm, readForm, requestMeta, type FormResult } from "../../lib/forms.server.ts";
import { recaptchaWidget } from "../../lib/recaptcha.server.ts";
import type { ActionArgs, LoaderArgs } from "../../lib/route-args.ts";

type Step = "request" | "code" | "password";
type ResetResult = FormResult | { ok: true; step: "password"; email: string; code: string };

export function loader({ context, request }: LoaderArgs) {
  requireGuest(context, request);
  const url = new URL(request.url);
  const { t } = context;
  const email = url.searchParams.get("email") ?? "";
  const code = /^\d{6}$/.test(url.searchParams.get("code") ?? "") ? url.searchParams.get("code")! : "";
  const step: Step = email && (code || url.searchParams.get("step") === "code") ? "code" : "request";
  return {
    step,
    email: email.slice(0, 254),
    code,
    sent: url.searchParams.get("step") === "code",
    recaptcha: recaptchaWidget(context),
    meta: { title: t("auth.reset.title"), description: t("auth.reset.description") },
  };
}

export const meta = ({ data }: MetaArgs<typeof loader>) => pageMeta(data);

export async function action({ context, request }: ActionArgs) {
  requireGuest(context, request);
  const fields = await readForm(request);
  const { accounts } = context.services;
  try {
    if (fields.intent === "request") {
      const input = parseForm(ResetRequestSchema, { email: fields.email, recaptchaToken: fields["g-recaptcha-response"] });
      await accounts.requestPasswordReset(input, requestMeta(context, request));
      return redirect(`${localePath(context.locale, "/auth/restore-password")}?step=code&email=${encodeURIComponent(input.email)}`);
    }
    if (fields.intent === "verify") {
      const input = parseForm(ValidateResetCodeSchema, { email: fields.email, resetCode: fields.code });
      await accounts.validateResetCode(input, requestMeta(context, request));
      return { ok: true as const, step: "password" as const, email: input.email, code: input.resetCode };
    }
    const input = parseForm(SetPasswordResetSchema, { email: fields.email, resetCode: fields.code, password: fields.password });
    await accounts.setPasswordReset(input, requestMeta(context, request));
    return redirect(`${localePath(context.locale, "/auth")}?notice=password_reset`);
  } catch (error) {
    return formFailure(context, error, fields, fields.intent);
  }
}

export default function RestorePassword() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<ResetResult>();
  const t = useT();
  const href = useHref();
  const failed = result && !result.ok ? result : undefined;
  const step: Step = result?.ok ? "password" : failed?.intent === "reset" ? "password" : failed?.intent === "verify" ? "code" : loaded.step;
  const email = result?.ok ? result.email : (failed?.values?.email ?? loaded.email);
  const code = result?.ok ? result.code : (failed?.intent === "reset" ? "" : loaded.code);
  return (
    <section className="card auth-card" aria-labelledby="auth-title">
      <h1 id="auth-title">{t("auth.reset.title")}</h1>
      <ol className="stepper" aria-label={t("auth.reset.steps")}>
        {(["request", "code", "password"] as const).map((s, i) => (
          <li key={s} aria-current={s === step ? "step" : undefined}>
            <span>{i + 1}</span> {t(`auth.reset.step.${s}`)}
          </li>
        ))}
      </ol>
      <FormAlert result={failed} />
      {step === "request" && (
        <Form method="post" className="form">
          <p className="muted">{t("auth.reset.requestLead")}</p>
          <Field id="email" name="email" type="email" label={t("auth.field.email")} autoComplete="email" required defaultValue={email} error={fieldError(failed, "email")} />
          <Recaptcha widget={loaded.recaptcha} />
          <SubmitButton intent="request">{t("auth.reset.requestSubmit")}</SubmitButton>
        </Form>
      )}
      {step === "code" && (
        <Form method="post" className="form">
          {loaded.sent && <Notice tone="info">{t("auth.reset.sent", { email })}</Notice>}
          <input type="hidden" name="email" value={email} />
          <Field
            id="code"
            name="code"
            label={t("auth.reset.code")}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="\d{6}"
            maxLength={6}
            required
            defaultValue={code}
            error={fieldError(failed, "resetCode")}
          />
          <SubmitButton intent="verify">{t("auth.reset.verify")}</SubmitButton>
          <Link className="btn btn-ghost btn-block" to={href("/auth/restore-password")}>
            {t("auth.reset.again")}
          </Link>
        </Form>
      )}
      {step === "password" && (
        <Form method="post" className="form">
          <input type="hidden" name="email" value={email} />
          <input type="hidden" name="code" value={code} />
          <Field
            id="password"
            name="password"
            type="password"
            label={t("auth.field.newPassword")}
            autoComplete="new-password"
            minLength={PASSWORD_MIN}
            required
            hint={t("auth.field.passwordHint", { min: PASSWORD_MIN })}
            error={fieldError(failed, "password")}
          />
          <SubmitButton intent="reset">{t("auth.reset.submit")}</SubmitButton>
        </Form>
      )}
      <p className="auth-links">
        <Link to={href("/auth")}>{t("auth.reset.back")}</Link>
      </p>
    </section>
  );
}
