// The outgoing webhooks' outbox (docs/product/delivery.md#webhooks): an event is written in the very
// transaction of the change it tells of — a purchase, a freeze, a refund, a suspension — together with
// one queued delivery per endpoint that wants it, so an event exists exactly when its change was
// committed, and nothing is lost between the change and the queue. With no endpoint for the type,
// nothing is written. The bodies' `data` is written here, in the webhooks' own wire format
// (snake_case, ISO 8601 times, minor units), the same for every receiver.
import { sql } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import type { WebhookEventType } from "../../db/schema/index.ts";
import type { Clock } from "../shared/clock.ts";
import { randomToken } from "../shared/tokens.ts";

export type Outbox = {
  /** Queues the event for every active endpoint that wants its type, inside the caller's transaction. */
  emit(tx: Tx, type: WebhookEventType, userId: number, data: Record<string, unknown>): Promise<void>;
};

/** Retries of a delivery stop this long after its event (or its resend): then it is failed. */
export const RETRY_WINDOW_MS = 24 * 3600_000;

export function createOutbox({ clock }: { clock: Clock }): Outbox {
  return {
    async emit(tx, type, userId, data) {
      const now = clock.now();
      const id = `evt_${randomToken(18)}`;
      const deadline = new Date(now.getTime() + RETRY_WINDOW_MS);
      // One statement: the endpoints that want the type, the event only if there is one, a delivery each.
      await tx.execute(sql`
        with wanted as (
          select id from webhook_endpoints where active and events @> ${JSON.stringify([type])}::jsonb
        ), event as (
          insert into webhook_events (id, type, user_id, data, created_at)
          select ${id}, ${type}, ${userId}, ${JSON.stringify(data)}::jsonb, ${now.toISOString()}::timestamptz
          where exists (select 1 from wanted)
          returning id
        )
        insert into webhook_deliveries (endpoint_id, event_id, user_id, next_attempt_at, deadline_at, created_at)
        select wanted.id, event.id, ${userId}, ${now.toISOString()}::timestamptz, ${deadline.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
        from wanted, event`);
    },
  };
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The data of a changed pass's event: the pass as it is after the change. */
export function subscriptionEventData(userId: number, subscription: { cheatId: number; state: string; expiresAt: Date; frozenLength: number; remainingSeconds: number }): Record<string, unknown> {
  return {
    user_id: userId,
    cheat_id: subscription.cheatId,
    state: subscription.state,
    // While frozen the stored expiry means nothing: the time is in frozen_length.
    expires_at: subscription.state === "frozen" ? null : iso(subscription.expiresAt),
    frozen_length: subscription.frozenLength,
    remaining_seconds: subscription.remainingSeconds,
  };
}
