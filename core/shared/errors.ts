// The one error type of the core: a stable code (docs/product/api.md#error-codes), an HTTP-like status and the
// message key that the edge translates. Anything else thrown is a bug and answers 500. A plain
// class: the server, the routes and the tests share one copy of this module, so `instanceof`
// holds everywhere (docs/decisions/0008-one-module-graph.md).
import type { MessageKey, Params } from "../../i18n/translate.ts";

export type ErrorCode =
  | "validation_failed"
  | "invalid_credentials"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "idempotency_mismatch"
  | "idempotency_in_progress"
  | "rate_limited"
  | "insufficient_balance"
  | "freeze_not_allowed"
  | "payload_too_large"
  | "unsupported_media_type"
  | "invalid_json"
  | "unavailable"
  | "internal_error"
  | "invalid_code"
  | "invalid_link"
  | "email_taken"
  | "username_taken"
  | "recaptcha_failed"
  | "two_fa_required"
  | "payment_failed"
  | "payment_pending"
  | "payment_not_approved"
  | "payment_mismatch"
  | "account_suspended"
  | "email_unverified"
  | "deletion_refused"
  | "step_up_required"
  | "invalid_key"
  | "invalid_token"
  | "device_limit"
  | "device_reset_cooldown"
  | "entitlement_inactive"
  | "download_link_invalid"
  | "range_not_satisfiable";

export const STATUS_OF: Record<ErrorCode, number> = {
  validation_failed: 400,
  invalid_json: 400,
  invalid_credentials: 401,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  idempotency_mismatch: 409,
  idempotency_in_progress: 409,
  insufficient_balance: 409,
  freeze_not_allowed: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
  invalid_code: 400,
  invalid_link: 400,
  email_taken: 409,
  username_taken: 409,
  recaptcha_failed: 400,
  two_fa_required: 403,
  payment_failed: 502,
  payment_pending: 409,
  payment_not_approved: 409,
  payment_mismatch: 409,
  account_suspended: 403,
  email_unverified: 403,
  deletion_refused: 409,
  step_up_required: 403,
  invalid_key: 403,
  invalid_token: 401,
  device_limit: 409,
  device_reset_cooldown: 409,
  entitlement_inactive: 403,
  download_link_invalid: 403,
  range_not_satisfiable: 416,
};

export class DomainError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    /** i18n key of the message; defaults to `errors.<code>` (tsc checks every code has one). */
    readonly messageKey: MessageKey = `errors.${code}`,
    readonly details: {
      params?: Params;
      /** field → i18n key, for validation_failed */
      fields?: Record<string, MessageKey>;
      retryAfterSeconds?: number;
      /** Why, in a word callers may branch on where the code alone does not say (a freeze's block). */
      reason?: string;
    } = {},
  ) {
    super(code);
    this.status = STATUS_OF[code];
  }
}

/**
 * Whether `error` is a DomainError with one of `codes`: how a caller tells the cases it handles
 * from those it lets through. Callers branch on codes, never on message keys (a key is wording).
 */
export function isDomainError(error: unknown, ...codes: [ErrorCode, ...ErrorCode[]]): error is DomainError {
  return error instanceof DomainError && codes.includes(error.code);
}
