// The back office's pages on the server (docs/product/back-office.md#pages): the operator of a
// page request, found by the same rules as the `/v2/admin` calls (core/operators' authorize:
// buyers refused, operators without two-factor codes refused with the way to turn them on, a
// session older than an operator's sent to sign in again), the actor of a write, and the step-up
// that money needs. Every loader and action of app/routes/admin/ starts with `requireOperatorPage`.
import { data, type AppLoadContext } from "react-router";
import type { Actor } from "../../core/admin/index.ts";
import type { Operator, Permission } from "../../core/operators/index.ts";
import { DomainError } from "../../core/shared/errors.ts";
import { requireUser, storedGameProfile } from "./guards.server.ts";

/**
 * Why the back office refused a signed-in visitor, which the layout's error boundary explains, and
 * the settings page (of the buyer's last game) where two-factor codes are turned on and one signs out.
 */
export type AdminRefusal = { refusal: "operators_only" | "two_fa_required" | "sign_in_again"; title: string; message: string; settings: string };

const REFUSALS = { forbidden: "operators_only", two_fa_required: "two_fa_required", unauthenticated: "sign_in_again" } as const;

/**
 * The operator of a back-office page: a guest goes to sign in (and comes back), anyone else the
 * back office refuses gets its error boundary with the reason (403; 401 for an old session).
 * Answers are never stored (`no-store`): they show a customer's data.
 */
export function requireOperatorPage(context: AppLoadContext, request: Request, url: URL): Operator {
  const auth = requireUser(context, url);
  context.responseHeaders.set("Cache-Control", "no-store");
  try {
    return context.services.operators.authorize(auth);
  } catch (error) {
    if (!(error instanceof DomainError) || !(error.code in REFUSALS)) throw error;
    const refusal: AdminRefusal = {
      refusal: REFUSALS[error.code as keyof typeof REFUSALS],
      title: context.t("admin.entry.title"),
      message: context.t(error.messageKey),
      settings: `${storedGameProfile(context, request)}/settings#two-fa`,
    };
    throw data(refusal, { status: error.status });
  }
}

/** Who acts and from where, for the audit log. */
export function actorOf(context: AppLoadContext, operator: Operator): Actor {
  return { operator, ip: context.clientIp };
}

/** Refuses (403) what the operator's role may not do, before anything else is asked (a step-up code). */
export function permit(context: AppLoadContext, operator: Operator, permission: Permission): void {
  context.services.operators.require(operator, permission);
}

/** Money moves only in a step-up window: open, or opened now by the form's `code` (core/admin's requireStepUp). */
export function requireStepUp(context: AppLoadContext, operator: Operator, code: string | undefined): Promise<void> {
  return context.services.admin.requireStepUp(operator, code, { ip: context.clientIp });
}

/** Whether the operator's step-up window is open, and until when (ISO), for the pages' step-up field. */
export function stepUpState(context: AppLoadContext, operator: Operator): string | null {
  return context.services.operators.steppedUp(operator) && operator.stepUpUntil ? operator.stepUpUntil.toISOString() : null;
}

/**
 * The query of a filtered, cursor-paged list page (the audit log, the payments): `params`, the
 * filters it knows and the cursor for its schema, an empty field of the filter form being no
 * filter; `filter`, every filter's value for the form ("" where none).
 */
export function listQuery<F extends string>(url: URL, filters: readonly F[]) {
  const known = (name: string) => name === "cursor" || (filters as readonly string[]).includes(name);
  const params = Object.fromEntries([...url.searchParams].filter(([name, value]) => value.trim() !== "" && known(name)));
  const filter = Object.fromEntries(filters.map((name) => [name, params[name] ?? ""])) as Record<F, string>;
  return { params, filter };
}
