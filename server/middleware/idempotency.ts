// Idempotency-Key for calls that move money or time (docs/product/api.md#idempotency): the same key from the same
// user within 24 h returns the first answer and changes nothing again; the same key with another
// body is a 409. Parallel requests with one key wait for the first one's answer.
//
// A call whose effect is one database transaction (purchase, gift) stores its answer in that same
// transaction (`idempotencyRecorder`), so the answer exists exactly when the effect does: when the
// database froze and the client gave up (503) while the COMMIT still landed, the retry finds the
// committed answer instead of running again, and an attempt that takes over a stale one cannot
// commit a second effect (its transaction's store finds the answer there and rolls back). Other
// answers are stored after the handler. A 5xx answer is not kept, so a retry runs again (e.g. after
// the payment provider timed out); the key stays bound to its body all the same.
import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Tx } from "../../db/client.ts";
import { idempotencyKeys } from "../../db/schema/index.ts";
import { DomainError } from "../../core/shared/errors.ts";
import { sha256 } from "../../core/shared/tokens.ts";
import type { HonoEnv } from "../context.ts";
import { requireAuth } from "./session.ts";

const KEY = /^[A-Za-z0-9_.:-]{1,128}$/;
/** Kept as the response of a key whose attempt failed with a 5xx: the next attempt may run. */
const RETRYABLE = { retryable: true };
const DAY_MS = 24 * 3600_000;
const WAIT_MS = 15_000;
/**
 * An attempt that has neither answered nor failed for this long is taken to be lost (its process
 * died, or the database froze before its failure could be noted) and the next one may run. Every
 * step of an attempt has a deadline far below this (DB_STATEMENT_TIMEOUT_MS, PAYPAL_TIMEOUT_MS).
 */
const STALE_MS = 60_000;

/** Stores a successful answer inside the transaction of its effect; set for idempotent requests. */
export type IdempotencyRecorder = (tx: Tx, body: Record<string, unknown>) => Promise<void>;

/**
 * The hook a handler passes to its use case, which calls it with its result inside the effect's
 * transaction; `toBody` writes the result as the answer's body (the same mapping the handler
 * answers with, so a replay is the first answer). Undefined when the request carries no
 * Idempotency-Key.
 */
export function idempotencyRecorder<T>(c: Context<HonoEnv>, toBody: (result: T) => object): ((tx: Tx, result: T) => Promise<void>) | undefined {
  const record = c.get("idempotency");
  return record && ((tx, result) => record(tx, { status: true, ...toBody(result) }));
}

/**
 * The body as the request's fingerprint sees it: the raw text, or, with fields to leave out (a
 * step-up code, which differs between a call and its replay, docs/product/back-office.md#step-up),
 * the JSON object without them.
 */
function fingerprintBody(text: string, omit: readonly string[]): string {
  if (omit.length === 0) return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return text;
  const kept = Object.fromEntries(Object.entries(value).filter(([name]) => !omit.includes(name)));
  return JSON.stringify(kept, Object.keys(kept).sort());
}

export type IdempotentOptions = {
  /** Body fields that are not part of the request's fingerprint (e.g. `code`). */
  omit?: readonly string[];
  /** The call needs a key: without one it is refused (400). */
  required?: boolean;
  /**
   * Keep only successful answers: a refusal (4xx) changed nothing and leaves the key free for a
   * corrected retry, as a 5xx does. For calls whose refusals may be cured without changing the
   * fingerprinted body, such as a wrong step-up code.
   */
  successesOnly?: boolean;
};

export function idempotent(options: IdempotentOptions = {}): MiddlewareHandler<HonoEnv> {
  const omit = options.omit ?? [];
  return async (c, next) => {
    const key = c.req.header("idempotency-key");
    if (key === undefined) {
      if (options.required) throw new DomainError("validation_failed", "errors.idempotency_key_required", { fields: { "Idempotency-Key": "validation.required" } });
      return next();
    }
    if (!KEY.test(key)) {
      throw new DomainError("validation_failed", "errors.validation_failed", { fields: { "Idempotency-Key": "validation.idempotency_key" } });
    }
    const { db, clock } = c.get("services");
    const userId = requireAuth(c).user.id;
    const hash = sha256(`${c.req.method} ${c.req.path}\n${fingerprintBody(await c.req.text(), omit)}`);
    const where = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));
    const replay = (row: { httpStatus: number | null; response: unknown }) => {
      c.header("Idempotent-Replayed", "true");
      return c.json(row.response as object, row.httpStatus as ContentfulStatusCode);
    };
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      // Keys older than a day are forgotten.
      await db.delete(idempotencyKeys).where(and(where, lt(idempotencyKeys.createdAt, new Date(clock.now().getTime() - DAY_MS))));
      const now = clock.now();
      const claimed = await db.insert(idempotencyKeys).values({ userId, key, requestHash: hash, createdAt: now, attemptAt: now }).onConflictDoNothing().returning({ key: idempotencyKeys.key });
      if (claimed.length === 1) break;
      const [first] = await db.select().from(idempotencyKeys).where(where);
      if (first) {
        if (first.requestHash !== hash) throw new DomainError("idempotency_mismatch");
        if (first.httpStatus !== null) return replay(first);
        // The last attempt failed, or went silent: this one runs again (one waiting request claims
        // it). Behind the row lock of an attempt still committing, this waits for its outcome.
        const retry = await db
          .update(idempotencyKeys)
          .set({ response: null, attemptAt: now })
          .where(and(where, isNull(idempotencyKeys.httpStatus), or(isNotNull(idempotencyKeys.response), lt(idempotencyKeys.attemptAt, new Date(now.getTime() - STALE_MS)))))
          .returning({ key: idempotencyKeys.key });
        if (retry.length === 1) break;
      }
      if (Date.now() > deadline) throw new DomainError("idempotency_in_progress");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }

    c.set("idempotency", async (tx, body) => {
      const stored = await tx
        .update(idempotencyKeys)
        .set({ httpStatus: 200, response: body })
        .where(and(where, isNull(idempotencyKeys.httpStatus)))
        .returning({ key: idempotencyKeys.key });
      // Another attempt stored its answer first: this effect rolls back, and its answer is replayed.
      if (stored.length === 0) throw new DomainError("idempotency_in_progress");
    });
    await next();

    const status = c.res.status;
    const kept = options.successesOnly ? status < 400 : status < 500;
    const body = kept
      ? await c.res
          .clone()
          .json()
          .catch(() => null)
      : null;
    const noted = await db
      .update(idempotencyKeys)
      .set(kept ? { httpStatus: status, response: body } : { response: RETRYABLE })
      .where(and(where, isNull(idempotencyKeys.httpStatus)))
      .returning({ key: idempotencyKeys.key });
    if (noted.length === 1) return;
    // An answer is stored already: by this request's own transaction (then it is this answer), or
    // by another attempt that took over (then that one is the answer, and this effect rolled back).
    const [row] = await db.select().from(idempotencyKeys).where(where);
    if (row?.httpStatus !== null && row?.httpStatus !== undefined && status >= 300) c.res = replay(row);
  };
}
