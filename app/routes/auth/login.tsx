// /auth: sign in with e-mail or username and password; for a 2FA account the code step follows
// on the same page (the pre-2FA token waits in an HttpOnly cookie). The page runs no script
// (docs/decisions/0009-forms-on-the-server.md): its forms post to this action.
import { Form, Link, redirect } from "react-router";
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { ACCOUNT_FORMS } from "../../../core/accounts/accounts.constraints.ts";
import { ConfirmTwoFaSchema, LoginSchema } from "../../../core/accounts/accounts.schema.ts";
import { PRE2FA_COOKIE, pre2faCookie, serializeCookie, signInCookies } from "../../../server/http/cookies.ts";
import { Notice, SubmitButton } from "../../components/forms.tsx";
import { Field, PageForm, replyTo, usePageForm } from "../../components/page-form.tsx";
import { GuestCard } from "../../components/guest-card.tsx";
import { OrderSummary, type PendingOrder } from "../../components/order-summary.tsx";
import { Recaptcha, type RecaptchaWidget } from "../../components/recaptcha.tsx";
import { useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { pageMeta, selfPath } from "../../lib/meta.ts";
import { afterSignIn, readCookie, requireGuest } from "../../lib/guards.server.ts";
import { RedirectToSchema, cookieHeaders, guestFormPage, readSubmission, refuse, requestMeta } from "../../lib/forms.server.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/login.ts";

export const handle: RouteHandle = { hydrate: false };

/** The page's forms: the password, the code of the second step, and leaving that step. */
const LoginForms = z.discriminatedUnion("intent", [
  LoginSchema.extend({ intent: z.literal("password"), redirectTo: RedirectToSchema }),
  ConfirmTwoFaSchema.extend({ intent: z.literal("code"), redirectTo: RedirectToSchema }),
  z.object({ intent: z.literal("cancel") }),
]);

async function pendingTwoFa(context: Route.LoaderArgs["context"], request: Request) {
  const token = readCookie(request, PRE2FA_COOKIE);
  if (!token) return null;
  const found = await context.services.sessions.authenticate(token);
  return found?.session.kind === "pre2fa" ? found : null;
}

export async function loader({ context, request, url }: Route.LoaderArgs) {
  const { t } = context;
  const page = guestFormPage(context, request, url, { title: t("auth.login.title"), description: t("auth.login.description") });
  return {
    ...page,
    step: (await pendingTwoFa(context, request)) ? ("code" as const) : ("password" as const),
    notice: url.searchParams.get("notice"),
  };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export async function action({ context, request, url }: Route.ActionArgs) {
  requireGuest(context, request);
  const submission = await readSubmission(context, request, LoginForms, { t: readCookie(request, "t") });
  if (submission.status !== "success") return refuse(context, submission);
  const form = submission.value;
  const { services } = context;
  const secure = services.settings.secureCookies;
  const self = selfPath(url);
  try {
    switch (form.intent) {
      case "cancel":
        return redirect(self, { headers: { "Set-Cookie": serializeCookie(PRE2FA_COOKIE, "", { maxAge: 0, secure, httpOnly: true }) } });
      case "code": {
        const pending = await pendingTwoFa(context, request);
        if (!pending) return redirect(self);
        const { token } = await services.accounts.confirmTwoFa(pending.session.id, pending.user.id, form.code, requestMeta(context, request));
        return redirect(afterSignIn(context, request, form.redirectTo), { headers: cookieHeaders(signInCookies(token, secure)) });
      }
      case "password": {
        const result = await services.accounts.login(form, requestMeta(context, request));
        if (result.twoFa) return redirect(self, { headers: { "Set-Cookie": pre2faCookie(result.token, secure) } });
        return redirect(afterSignIn(context, request, form.redirectTo), { headers: cookieHeaders(signInCookies(result.token, secure)) });
      }
    }
  } catch (error) {
    return refuse(context, submission, error);
  }
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { step, redirectTo, order, notice, recaptcha } = loaderData;
  return step === "code" ? (
    <CodeStep redirectTo={redirectTo} lastResult={replyTo(actionData, "code")} />
  ) : (
    <PasswordStep redirectTo={redirectTo} order={order} notice={notice} recaptcha={recaptcha} lastResult={replyTo(actionData, "password")} />
  );
}

type StepProps = { redirectTo: string; lastResult: SubmissionResult<string[]> | undefined };

function PasswordStep({ redirectTo, order, notice, recaptcha, lastResult }: StepProps & { order: PendingOrder | null; notice: string | null; recaptcha: RecaptchaWidget | null }) {
  const t = useT();
  const href = useHref();
  const [form, fields] = usePageForm("login", ACCOUNT_FORMS.login, { lastResult });
  const onward = redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : "";
  return (
    <GuestCard
      title={t("auth.login.title")}
      lead={t("auth.login.lead")}
      links={
        <>
          <Link to={href("/auth/restore-password")}>{t("auth.login.forgot")}</Link>
          <Link to={href(`/auth/register${onward}`)}>{t("auth.login.register")}</Link>
        </>
      }
    >
      {notice === "password_reset" && <Notice>{t("auth.notice.passwordReset")}</Notice>}
      {notice === "account_deleted" && <Notice>{t("auth.notice.accountDeleted")}</Notice>}
      {order && <OrderSummary order={order} />}
      <PageForm form={form}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field field={fields.login} label={t("auth.field.login")} autoComplete="username" />
        <Field field={fields.password} type="password" label={t("auth.field.password")} autoComplete="current-password" />
        <Recaptcha widget={recaptcha} />
        <SubmitButton intent="password">{t("auth.login.submit")}</SubmitButton>
      </PageForm>
    </GuestCard>
  );
}

function CodeStep({ redirectTo, lastResult }: StepProps) {
  const t = useT();
  const [form, fields] = usePageForm("two-fa-step", ACCOUNT_FORMS.twoFaStep, { lastResult });
  return (
    <GuestCard title={t("auth.twoFa.title")} lead={t("auth.twoFa.lead")}>
      <PageForm form={form}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field field={fields.code} label={t("auth.twoFa.code")} hint={t("auth.twoFa.hint")} inputMode="numeric" autoComplete="one-time-code" autoFocus />
        <SubmitButton intent="code">{t("auth.twoFa.submit")}</SubmitButton>
      </PageForm>
      <Form method="post">
        <button type="submit" name="intent" value="cancel" className="btn btn-ghost btn-block">
          {t("auth.twoFa.cancel")}
        </button>
      </Form>
    </GuestCard>
  );
}
