// /{game}/profile/settings: password, e-mail, two-factor codes, e-mail preferences, sessions.
// One form per task; each posts an `intent`. Everything works without JavaScript.
import { Form, redirect, useActionData, useLoaderData, useParams, type MetaArgs } from "react-router";
import {
  ChangeEmailSchema,
  ChangePasswordSchema,
  ConfirmEnableSchema,
  DisableTwoFaSchema,
  PASSWORD_MIN,
} from "../../../core/accounts/accounts.schema.ts";
import { signInCookies, signOutCookies } from "../../../server/http/cookies.ts";
import { localePath } from "../../../i18n/locales.ts";
import { Badge, Card, Field } from "../../components/ui/primitives.tsx";
import { FormAlert, Notice, SubmitButton, fieldError } from "../../components/forms.tsx";
import { useT } from "../../lib/i18n.tsx";
import { pageMeta, selfPath } from "../../lib/meta.ts";
import { requireProfile } from "../../lib/guards.server.ts";
import { cookieHeaders, formFailure, parseForm, readForm, requestMeta, type FormResult } from "../../lib/forms.server.ts";
import type { ActionArgs, LoaderArgs } from "../../lib/route-args.ts";

export function loader({ context, request, params }: LoaderArgs) {
  const { auth } = requireProfile(context, request, params);
  const { t, services } = context;
  return {
    user: services.accounts.user(auth.user),
    preferences: services.accounts.emailPreferences(auth.user),
    notice: new URL(request.url).searchParams.get("notice"),
    meta: { title: t("settings.title"), description: t("settings.title") },
  };
}

export const meta = ({ data }: MetaArgs<typeof loader>) => pageMeta(data);

type SettingsResult =
  | FormResult
  | { ok: true; intent: "2fa-start"; secret: string; qr: string; otpauthUrl: string }
  | { ok: true; intent: "2fa-confirm"; recoveryCodes: string[] }
  | { ok: true; intent: "email"; pendingEmail: string }
  | { ok: true; intent: "prefs" | "signout-others" };

export async function action({ context, request, params }: ActionArgs) {
  const { auth } = requireProfile(context, request, params);
  const fields = await readForm(request);
  const { accounts, settings } = context.services;
  const userId = auth.user.id;
  const back = (notice: string) => `${selfPath(request).split("?")[0]}?notice=${notice}`;
  try {
    switch (fields.intent) {
      case "password": {
        const input = parseForm(ChangePasswordSchema, { old_password: fields.old_password, new_password: fields.new_password });
        const { token } = await accounts.changePassword(userId, input, requestMeta(context, request));
        return redirect(back("password_changed"), { headers: cookieHeaders(signInCookies(token, settings.secureCookies)) });
      }
      case "email": {
        const { user } = await accounts.changeEmail(userId, parseForm(ChangeEmailSchema, { email: fields.email }));
        return { ok: true as const, intent: "email" as const, pendingEmail: user.pendingEmail ?? "" };
      }
      case "2fa-start": {
        const setup = await accounts.enableTwoFa(userId);
        return { ok: true as const, intent: "2fa-start" as const, ...setup };
      }
      case "2fa-confirm": {
        const { code } = parseForm(ConfirmEnableSchema, { code: fields.code });
        const { recoveryCodes } = await accounts.confirmEnableTwoFa(userId, code);
        return { ok: true as const, intent: "2fa-confirm" as const, recoveryCodes };
      }
      case "2fa-disable": {
        await accounts.disableTwoFa(userId, parseForm(DisableTwoFaSchema, { password: fields.password, code: fields.code }), requestMeta(context, request));
        return redirect(back("two_fa_disabled"));
      }
      case "prefs": {
        // Unchecked boxes are not posted: a checkbox form is read as on / off, never refused.
        await accounts.setEmailPreferences(userId, { allowMarketing: fields.allow_marketing === "on", allowSecurity: fields.allow_security === "on" });
        return { ok: true as const, intent: "prefs" as const };
      }
      case "signout-others": {
        await accounts.signOutOthers(userId, auth.session.id);
        return { ok: true as const, intent: "signout-others" as const };
      }
      case "signout": {
        await accounts.logout(auth.session.id);
        return redirect(localePath(context.locale, "/auth"), { headers: cookieHeaders(signOutCookies(settings.secureCookies)) });
      }
      default:
        return redirect(selfPath(request));
    }
  } catch (error) {
    return formFailure(context, error, fields, fields.intent);
  }
}

export default function Settings() {
  const { user, preferences, notice } = useLoaderData<typeof loader>();
  const result = useActionData<SettingsResult>();
  const failed = result && !result.ok ? result : undefined;
  const t = useT();
  useParams();
  const setup = result?.ok && result.intent === "2fa-start" ? result : failed?.intent === "2fa-confirm" ? "retry" : undefined;
  const recoveryCodes = result?.ok && result.intent === "2fa-confirm" ? result.recoveryCodes : undefined;
  const twoFaOn = user.twoFaEnabled || Boolean(recoveryCodes);
  return (
    <section aria-labelledby="settings-title" className="settings">
      <h1 id="settings-title">{t("settings.title")}</h1>
      {notice === "password_changed" && <Notice>{t("settings.notice.passwordChanged")}</Notice>}
      {notice === "two_fa_disabled" && <Notice>{t("settings.notice.twoFaDisabled")}</Notice>}

      <Card as="section" className="settings-card">
        <h2 className="h3">{t("settings.password.title")}</h2>
        <FormAlert result={failed} intent="password" />
        <Form method="post" className="form">
          <input type="text" name="username" autoComplete="username" value={user.email} readOnly hidden />
          <Field id="old_password" name="old_password" type="password" label={t("settings.password.old")} autoComplete="current-password" required error={fieldError(failed, "old_password", "password")} />
          <Field
            id="new_password"
            name="new_password"
            type="password"
            label={t("settings.password.new")}
            autoComplete="new-password"
            minLength={PASSWORD_MIN}
            required
            hint={t("auth.field.passwordHint", { min: PASSWORD_MIN })}
            error={fieldError(failed, "new_password", "password")}
          />
          <SubmitButton intent="password" block={false}>{t("settings.password.submit")}</SubmitButton>
        </Form>
      </Card>

      <Card as="section" className="settings-card">
        <h2 className="h3">{t("settings.email.title")}</h2>
        <p className="muted">{t("settings.email.current", { email: user.email })}</p>
        {(result?.ok && result.intent === "email") || user.pendingEmail ? (
          <Notice tone="info">{t("settings.email.pending", { email: result?.ok && result.intent === "email" ? result.pendingEmail : (user.pendingEmail ?? "") })}</Notice>
        ) : null}
        <FormAlert result={failed} intent="email" />
        <Form method="post" className="form">
          <Field id="email" name="email" type="email" label={t("settings.email.new")} autoComplete="email" required defaultValue={failed?.intent === "email" ? failed.values?.email : undefined} error={fieldError(failed, "email", "email")} />
          <SubmitButton intent="email" block={false}>{t("settings.email.submit")}</SubmitButton>
        </Form>
      </Card>

      <Card as="section" className="settings-card">
        <h2 className="h3" id="two-fa">
          {t("settings.twoFa.title")} <Badge tone={twoFaOn ? "success" : "muted"}>{twoFaOn ? t("profile.overview.on") : t("profile.overview.off")}</Badge>
        </h2>
        <FormAlert result={failed} intent={failed?.intent?.startsWith("2fa") ? failed.intent : "2fa"} />
        {recoveryCodes ? (
          <div className="recovery">
            <Notice>{t("settings.twoFa.enabled")}</Notice>
            <p>{t("settings.twoFa.recoveryLead")}</p>
            <ul className="recovery-codes" aria-label={t("settings.twoFa.recoveryTitle")}>
              {recoveryCodes.map((code) => (
                <li key={code}>
                  <code>{code}</code>
                </li>
              ))}
            </ul>
          </div>
        ) : user.twoFaEnabled ? (
          <Form method="post" className="form">
            <p className="muted">{t("settings.twoFa.disableLead")}</p>
            <Field id="disable-password" name="password" type="password" label={t("auth.field.password")} autoComplete="current-password" required error={fieldError(failed, "password", "2fa-disable")} />
            <Field id="disable-code" name="code" label={t("auth.twoFa.code")} inputMode="numeric" autoComplete="one-time-code" required error={fieldError(failed, "code", "2fa-disable")} />
            <SubmitButton intent="2fa-disable" variant="danger" block={false}>{t("settings.twoFa.disable")}</SubmitButton>
          </Form>
        ) : setup && setup !== "retry" ? (
          <div className="two-fa-setup">
            <img src={setup.qr} alt={t("settings.twoFa.qrAlt")} width={200} height={200} className="qr" />
            <div>
              <p>{t("settings.twoFa.scan")}</p>
              <p className="muted small">{t("settings.twoFa.manual")}</p>
              <code className="secret">{setup.secret}</code>
              <Form method="post" className="form">
                <Field id="enable-code" name="code" label={t("auth.twoFa.code")} inputMode="numeric" autoComplete="one-time-code" pattern="\d{6}" maxLength={6} required autoFocus />
                <SubmitButton intent="2fa-confirm" block={false}>{t("settings.twoFa.confirm")}</SubmitButton>
              </Form>
            </div>
          </div>
        ) : (
          <Form method="post" className="form">
            <p className="muted">{t("settings.twoFa.lead")}</p>
            {setup === "retry" && (
              <Field id="enable-code" name="code" label={t("auth.twoFa.code")} inputMode="numeric" autoComplete="one-time-code" pattern="\d{6}" maxLength={6} error={fieldError(failed, "code", "2fa-confirm")} />
            )}
            <SubmitButton intent={setup === "retry" ? "2fa-confirm" : "2fa-start"} block={false}>
              {setup === "retry" ? t("settings.twoFa.confirm") : t("settings.twoFa.enable")}
            </SubmitButton>
          </Form>
        )}
      </Card>

      <Card as="section" className="settings-card">
        <h2 className="h3">{t("settings.prefs.title")}</h2>
        {result?.ok && result.intent === "prefs" && <Notice>{t("settings.prefs.saved")}</Notice>}
        <FormAlert result={failed} intent="prefs" />
        <Form method="post" className="form">
          <label className="check">
            <input type="checkbox" name="allow_security" defaultChecked={preferences.allowSecurity} /> {t("settings.prefs.security")}
          </label>
          <label className="check">
            <input type="checkbox" name="allow_marketing" defaultChecked={preferences.allowMarketing} /> {t("settings.prefs.marketing")}
          </label>
          <SubmitButton intent="prefs" variant="secondary" block={false}>{t("settings.prefs.submit")}</SubmitButton>
        </Form>
      </Card>

      <Card as="section" className="settings-card">
        <h2 className="h3">{t("settings.sessions.title")}</h2>
        {result?.ok && result.intent === "signout-others" && <Notice>{t("settings.sessions.done")}</Notice>}
        <FormAlert result={failed} intent={failed?.intent === "signout" ? "signout" : "signout-others"} />
        <Form method="post" className="form-row">
          <SubmitButton intent="signout-others" variant="secondary" block={false}>{t("settings.sessions.others")}</SubmitButton>
          <SubmitButton intent="signout" variant="danger" block={false}>{t("settings.sessions.signOut")}</SubmitButton>
        </Form>
      </Card>
    </section>
  );
}
