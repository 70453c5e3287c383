// A page form's refused submission, as the pages show it: Conform's reply to the submission
// (`lastResult` of the page's form), with a message for the form and one per field in the page's
// language, what the user typed (never secrets) to fill the form in again, the intent that names
// the form on a page of several, and the HTTP status with Retry-After. Shared by the route actions
// (app/lib/forms.server.ts) and the write limit of server/pages.ts, which answers a refused form
// post before its action runs (docs/product/routes.md#forms).
import { parse, type Submission, type SubmissionResult } from "@conform-to/dom";
import type { DomainError, ErrorCode } from "../../core/shared/errors.ts";
import type { Translate } from "../../i18n/translate.ts";

/**
 * An action's answer to a refused form: the form that posted `intent` shows `result`; `code` is
 * the error's (docs/product/api.md#error-codes) for a page that branches on it, `status` the HTTP
 * status for a page that calls from the browser and tells failures by it
 * (docs/product/routes.md#failed-calls-in-the-browser).
 */
export type FormReply = { ok: false; intent: string; code: ErrorCode; status: number; result: SubmissionResult<string[]> };

/** Fields never sent back to the page. */
const SECRET_FIELD = /password|code|token|recaptcha/i;

/** Conform's own control fields: never ours to read (a page posts none), and JSON it would parse. */
const CONFORM_FIELDS = ["__intent__", "__state__"];

/** What a reply is made from: a submission, whatever its schema made of it. */
export type Replyable = Pick<Submission<unknown>, "payload" | "reply">;

/** The posted fields as a submission no schema has read: what a refusal before the action replies to. */
export function unreadSubmission(form: FormData): Replyable {
  for (const name of CONFORM_FIELDS) form.delete(name);
  return parse(form, { resolve: () => ({ value: {} }) });
}

/**
 * The reply to a submission that its schema refused (no `error`: 400, each field's message as the
 * schema's check gave it) or that the core refused with a DomainError (its status, its message for
 * the form, its field keys next to their fields). `keep` names secret-looking fields the page
 * itself handed to the form (a code it already showed) and needs back.
 */
export function formReply(t: Translate, submission: Replyable, error?: DomainError, keep: string[] = []): { reply: FormReply; status: number; headers: Record<string, string> } {
  const { payload } = submission;
  const intent = typeof payload.intent === "string" ? payload.intent : "";
  const hideFields = Object.keys(payload).filter((name) => SECRET_FIELD.test(name) && !keep.includes(name));
  const headers: Record<string, string> = {};
  if (!error) {
    const result = submission.reply({ formErrors: [t("errors.validation_failed")], hideFields });
    return { reply: { ok: false, intent, code: "validation_failed", status: 400, result }, status: 400, headers };
  }
  const fieldErrors = Object.fromEntries(Object.entries(error.details.fields ?? {}).map(([field, key]) => [field, [t(key)]]));
  const result = submission.reply({ formErrors: [t(error.messageKey, error.details.params)], fieldErrors, hideFields });
  if (error.details.retryAfterSeconds !== undefined) headers["Retry-After"] = String(Math.max(1, Math.ceil(error.details.retryAfterSeconds)));
  return { reply: { ok: false, intent, code: error.code, status: error.status, result }, status: error.status, headers };
}
