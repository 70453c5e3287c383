// /{game}/profile/settings: the account's tasks — password, e-mail (and its verification),
// two-factor codes, e-mail preferences, sessions, the data export and deleting the account — each
// a small form of its own below. Every form posts its `intent` to
// the one action, which reads it with a discriminated union of the accounts module's schemas; an
// unknown intent is refused. The page runs no script (docs/decisions/0009-forms-on-the-server.md):
// everything works as plain form posts.
import { redirect } from "react-router";
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { ACCOUNT_FORMS, PASSWORD_MIN } from "../../../core/accounts/accounts.constraints.ts";
import { ChangeEmailSchema, ChangePasswordFields, ConfirmEnableSchema, DeleteAccountSchema, DisableTwoFaSchema, EmailPreferencesFields } from "../../../core/accounts/accounts.schema.ts";
import { signInCookies, signOutCookies } from "../../../server/http/cookies.ts";
import { LANG_TAG, LOCALE_NAMES, LOCALES, localePath, type Locale } from "../../../i18n/locales.ts";
import { Badge, Card } from "../../components/ui/primitives.tsx";
import { Icon } from "../../components/ui/icons.tsx";
import { Notice, SubmitButton } from "../../components/forms.tsx";
import { CheckboxField, Field, PageForm, replyTo, SelectField, usePageForm } from "../../components/page-form.tsx";
import { useLocale, useT } from "../../lib/i18n.tsx";
import { formatMoney } from "../../../i18n/format.ts";
import { pageMeta, selfPath } from "../../lib/meta.ts";
import { requireProfile } from "../../lib/guards.server.ts";
import { cookieHeaders, readSubmission, refuse, requestMeta } from "../../lib/forms.server.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/settings.ts";

export const handle: RouteHandle = { hydrate: false };

const task = <I extends string>(intent: I) => ({ intent: z.literal(intent) });

/** Every form of the page, by its intent. */
const SettingsForms = z.discriminatedUnion("intent", [
  ChangePasswordFields.extend(task("password")),
  ChangeEmailSchema.extend(task("email")),
  z.object(task("2fa-start")),
  ConfirmEnableSchema.extend(task("2fa-confirm")),
  DisableTwoFaSchema.extend(task("2fa-disable")),
  // Unchecked boxes are not posted: the form is read as on / off, never refused.
  EmailPreferencesFields.partial().extend(task("prefs")),
  z.object(task("signout-others")),
  z.object(task("signout")),
  z.object(task("verify-resend")),
  DeleteAccountSchema.extend(task("delete")),
]);

export function loader({ context, url, params }: Route.LoaderArgs) {
  const { auth } = requireProfile(context, url, params);
  const { t, services } = context;
  return {
    user: services.accounts.user(auth.user),
    preferences: services.accounts.emailPreferences(auth.user),
    notice: url.searchParams.get("notice"),
    meta: { title: t("settings.title"), description: t("settings.title") },
  };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export async function action({ context, request, url, params }: Route.ActionArgs) {
  const { auth } = requireProfile(context, url, params);
  const submission = await readSubmission(context, request, SettingsForms);
  if (submission.status !== "success") return refuse(context, submission);
  const form = submission.value;
  const { accounts, settings } = context.services;
  const userId = auth.user.id;
  const back = (notice: string) => `${selfPath(url, false)}?notice=${notice}`;
  try {
    switch (form.intent) {
      case "password": {
        const input = { oldPassword: form.old_password, newPassword: form.new_password };
        const { token } = await accounts.changePassword(userId, input, requestMeta(context, request));
        return redirect(back("password_changed"), { headers: cookieHeaders(signInCookies(token, settings.secureCookies)) });
      }
      case "email": {
        const { user } = await accounts.changeEmail(userId, form);
        return { ok: true as const, intent: form.intent, pendingEmail: user.pendingEmail ?? "" };
      }
      case "2fa-start":
        return { ok: true as const, intent: form.intent, ...(await accounts.enableTwoFa(userId)) };
      case "2fa-confirm": {
        const { recoveryCodes } = await accounts.confirmEnableTwoFa(userId, form.code);
        return { ok: true as const, intent: form.intent, recoveryCodes };
      }
      case "2fa-disable":
        await accounts.disableTwoFa(userId, form, requestMeta(context, request));
        return redirect(back("two_fa_disabled"));
      case "prefs":
        await accounts.setEmailPreferences(userId, { allowMarketing: form.allow_marketing ?? false, allowSecurity: form.allow_security ?? false, locale: form.locale });
        return { ok: true as const, intent: form.intent };
      case "signout-others":
        await accounts.signOutOthers(userId, auth.session.id);
        return { ok: true as const, intent: form.intent };
      case "signout":
        await accounts.logout(auth.session.id);
        return redirect(localePath(context.locale, "/auth"), { headers: cookieHeaders(signOutCookies(settings.secureCookies)) });
      case "verify-resend":
        await accounts.resendVerification(userId);
        return { ok: true as const, intent: form.intent };
      case "delete":
        await accounts.deleteAccount(userId, { password: form.password }, requestMeta(context, request));
        return redirect(`${localePath(context.locale, "/auth")}?notice=account_deleted`, { headers: cookieHeaders(signOutCookies(settings.secureCookies)) });
    }
  } catch (error) {
    return refuse(context, submission, error);
  }
}

type Answer = Route.ComponentProps["actionData"];
/** The action's answer when it is the success of `intent`. */
type Done<I extends string> = Extract<NonNullable<Answer>, { ok: true; intent: I }>;

function doneOf<I extends string>(answer: Answer, intent: I): Done<I> | undefined {
  return answer?.ok && answer.intent === intent ? (answer as Done<I>) : undefined;
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { user, preferences, notice } = loaderData;
  const t = useT();
  const locale = useLocale();
  return (
    <section aria-labelledby="settings-title" className="settings">
      <h1 id="settings-title">{t("settings.title")}</h1>
      {notice === "password_changed" && <Notice>{t("settings.notice.passwordChanged")}</Notice>}
      {notice === "two_fa_disabled" && <Notice>{t("settings.notice.twoFaDisabled")}</Notice>}
      <PasswordTask email={user.email} lastResult={replyTo(actionData, "password")} />
      <EmailTask
        email={user.email}
        verified={user.emailVerified}
        resent={Boolean(doneOf(actionData, "verify-resend"))}
        pending={doneOf(actionData, "email")?.pendingEmail ?? user.pendingEmail}
        lastResult={replyTo(actionData, "email")}
        resendResult={replyTo(actionData, "verify-resend")}
      />
      <TwoFactorTask enabled={user.twoFaEnabled} answer={actionData} />
      <PreferencesTask preferences={preferences} saved={Boolean(doneOf(actionData, "prefs"))} lastResult={replyTo(actionData, "prefs")} />
      <SessionsTask done={Boolean(doneOf(actionData, "signout-others"))} lastResult={replyTo(actionData, "signout-others") ?? replyTo(actionData, "signout")} />
      <DataTask />
      <DeleteTask balance={formatMoney(user.balance, user.currency, locale)} lastResult={replyTo(actionData, "delete")} />
    </section>
  );
}

type Reply = { lastResult: SubmissionResult<string[]> | undefined };

function PasswordTask({ email, lastResult }: Reply & { email: string }) {
  const t = useT();
  const [form, fields] = usePageForm("password", ACCOUNT_FORMS.changePassword, { lastResult });
  return (
    <Card as="section" className="settings-card">
      <h2 className="h3">{t("settings.password.title")}</h2>
      <PageForm form={form}>
        {/* For password managers: whose password this is. */}
        <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
        <Field field={fields.old_password} type="password" label={t("settings.password.old")} autoComplete="current-password" />
        <Field field={fields.new_password} type="password" label={t("settings.password.new")} hint={t("auth.field.passwordHint", { min: PASSWORD_MIN })} autoComplete="new-password" />
        <SubmitButton intent="password" block={false}>
          {t("settings.password.submit")}
        </SubmitButton>
      </PageForm>
    </Card>
  );
}

function EmailTask({
  email,
  verified,
  resent,
  pending,
  lastResult,
  resendResult,
}: Reply & { email: string; verified: boolean; resent: boolean; pending: string | null; resendResult: SubmissionResult<string[]> | undefined }) {
  const t = useT();
  const [form, fields] = usePageForm("email", ACCOUNT_FORMS.changeEmail, { lastResult });
  const [resend] = usePageForm("verify-resend", {}, { lastResult: resendResult });
  return (
    <Card as="section" className="settings-card">
      <h2 className="h3">
        {t("settings.email.title")} <Badge tone={verified ? "success" : "warning"}>{verified ? t("settings.email.verified") : t("settings.email.unverified")}</Badge>
      </h2>
      <p className="muted">{t("settings.email.current", { email })}</p>
      {!verified && (
        <PageForm form={resend} className="form-row verify-row">
          {resent ? <Notice tone="info">{t("settings.email.verifySent", { email })}</Notice> : <p className="muted small">{t("settings.email.verifyLead", { email })}</p>}
          <SubmitButton intent="verify-resend" variant="secondary" block={false}>
            {t("settings.email.verifyResend")}
          </SubmitButton>
        </PageForm>
      )}
      {pending && <Notice tone="info">{t("settings.email.pending", { email: pending })}</Notice>}
      <PageForm form={form}>
        <Field field={fields.email} type="email" label={t("settings.email.new")} autoComplete="email" />
        <SubmitButton intent="email" block={false}>
          {t("settings.email.submit")}
        </SubmitButton>
      </PageForm>
    </Card>
  );
}

/**
 * Two-factor codes: off → "enable" shows the key and its QR code with a form for the first code;
 * that code turns them on and shows the recovery codes once; on → a form to turn them off.
 */
function TwoFactorTask({ enabled, answer }: { enabled: boolean; answer: Answer }) {
  const t = useT();
  const setup = doneOf(answer, "2fa-start");
  const recoveryCodes = doneOf(answer, "2fa-confirm")?.recoveryCodes;
  const on = enabled || Boolean(recoveryCodes);
  return (
    <Card as="section" className="settings-card">
      <h2 className="h3" id="two-fa">
        {t("settings.twoFa.title")} <Badge tone={on ? "success" : "muted"}>{on ? t("profile.overview.on") : t("profile.overview.off")}</Badge>
      </h2>
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
          {/* The page runs no script: the codes to select and copy in one go, and a file to keep (a data: link). */}
          <label htmlFor="recovery-all" className="small muted">
            {t("settings.twoFa.recoveryCopy")}
          </label>
          <textarea id="recovery-all" className="recovery-all mono" readOnly rows={Math.min(recoveryCodes.length, 10)} value={recoveryCodes.join("\n")} spellCheck={false} />
          <a
            className="btn btn-secondary"
            href={`data:text/plain;charset=utf-8,${encodeURIComponent(`NOVA — ${t("settings.twoFa.recoveryTitle")}\n\n${recoveryCodes.join("\n")}\n`)}`}
            download="nova-recovery-codes.txt"
          >
            <Icon name="download" size={18} /> {t("settings.twoFa.recoveryDownload")}
          </a>
        </div>
      ) : enabled ? (
        <DisableTwoFa lastResult={replyTo(answer, "2fa-disable")} />
      ) : setup ? (
        <div className="two-fa-setup">
          <img src={setup.qr} alt={t("settings.twoFa.qrAlt")} width={200} height={200} className="qr" />
          <div>
            <p>{t("settings.twoFa.scan")}</p>
            <p className="muted small">{t("settings.twoFa.manual")}</p>
            <code className="secret">{setup.secret}</code>
            <ConfirmTwoFa lastResult={undefined} />
          </div>
        </div>
      ) : (
        <StartTwoFa retry={replyTo(answer, "2fa-confirm")} lastResult={replyTo(answer, "2fa-start")} />
      )}
    </Card>
  );
}

/** "Enable"; after a refused first code, the code field again (the key stays as scanned). */
function StartTwoFa({ retry, lastResult }: Reply & { retry: SubmissionResult<string[]> | undefined }) {
  const t = useT();
  const [form] = usePageForm("two-fa-start", {}, { lastResult });
  if (retry) return <ConfirmTwoFa lastResult={retry} />;
  return (
    <PageForm form={form}>
      <p className="muted">{t("settings.twoFa.lead")}</p>
      <SubmitButton intent="2fa-start" block={false}>
        {t("settings.twoFa.enable")}
      </SubmitButton>
    </PageForm>
  );
}

function ConfirmTwoFa({ lastResult }: Reply) {
  const t = useT();
  const [form, fields] = usePageForm("two-fa-confirm", ACCOUNT_FORMS.confirmTwoFa, { lastResult });
  return (
    <PageForm form={form}>
      <Field field={fields.code} label={t("auth.twoFa.code")} inputMode="numeric" autoComplete="one-time-code" autoFocus={!lastResult} />
      <SubmitButton intent="2fa-confirm" block={false}>
        {t("settings.twoFa.confirm")}
      </SubmitButton>
    </PageForm>
  );
}

function DisableTwoFa({ lastResult }: Reply) {
  const t = useT();
  const [form, fields] = usePageForm("two-fa-disable", ACCOUNT_FORMS.disableTwoFa, { lastResult });
  return (
    <PageForm form={form}>
      <p className="muted">{t("settings.twoFa.disableLead")}</p>
      <Field field={fields.password} type="password" label={t("auth.field.password")} autoComplete="current-password" />
      <Field field={fields.code} label={t("auth.twoFa.code")} inputMode="numeric" autoComplete="one-time-code" />
      <SubmitButton intent="2fa-disable" variant="danger" block={false}>
        {t("settings.twoFa.disable")}
      </SubmitButton>
    </PageForm>
  );
}

function PreferencesTask({ preferences, saved, lastResult }: Reply & { preferences: { allowSecurity: boolean; allowMarketing: boolean; locale: Locale }; saved: boolean }) {
  const t = useT();
  const on = (value: boolean) => (value ? "on" : undefined);
  const [form, fields] = usePageForm(
    "prefs",
    { allow_security: {}, allow_marketing: {}, locale: { required: true } },
    { lastResult, defaultValue: { allow_security: on(preferences.allowSecurity), allow_marketing: on(preferences.allowMarketing), locale: preferences.locale } },
  );
  return (
    <Card as="section" className="settings-card">
      <h2 className="h3">{t("settings.prefs.title")}</h2>
      {saved && <Notice>{t("settings.prefs.saved")}</Notice>}
      <PageForm form={form}>
        <CheckboxField field={fields.allow_security} label={t("settings.prefs.security")} />
        <CheckboxField field={fields.allow_marketing} label={t("settings.prefs.marketing")} />
        {/* The mail language (docs/product/accounts.md#e-mail-preferences-and-notices): each language named in itself. */}
        <SelectField field={fields.locale} label={t("settings.prefs.locale")} hint={t("settings.prefs.localeHint")}>
          {LOCALES.map((l) => (
            <option key={l} value={l} lang={LANG_TAG[l]}>
              {LOCALE_NAMES[l]}
            </option>
          ))}
        </SelectField>
        <SubmitButton intent="prefs" variant="secondary" block={false}>
          {t("settings.prefs.submit")}
        </SubmitButton>
      </PageForm>
    </Card>
  );
}

function SessionsTask({ done, lastResult }: Reply & { done: boolean }) {
  const t = useT();
  const [form] = usePageForm("sessions", {}, { lastResult });
  return (
    <Card as="section" className="settings-card">
      <h2 className="h3">{t("settings.sessions.title")}</h2>
      {done && <Notice>{t("settings.sessions.done")}</Notice>}
      <PageForm form={form} className="form-row">
        <SubmitButton intent="signout-others" variant="secondary" block={false}>
          {t("settings.sessions.others")}
        </SubmitButton>
        <SubmitButton intent="signout" variant="danger" block={false}>
          {t("settings.sessions.signOut")}
        </SubmitButton>
      </PageForm>
    </Card>
  );
}

/** The data export (docs/product/accounts.md#data-export): the API's file, signed in by the page's cookie. */
function DataTask() {
  const t = useT();
  return (
    <Card as="section" className="settings-card">
      <h2 className="h3">{t("settings.data.title")}</h2>
      <p className="muted">{t("settings.data.lead")}</p>
      <a className="btn btn-secondary" href="/v2/web/user/export" download>
        {t("settings.data.download")}
      </a>
    </Card>
  );
}

/** Deleting the account (docs/product/accounts.md#deleting-an-account): what it means, then the password. */
function DeleteTask({ balance, lastResult }: Reply & { balance: string }) {
  const t = useT();
  const [form, fields] = usePageForm("delete", ACCOUNT_FORMS.deleteAccount, { lastResult });
  return (
    <Card as="section" className="settings-card danger-zone">
      <h2 className="h3">{t("settings.delete.title")}</h2>
      <p className="muted">{t("settings.delete.lead", { balance })}</p>
      <PageForm form={form}>
        <Field field={fields.password} type="password" label={t("auth.field.password")} autoComplete="current-password" />
        <SubmitButton intent="delete" variant="danger" block={false}>
          {t("settings.delete.submit")}
        </SubmitButton>
      </PageForm>
    </Card>
  );
}
