// The operator guard (docs/product/back-office.md#roles): every `/v2/admin` call, and every other
// operator call (delivery's builds, say), sits behind `operatorGuard()`, which answers guests 401,
// buyers 403, operators without two-factor codes 403 two_fa_required (saying how to turn them on)
// and a session older than an operator's 401; `permit(…)` refuses what the role may not do, and
// `requireStepUp(c, code)` what moves money without an open step-up window or a good code.
import type { Context, MiddlewareHandler } from "hono";
import type { Actor } from "../../core/admin/index.ts";
import type { Operator, Permission } from "../../core/operators/index.ts";
import type { HonoEnv } from "../context.ts";
import { requireAuth } from "./session.ts";

export function operatorGuard(): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    const auth = requireAuth(c);
    c.set("operator", c.get("services").operators.authorize(auth));
    return next();
  };
}

/** The operator of a request behind operatorGuard. */
export function requireOperator(c: Context<HonoEnv>): Operator {
  const operator = c.get("operator");
  if (!operator) throw new Error("requireOperator outside operatorGuard");
  return operator;
}

/** Who acts and from where, for the audit log. */
export function actorOf(c: Context<HonoEnv>): Actor {
  return { operator: requireOperator(c), ip: c.get("info").clientIp };
}

/** Refuses (403) a call the operator's role may not make. */
export function permit(permission: Permission): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    c.get("services").operators.require(requireOperator(c), permission);
    return next();
  };
}

/**
 * Money moves only inside a step-up window (docs/product/back-office.md#step-up): an open one
 * passes; otherwise the call's `code` opens it (a wrong one is 400 invalid_code), and a call
 * without one is 403 step_up_required. Called by a handler after it read its input, so a
 * malformed request does not spend a code.
 */
export async function requireStepUp(c: Context<HonoEnv>, code: string | undefined): Promise<void> {
  await c.get("services").admin.requireStepUp(requireOperator(c), code, { ip: c.get("info").clientIp });
}
