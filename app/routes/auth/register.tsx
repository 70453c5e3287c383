// /auth/register: e-mail, optional username, password. The visitor cookie `t` and the `referrer`
// cookie travel with the registration (docs/product/accounts.md#registration).
import { Form, Link, redirect, useActionData, useLoaderData, type MetaArgs } from "react-router";
import { RegisterSchema, PASSWORD_MIN } from "../../../core/accounts/accounts.schema.ts";
import { signInCookies } from "../../../server/http/cookies.ts";
import { Field } from "../../components/ui/primitives.tsx";
import { FormAlert, SubmitButton, fieldError } from "../../components/forms.tsx";
import { Recaptcha } from "../../components/recaptcha.tsx";
import { useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { pageMeta } from "../../lib/meta.ts";
import { afterSignIn, readCookie, requireGuest } from "../../lib/guards.server.ts";
import { cookieHeaders, formFailure, parseForm, readForm, requestMeta, type FormResult } from "../../lib/forms.server.ts";
import { recaptchaWidget } from "../../lib/recaptcha.server.ts";
import type { ActionArgs, LoaderArgs } from "../../lib/route-args.ts";

export function loader({ context, request }: LoaderArgs) {
  requireGuest(context, request);
  const { t } = context;
  return {
    redirectTo: new URL(request.url).searchParams.get("redirectTo") ?? "",
    invited: Boolean(readCookie(request, "referrer")),
    recaptcha: recaptchaWidget(context),
    meta: { title: t("auth.register.title"), description: t("auth.register.description") },
  };
}

export const meta = ({ data }: MetaArgs<typeof loader>) => pageMeta(data);

export async function action({ context, request }: ActionArgs) {
  requireGuest(context, request);
  const fields = await readForm(request);
  try {
    const input = parseForm(RegisterSchema, {
      email: fields.email,
      password: fields.password,
      username: fields.username,
      recaptchaToken: fields["g-recaptcha-response"],
      t: readCookie(request, "t"),
    });
    const { token } = await context.services.accounts.register(input, {
      ...requestMeta(context, request),
      referrerCode: readCookie(request, "referrer"),
    });
    return redirect(afterSignIn(context, request, fields.redirectTo), {
      headers: cookieHeaders(signInCookies(token, context.services.settings.secureCookies)),
    });
  } catch (error) {
    return formFailure(context, error, fields);
  }
}

export default function Register() {
  const { redirectTo, invited, recaptcha } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const t = useT();
  const href = useHref();
  return (
    <section className="card auth-card" aria-labelledby="auth-title">
      <h1 id="auth-title">{t("auth.register.title")}</h1>
      <p className="muted">{t(invited ? "auth.register.invited" : "auth.register.lead")}</p>
      <FormAlert result={result} />
      <Form method="post" className="form">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field id="email" name="email" type="email" label={t("auth.field.email")} autoComplete="email" required defaultValue={result?.values?.email} error={fieldError(result, "email")} />
        <Field
          id="username"
          name="username"
          label={t("auth.field.usernameOptional")}
          autoComplete="nickname"
          hint={t("auth.field.usernameHint")}
          defaultValue={result?.values?.username}
          error={fieldError(result, "username")}
        />
        <Field
          id="password"
          name="password"
          type="password"
          label={t("auth.field.password")}
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          hint={t("auth.field.passwordHint", { min: PASSWORD_MIN })}
          error={fieldError(result, "password")}
        />
        <Recaptcha widget={recaptcha} />
        <SubmitButton>{t("auth.register.submit")}</SubmitButton>
      </Form>
      <p className="auth-links">
        <span className="muted">{t("auth.register.haveAccount")}</span>{" "}
        <Link to={href(`/auth${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`)}>{t("auth.register.signIn")}</Link>
      </p>
    </section>
  );
}
