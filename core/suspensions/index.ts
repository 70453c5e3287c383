// Suspension of an account (docs/product/accounts.md#suspension): the model and its effects. A suspended account cannot
// sign in (account_suspended, told only after a correct password), its sessions end at once and
// stay refused, its passes stop entitling (isEntitled in subscriptions), and it cannot be sent
// gifts. A reversal (chargeback) suspends the buyer here; operators suspend and lift in the back
// office (a later issue).
import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { users } from "../../db/schema/index.ts";
import type { Sessions } from "../sessions/index.ts";
import type { Clock } from "../shared/clock.ts";
import type { Outbox } from "../webhooks/outbox.ts";
import { WEBHOOK_EVENTS } from "../../db/schema/index.ts";

export type SuspensionReason = "chargeback" | "operator";

export function isSuspended(user: { suspendedAt: Date | null }): boolean {
  return user.suspendedAt !== null;
}

export type Suspensions = ReturnType<typeof createSuspensions>;

export function createSuspensions({ sessions, clock, outbox }: { sessions: Sessions; clock: Clock; outbox?: Outbox }) {
  return {
    /**
     * Suspends the user inside the caller's transaction and ends every session of theirs. Returns
     * false when the account was suspended already (its first reason is kept).
     */
    async suspend(tx: Tx, userId: number, reason: SuspensionReason): Promise<boolean> {
      const now = clock.now();
      const rows = await tx
        .update(users)
        .set({ suspendedAt: now, suspendedReason: reason, updatedAt: now })
        .where(and(eq(users.id, userId), isNull(users.suspendedAt)))
        .returning({ id: users.id });
      await sessions.revokeAll(userId, undefined, tx);
      if (rows.length === 1) await outbox?.emit(tx, WEBHOOK_EVENTS.userSuspended, userId, { user_id: userId, reason, suspended_at: now.toISOString() });
      return rows.length === 1;
    },
  };
}
