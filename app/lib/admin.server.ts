// The back office's pages on the server (docs/product/back-office.md#pages): the operator guard of
// a page (a guest signs in first; a buyer or an operator without 2FA gets the refusal, in the
// page's language), and a page form's post run as the JSON API runs its call — the same schemas
// and core, the refusal's message and field messages shown above the form.
import { data, redirect, type AppLoadContext } from "react-router";
import type { z } from "zod";
import type { Actor } from "../../core/admin/index.ts";
import type { Operator } from "../../core/operators/index.ts";
import { DomainError } from "../../core/shared/errors.ts";
import { localePath } from "../../i18n/locales.ts";
import { validate } from "../../server/http/body.ts";
import type { MessageKey, Params } from "../../i18n/translate.ts";
import { selfPath } from "./meta.ts";

const say = (context: AppLoadContext, key: MessageKey, params?: Params) => (context.t as (k: MessageKey, p?: Params) => string)(key, params);

/** The operator of a back-office page; a guest goes to sign in, anyone else gets the refusal (403). */
export function requireOperatorPage(context: AppLoadContext, request: Request): Operator {
  if (!context.auth) throw redirect(`${localePath(context.locale, "/auth")}?redirectTo=${encodeURIComponent(selfPath(request))}`);
  try {
    return context.services.operators.authorize(context.auth);
  } catch (error) {
    if (error instanceof DomainError) throw data(say(context, error.messageKey, error.details.params), { status: error.status });
    throw error;
  }
}

export type FormOutcome = { ok: boolean; intent: string; message: string; fields: Record<string, string> };

/**
 * Runs one form of a back-office page: checks `input` with the call's schema and runs `act` as
 * the operator; answers what happened, in the page's language (the status of a refusal, too).
 */
export async function runForm<S extends z.ZodType>(
  context: AppLoadContext,
  request: Request,
  intent: string,
  schema: S,
  input: unknown,
  act: (value: z.infer<S>, actor: Actor) => Promise<unknown>,
) {
  const operator = requireOperatorPage(context, request);
  try {
    await act(validate(schema, input), { operator, ip: context.clientIp });
    return { ok: true, intent, message: context.t("adminCatalogue.saved"), fields: {} } satisfies FormOutcome;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const fields = Object.fromEntries(Object.entries(error.details.fields ?? {}).map(([field, key]) => [field, say(context, key)]));
    return data({ ok: false, intent, message: say(context, error.messageKey, error.details.params), fields } satisfies FormOutcome, { status: error.status });
  }
}
