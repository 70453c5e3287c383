// Retention: what the shop stops keeping, run by the background jobs (issue 7, point 13). Ended
// sessions after a grace period, spent or expired one-time codes, ended rate-limit windows, old
// Idempotency-Key answers, and the bodies of mails whose sending ended (the outbox rows stay, as the
// record of what went to whom and when). Every statement is idempotent, so several processes may
// run it at once.
import { isNotNull, lt, or } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { idempotencyKeys, oneTimeCodes, rateLimits, sessions } from "../../db/schema/index.ts";
import { purgeOutboxBodies } from "../mail/index.ts";
import type { Clock } from "../shared/clock.ts";

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

export const RETENTION = {
  /** An expired or revoked session is kept this long (a late "session ended" answer, support). */
  sessionGraceMs: 7 * DAY_MS,
  /** Answers of Idempotency-Keys are kept 24 h (docs/product/api.md#idempotency). */
  idempotencyMs: DAY_MS,
  /** A mail's subject and content (a reset code, a sign-in link) are kept this long after it was made. */
  mailBodyMs: HOUR_MS,
} as const;

export type PurgeResult = { sessions: number; codes: number; rateLimits: number; idempotencyKeys: number; mailBodies: number };

export function createRetention({ db, clock }: { db: Db; clock: Clock }) {
  return {
    async purge(): Promise<PurgeResult> {
      const now = clock.now();
      const ago = (ms: number) => new Date(now.getTime() - ms);
      const sessionCutoff = ago(RETENTION.sessionGraceMs);
      const ended = await db
        .delete(sessions)
        .where(or(lt(sessions.expiresAt, sessionCutoff), lt(sessions.revokedAt, sessionCutoff)))
        .returning({ id: sessions.id });
      // A spent code is never accepted again and an expired one never matches: neither is kept.
      const codes = await db
        .delete(oneTimeCodes)
        .where(or(isNotNull(oneTimeCodes.usedAt), lt(oneTimeCodes.expiresAt, now)))
        .returning({ id: oneTimeCodes.id });
      const windows = await db.delete(rateLimits).where(lt(rateLimits.resetAt, now)).returning({ key: rateLimits.key });
      const keys = await db
        .delete(idempotencyKeys)
        .where(lt(idempotencyKeys.createdAt, ago(RETENTION.idempotencyMs)))
        .returning({ key: idempotencyKeys.key });
      const mailBodies = await purgeOutboxBodies(db, ago(RETENTION.mailBodyMs));
      return { sessions: ended.length, codes: codes.length, rateLimits: windows.length, idempotencyKeys: keys.length, mailBodies };
    },
  };
}
