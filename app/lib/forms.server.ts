// Page forms (work without JavaScript): read the posted fields, and turn a DomainError into a
// 4xx answer with a form-level message and per-field messages in the page's language.
import { data, type AppLoadContext } from "react-router";
import type { z } from "zod";
import { DomainError } from "../../core/shared/errors.ts";
import { validate } from "../../server/http/body.ts";
import { formAnswer } from "../../server/http/forms.ts";
import { controlCharacterPath } from "../../server/http/input.ts";

export type { FormResult } from "../../server/http/forms.ts";

/**
 * The posted text fields of a page form. A control character in any of them is refused here, for
 * every form at once (400, the error page): no field of ours means one, and PostgreSQL cannot
 * store NUL at all.
 */
export async function readForm(request: Request): Promise<Record<string, string>> {
  const form = await request.formData();
  const fields: Record<string, string> = {};
  for (const [key, value] of form) {
    if (typeof value !== "string") continue;
    if (controlCharacterPath({ [key]: value }) !== undefined) throw data("validation.control_characters", { status: 400 });
    fields[key] = value;
  }
  return fields;
}

export function parseForm<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  return validate(schema, input);
}

/** Answers a failed submission; anything but a DomainError is a bug and goes to the error page. */
export function formFailure(context: AppLoadContext, error: unknown, fields: Record<string, string>, intent?: string) {
  if (!(error instanceof DomainError)) throw error;
  const { result, status, headers } = formAnswer(context.t, error, fields, intent);
  for (const [name, value] of Object.entries(headers)) context.responseHeaders.set(name, value);
  return data(result, { status, headers });
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
