// The response envelope (docs/product/api.md#envelope): every body has `status`; a failure adds `code`, a
// `message` in the request's language and, for validation_failed, `errors` per field.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { DomainError } from "../../core/shared/errors.ts";
import type { HonoEnv } from "../context.ts";

/**
 * What every API answer carries (docs/product/api.md#caching), set as the answer is made: set on
 * it afterwards (server/api/index.ts), it made Hono turn the answer into a whole web Response, its
 * body into a stream, and encode it again (5 % of a small answer's CPU).
 */
export const NO_STORE = { "Cache-Control": "no-store" } as const;

export function ok(c: Context<HonoEnv>, data: Record<string, unknown> = {}, status: ContentfulStatusCode = 200) {
  return c.json({ status: true, ...data }, status, NO_STORE);
}

export function failure(c: Context<HonoEnv>, error: DomainError) {
  const { t } = c.get("info");
  const body: Record<string, unknown> = {
    status: false,
    code: error.code,
    message: t(error.messageKey, error.details.params),
  };
  if (error.details.fields) {
    body.errors = Object.fromEntries(Object.entries(error.details.fields).map(([field, key]) => [field, t(key)]));
  }
  if (error.details.retryAfterSeconds !== undefined) {
    c.header("Retry-After", String(Math.max(1, Math.ceil(error.details.retryAfterSeconds))));
  }
  return c.json(body, error.status as ContentfulStatusCode, NO_STORE);
}

/** Connection-level failures of the database: answered 503 `unavailable`, not 500. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === "object" && !seen.has(current)) {
    seen.add(current);
    const { code, message } = current as { code?: unknown; message?: unknown };
    // 57014: a statement cancelled by statement_timeout (DB_STATEMENT_TIMEOUT_MS), e.g. behind a lock.
    if (typeof code === "string" && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|57014|57P0[1-3]|08\d{3})$/.test(code)) return true;
    if (
      typeof message === "string" &&
      /database closed|Connection terminated|timeout exceeded when trying to connect|PGlite is closed|Query read timeout|Client was closed and is not queryable/i.test(message)
    ) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Maps anything thrown to a DomainError; unknown errors become internal_error (logged by caller). */
export function toDomainError(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  if (isDatabaseUnavailable(error)) return new DomainError("unavailable");
  return new DomainError("internal_error");
}
