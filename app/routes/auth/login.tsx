// /auth: sign in with e-mail or username and password; for a 2FA account the code step follows
// on the same page (the pre-2FA token waits in an HttpOnly cookie).
import { Form, Link, redirect, useActionData, useLoaderData, type MetaArgs } from "react-router";
import { ConfirmTwoFaSchema, LoginSchema } from "../../../core/accounts/accounts.schema.ts";
import { PRE2FA_COOKIE, pre2faCookie, serializeCookie, signInCookies } from "../../../server/http/cookies.ts";
import { Field } from "../../components/ui/primitives.tsx";
import { FormAlert, Notice, SubmitButton, fieldError } from "../../components/forms.tsx";
import { Recaptcha } from "../../components/recaptcha.tsx";
import { useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { pageMeta, selfPath } from "../../lib/meta.ts";
import { afterSignIn, readCookie, requireGuest } from "../../lib/guards.server.ts";
import { cookieHeaders, formFailure, parseForm, readForm, requestMeta, type FormResult } from "../../lib/forms.server.ts";
import { recaptchaWidget } from "../../lib/recaptcha.server.ts";
import type { ActionArgs, LoaderArgs } from "../../lib/route-args.ts";

async function pendingTwoFa(context: LoaderArgs["context"], request: Request) {
  const token = readCookie(request, PRE2FA_COOKIE);
  if (!token) return null;
  const found = await context.services.sessions.authenticate(token);
  return found?.session.kind === "pre2fa" ? found : null;
}

export async function loader({ context, request }: LoaderArgs) {
  requireGuest(context, request);
  const url = new URL(request.url);
  const { t } = context;
  return {
    step: (await pendingTwoFa(context, request)) ? ("code" as const) : ("password" as const),
    redirectTo: url.searchParams.get("redirectTo") ?? "",
    notice: url.searchParams.get("notice"),
    recaptcha: recaptchaWidget(context),
    meta: { title: t("auth.login.title"), description: t("auth.login.description") },
  };
}

export const meta = ({ data }: MetaArgs<typeof loader>) => pageMeta(data);

export async function action({ context, request }: ActionArgs) {
  requireGuest(context, request);
  const fields = await readForm(request);
  const { services } = context;
  const secure = services.settings.secureCookies;
  const self = selfPath(request);
  try {
    if (fields.intent === "cancel") {
      return redirect(self, { headers: { "Set-Cookie": serializeCookie(PRE2FA_COOKIE, "", { maxAge: 0, secure, httpOnly: true }) } });
    }
    if (fields.intent === "code") {
      const pending = await pendingTwoFa(context, request);
      if (!pending) return redirect(self);
      const { code } = parseForm(ConfirmTwoFaSchema, fields);
      const { token } = await services.accounts.confirmTwoFa(pending.session.id, pending.user.id, code, requestMeta(context, request));
      return redirect(afterSignIn(context, request, fields.redirectTo), { headers: cookieHeaders(signInCookies(token, secure)) });
    }
    const input = parseForm(LoginSchema, {
      login: fields.login,
      password: fields.password,
      recaptchaToken: fields["g-recaptcha-response"],
      t: readCookie(request, "t"),
    });
    const result = await services.accounts.login(input, requestMeta(context, request));
    if (result.twoFa) return redirect(self, { headers: { "Set-Cookie": pre2faCookie(result.token, secure) } });
    return redirect(afterSignIn(context, request, fields.redirectTo), { headers: cookieHeaders(signInCookies(result.token, secure)) });
  } catch (error) {
    return formFailure(context, error, fields, fields.intent);
  }
}

export default function Login() {
  const { step, redirectTo, notice, recaptcha } = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const t = useT();
  const href = useHref();
  if (step === "code") {
    return (
      <section className="card auth-card" aria-labelledby="auth-title">
        <h1 id="auth-title">{t("auth.twoFa.title")}</h1>
        <p className="muted">{t("auth.twoFa.lead")}</p>
        <FormAlert result={result} />
        <Form method="post" className="form">
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <Field
            id="code"
            name="code"
            label={t("auth.twoFa.code")}
            hint={t("auth.twoFa.hint")}
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            autoFocus
            maxLength={9}
            error={fieldError(result, "code")}
          />
          <SubmitButton intent="code">{t("auth.twoFa.submit")}</SubmitButton>
        </Form>
        <Form method="post">
          <button type="submit" name="intent" value="cancel" className="btn btn-ghost btn-block">
            {t("auth.twoFa.cancel")}
          </button>
        </Form>
      </section>
    );
  }
  return (
    <section className="card auth-card" aria-labelledby="auth-title">
      <h1 id="auth-title">{t("auth.login.title")}</h1>
      <p className="muted">{t("auth.login.lead")}</p>
      {notice === "password_reset" && <Notice>{t("auth.notice.passwordReset")}</Notice>}
      <FormAlert result={result} />
      <Form method="post" className="form">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field
          id="login"
          name="login"
          label={t("auth.field.login")}
          autoComplete="username"
          required
          defaultValue={result?.values?.login}
          error={fieldError(result, "login")}
        />
        <Field
          id="password"
          name="password"
          type="password"
          label={t("auth.field.password")}
          autoComplete="current-password"
          required
          error={fieldError(result, "password")}
        />
        <Recaptcha widget={recaptcha} />
        <SubmitButton intent="password">{t("auth.login.submit")}</SubmitButton>
      </Form>
      <p className="auth-links">
        <Link to={href("/auth/restore-password")}>{t("auth.login.forgot")}</Link>
        <Link to={href(`/auth/register${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`)}>{t("auth.login.register")}</Link>
      </p>
    </section>
  );
}
