// Page forms on the server (they work without JavaScript, docs/product/routes.md#forms): read a
// post into a Conform submission checked by the module's own schema, and answer a refused one —
// by that schema or by a DomainError of the core — with Conform's reply, which the page's form
// shows as its `lastResult` (docs/decisions/0009-forms-on-the-server.md).
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type AppLoadContext } from "react-router";
import { z } from "zod";
import { DomainError } from "../../core/shared/errors.ts";
import { issueKey } from "../../server/http/body.ts";
import { formReply, unreadSubmission, type Replyable } from "../../server/http/forms.ts";
import { controlCharacterPath } from "../../server/http/input.ts";
import { requireGuest } from "./guards.server.ts";
import { checkoutOf } from "./checkout.server.ts";
import type { PageMeta } from "./meta.ts";
import { recaptchaWidget } from "./recaptcha.server.ts";

/** The field Google's reCAPTCHA widget posts its token in; the schemas call it `recaptchaToken`. */
const RECAPTCHA_FIELD = "g-recaptcha-response";

/**
 * The posted form. A control character in any field is refused here, for every form at once (400,
 * the error page): no field of ours means one, and PostgreSQL cannot store NUL at all.
 */
async function postedForm(request: Request): Promise<FormData> {
  const form = await request.formData();
  for (const [key, value] of form) {
    if (typeof value === "string" && controlCharacterPath({ [key]: value }) !== undefined) throw data("validation.control_characters", { status: 400 });
  }
  return form;
}

/**
 * Reads a form post and checks it with `schema` (a discriminated union on `intent` where a page
 * has several forms; an unknown intent is refused with 400). `add` are inputs that come with the request rather than from the user, such
 * as a cookie: they replace any field of that name. The widget's reCAPTCHA token is the schema's
 * `recaptchaToken`. Messages of the refused fields are in the page's language.
 */
export async function readSubmission<S extends z.ZodType>(context: AppLoadContext, request: Request, schema: S, add: Record<string, string | undefined> = {}) {
  const form = await postedForm(request);
  const token = form.get(RECAPTCHA_FIELD);
  form.delete(RECAPTCHA_FIELD);
  if (typeof token === "string") add = { recaptchaToken: token, ...add };
  for (const [name, value] of Object.entries(add)) {
    form.delete(name);
    if (value !== undefined) form.set(name, value);
  }
  unreadSubmission(form); // drops Conform's own control fields, which no page posts
  // One message a field, the first the schema found, as the JSON API answers (server/http/body.ts).
  const submission = parseWithZod(form, { schema, formatError: (issues: z.core.$ZodIssue[]) => issues.slice(0, 1).map((issue) => context.t(issueKey(issue))) });
  // An intent the page's union does not know (or none) came from no form of the page — an old
  // page or a forged post — and has no form to show a message in: 400, the error page.
  if (submission.status === "error" && submission.error?.intent) throw data("errors.validation_failed", { status: 400 });
  return submission;
}

/**
 * The answer to a refused submission: its schema's field messages (400), or a DomainError's
 * message and field messages with its status (and Retry-After). Anything but a DomainError is a
 * bug and goes to the error page. What was typed comes back, but no secret (`keep`: server/http/forms.ts).
 */
export function refuse(context: AppLoadContext, submission: Replyable, error?: unknown, { keep }: { keep?: string[] } = {}) {
  if (error !== undefined && !(error instanceof DomainError)) throw error;
  const { reply, status, headers } = formReply(context.t, submission, error, keep);
  for (const [name, value] of Object.entries(headers)) context.responseHeaders.set(name, value);
  return data(reply, { status, headers });
}

/** The field every sign-in form carries: where to go next (followed only when it is ours, guards.server.ts). */
export const RedirectToSchema = z.string().optional();

/**
 * What the loader of a guest form page (sign-in, registration, reset) starts with: guests only,
 * the page to go on to after signing in, the order waiting there when it is a checkout (what the
 * buyer came from "Buy" to buy), the reCAPTCHA widget and the page's title.
 */
export function guestFormPage(context: AppLoadContext, request: Request, url: URL, meta: PageMeta) {
  requireGuest(context, request);
  const redirectTo = url.searchParams.get("redirectTo") ?? "";
  const checkout = checkoutOf(context, redirectTo);
  const order = checkout && {
    game: checkout.game.name,
    days: checkout.product.days,
    price: checkout.product.price,
    currency: checkout.product.currency,
  };
  return { redirectTo, order: order ?? null, recaptcha: recaptchaWidget(context), meta };
}

/** Request details the core wants (client address, language, user agent). */
export function requestMeta(context: AppLoadContext, request: Request) {
  return { ip: context.clientIp, userAgent: request.headers.get("user-agent") ?? undefined, locale: context.locale };
}

export function cookieHeaders(cookies: string[]): Headers {
  const headers = new Headers();
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return headers;
}
