// A page form's failed submission, as the pages show it: a form-level message and per-field
// messages in the page's language, what the user typed (never secrets) to fill the form in again,
// and the HTTP status with Retry-After. Shared by the route actions (app/lib/forms.server.ts) and
// the write limit of server/pages.ts, which answers a refused form post before its action runs.
import type { DomainError } from "../../core/shared/errors.ts";
import type { Translate } from "../../i18n/translate.ts";

export type FormResult = {
  ok: false;
  intent?: string;
  formError?: string;
  errors?: Record<string, string>;
  /** What the user typed (never passwords), to fill the form in again. */
  values?: Record<string, string>;
};

/** Fields never sent back to the page. */
const SECRET_FIELD = /password|code|token|recaptcha/i;

export function formAnswer(t: Translate, error: DomainError, fields: Record<string, string>, intent?: string): { result: FormResult; status: number; headers: Record<string, string> } {
  const errors = error.details.fields
    ? Object.fromEntries(Object.entries(error.details.fields).map(([field, key]) => [field, t(key)]))
    : undefined;
  const values = Object.fromEntries(Object.entries(fields).filter(([key]) => !SECRET_FIELD.test(key)));
  const headers: Record<string, string> = {};
  if (error.details.retryAfterSeconds !== undefined) headers["Retry-After"] = String(Math.max(1, Math.ceil(error.details.retryAfterSeconds)));
  return { result: { ok: false, intent, formError: t(error.messageKey, error.details.params), errors, values }, status: error.status, headers };
}
