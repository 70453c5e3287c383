// The back office's guard for pages (docs/product/back-office.md#roles), as the API's operatorGuard answers:
// a guest goes to sign in, a buyer gets 403, an operator without two-factor codes 403 saying how to turn
// them on, an operator session older than 12 hours 401 (sign in again), and a role that may not do what the
// page does 403 — each the error page with the message in the page's language.
import { data, type AppLoadContext } from "react-router";
import type { Operator, Permission } from "../../core/operators/index.ts";
import { DomainError } from "../../core/shared/errors.ts";
import { requireUser } from "./guards.server.ts";

export function requireOperatorPage(context: AppLoadContext, url: URL, permission: Permission): Operator {
  const auth = requireUser(context, url);
  const { operators } = context.services;
  try {
    const operator = operators.authorize(auth);
    operators.require(operator, permission);
    return operator;
  } catch (error) {
    if (error instanceof DomainError) throw data(error.messageKey, { status: error.status });
    throw error;
  }
}
