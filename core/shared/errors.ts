// The one error type of the core: a stable code (decisions §2), an HTTP-like status and the
// message key that the edge translates. Anything else thrown is a bug and answers 500.

export type ErrorCode =
  | "validation_failed"
  | "invalid_credentials"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "rate_limited"
  | "insufficient_balance"
  | "freeze_not_allowed"
  | "payload_too_large"
  | "unsupported_media_type"
  | "invalid_json"
  | "unavailable"
  | "internal_error";

export const STATUS_OF: Record<ErrorCode, number> = {
  validation_failed: 400,
  invalid_json: 400,
  invalid_credentials: 401,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  insufficient_balance: 409,
  freeze_not_allowed: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
};

export class DomainError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    /** i18n key of the message; defaults to `errors.<code>`. */
    readonly messageKey: string = `errors.${code}`,
    readonly details: {
      params?: Record<string, string | number>;
      /** field → i18n key, for validation_failed */
      fields?: Record<string, string>;
      retryAfterSeconds?: number;
    } = {},
  ) {
    super(code);
    this.status = STATUS_OF[code];
  }
}
