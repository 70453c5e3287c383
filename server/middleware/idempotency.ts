// Idempotency-Key for calls that move money or time (docs/product/api.md#idempotency): the same key from the same
// user within 24 h returns the first answer and changes nothing again; the same key with another
// body is a 409. Parallel requests with one key wait for the first one's answer. A 5xx answer is
// not kept, so a retry runs again (e.g. after the payment provider timed out); the key stays bound
// to its body all the same, so a retry with another body is still a 409.
import { and, eq, isNotNull, isNull, lt } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
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

export function idempotent(): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    const key = c.req.header("idempotency-key");
    if (key === undefined) return next();
    if (!KEY.test(key)) {
      throw new DomainError("validation_failed", "errors.validation_failed", { fields: { "Idempotency-Key": "validation.idempotency_key" } });
    }
    const { db, clock } = c.get("services");
    const userId = requireAuth(c).user.id;
    const hash = sha256(`${c.req.method} ${c.req.path}\n${await c.req.text()}`);
    const where = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      // Keys older than a day are forgotten.
      await db.delete(idempotencyKeys).where(and(where, lt(idempotencyKeys.createdAt, new Date(clock.now().getTime() - DAY_MS))));
      const claimed = await db
        .insert(idempotencyKeys)
        .values({ userId, key, requestHash: hash, createdAt: clock.now() })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (claimed.length === 1) break;
      const [first] = await db.select().from(idempotencyKeys).where(where);
      if (first) {
        if (first.requestHash !== hash) throw new DomainError("conflict", "errors.idempotency_mismatch");
        if (first.httpStatus !== null) {
          c.header("Idempotent-Replayed", "true");
          return c.json(first.response as object, first.httpStatus as ContentfulStatusCode);
        }
        if (first.response !== null) {
          // The last attempt failed: this one runs again (one waiting request claims it).
          const retry = await db
            .update(idempotencyKeys)
            .set({ response: null })
            .where(and(where, isNull(idempotencyKeys.httpStatus), isNotNull(idempotencyKeys.response)))
            .returning({ key: idempotencyKeys.key });
          if (retry.length === 1) break;
          continue;
        }
      }
      if (Date.now() > deadline) throw new DomainError("conflict", "errors.idempotency_in_progress");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await next();
    const status = c.res.status;
    if (status >= 500) {
      await db.update(idempotencyKeys).set({ response: RETRYABLE }).where(where);
      return;
    }
    const body = await c.res.clone().json().catch(() => null);
    await db.update(idempotencyKeys).set({ httpStatus: status, response: body }).where(where);
  };
}
