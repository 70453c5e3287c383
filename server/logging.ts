// The process's logger: pino, with serializers that keep values out of the log (docs/product/operations.md#production-safety,
// production safety). A failed query's error carries its parameters — Drizzle's "Failed query: …
// params: …" once logged a password hash — and PostgreSQL's `detail` quotes the failing row; URLs
// may carry codes and tokens in their query strings. All of these are cut before a line is written.
import { AsyncLocalStorage } from "node:async_hooks";
import pino, { type DestinationStream, type Logger } from "pino";

/**
 * The request a piece of work belongs to: set by the first middleware (and the page-cache fast
 * path) around everything a request does, so that every log line written meanwhile — by a
 * service, a loader, a failed query — carries its `reqId` (docs/product/operations.md#logs-and-request-ids).
 */
export const requestScope = new AsyncLocalStorage<{ reqId: string }>();

/** Properties of an error that hold values rather than what went wrong. */
const VALUE_KEYS = new Set(["params", "parameters", "detail", "values", "raw"]);
const REDACTED = "[redacted]";

/** A log text without SQL parameters, quoted values of PostgreSQL messages or query strings. */
export function scrubText(text: string): string {
  return (
    text
      // Drizzle: "Failed query: <sql>\nparams: <values>" — up to the stack's first frame, if any.
      .replace(/\nparams: [\s\S]*?(?=\n\s+at |\ncaused by: |$)/g, `\nparams: ${REDACTED}`)
      // PostgreSQL quotes the offending value in a few messages.
      .replace(/(invalid input syntax for type [\w ]+|invalid input value for enum [\w.]+|for encoding "[\w-]+"): "[^"]*"/g, `$1: ${REDACTED}`)
      .replace(/value "[^"]*" is out of range/g, `value ${REDACTED} is out of range`)
      .replace(/Key \([^)]*\)=\([^)]*\)/g, `Key ${REDACTED}`)
      .replace(/Failing row contains \([\s\S]*?\)(?=\.?(\n|$))/g, `Failing row contains ${REDACTED}`)
      // Query strings of URLs (reset links, PayPal tokens, SSO tickets).
      .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s?#"'<>]*|(?<![\w/])\/[^\s?#"'<>]*)\?[^\s#"'<>]*/gi, `$1?${REDACTED}`)
  );
}

function scrub(value: unknown, depth: number): unknown {
  if (typeof value === "string") return scrubText(value);
  if (value === null || typeof value !== "object" || depth > 6) return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (VALUE_KEYS.has(key)) continue;
    out[key] = scrub(inner, depth + 1);
  }
  return out;
}

/** pino's error serializer, then every value-bearing part removed. */
export function serializeError(error: unknown): unknown {
  return scrub(pino.stdSerializers.err(error as Error), 0);
}

/**
 * The logger of the process (and of in-process tests, with a destination of their own). Errors
 * logged under `err` or `error` are scrubbed; so are top-level `url` and `path` fields. A line
 * written during a request carries the request's id.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      serializers: { err: serializeError, error: serializeError },
      mixin: () => {
        const scope = requestScope.getStore();
        return scope ? { reqId: scope.reqId } : {};
      },
      formatters: {
        log(object) {
          for (const key of ["url", "path"]) {
            if (typeof object[key] === "string") object[key] = scrubText(object[key]);
          }
          return object;
        },
      },
    },
    destination,
  );
}
