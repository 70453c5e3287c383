// /auth/register: e-mail, optional username, password. The visitor cookie `t` and the `referrer`
// cookie travel with the registration (docs/product/accounts.md#registration). The page runs no
// script (docs/decisions/0009-forms-on-the-server.md).
import { Link, redirect } from "react-router";
import { ACCOUNT_FORMS, PASSWORD_MIN } from "../../../core/accounts/accounts.constraints.ts";
import { RegisterSchema } from "../../../core/accounts/accounts.schema.ts";
import { signInCookies } from "../../../server/http/cookies.ts";
import { SubmitButton } from "../../components/forms.tsx";
import { Field, PageForm, replyTo, usePageForm } from "../../components/page-form.tsx";
import { GuestCard } from "../../components/guest-card.tsx";
import { OrderSummary } from "../../components/order-summary.tsx";
import { Recaptcha } from "../../components/recaptcha.tsx";
import { useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { pageMeta } from "../../lib/meta.ts";
import { afterSignIn, readCookie, requireGuest } from "../../lib/guards.server.ts";
import { RedirectToSchema, cookieHeaders, guestFormPage, readSubmission, refuse, requestMeta } from "../../lib/forms.server.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/register.ts";

export const handle: RouteHandle = { hydrate: false };

/** The page names the referrer by its cookie only, never by a field. */
const RegisterForm = RegisterSchema.omit({ referrer: true }).extend({ redirectTo: RedirectToSchema });

export function loader({ context, request, url }: Route.LoaderArgs) {
  const { t } = context;
  return {
    ...guestFormPage(context, request, url, { title: t("auth.register.title"), description: t("auth.register.description") }),
    invited: Boolean(readCookie(request, "referrer")),
  };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export async function action({ context, request }: Route.ActionArgs) {
  requireGuest(context, request);
  const submission = await readSubmission(context, request, RegisterForm, { t: readCookie(request, "t") });
  if (submission.status !== "success") return refuse(context, submission);
  try {
    const { token } = await context.services.accounts.register(submission.value, {
      ...requestMeta(context, request),
      referrerCode: readCookie(request, "referrer"),
    });
    return redirect(afterSignIn(context, request, submission.value.redirectTo), {
      headers: cookieHeaders(signInCookies(token, context.services.settings.secureCookies)),
    });
  } catch (error) {
    return refuse(context, submission, error);
  }
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const { redirectTo, order, invited, recaptcha } = loaderData;
  const t = useT();
  const href = useHref();
  const [form, fields] = usePageForm("register", ACCOUNT_FORMS.register, { lastResult: replyTo(actionData) });
  return (
    <GuestCard
      title={t("auth.register.title")}
      lead={t(invited ? "auth.register.invited" : "auth.register.lead")}
      links={
        <>
          <span className="muted">{t("auth.register.haveAccount")}</span>{" "}
          <Link to={href(`/auth${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`)}>{t("auth.register.signIn")}</Link>
        </>
      }
    >
      {order && <OrderSummary order={order} />}
      <PageForm form={form}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field field={fields.email} type="email" label={t("auth.field.email")} autoComplete="email" />
        <Field field={fields.username} label={t("auth.field.usernameOptional")} hint={t("auth.field.usernameHint")} autoComplete="nickname" />
        <Field field={fields.password} type="password" label={t("auth.field.password")} hint={t("auth.field.passwordHint", { min: PASSWORD_MIN })} autoComplete="new-password" />
        <Recaptcha widget={recaptcha} />
        <SubmitButton>{t("auth.register.submit")}</SubmitButton>
      </PageForm>
    </GuestCard>
  );
}
