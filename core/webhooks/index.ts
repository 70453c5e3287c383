// Outgoing webhooks (docs/product/delivery.md#webhooks): the endpoints operators register, and the worker
// that empties the queue the outbox fills (outbox.ts). Every delivery is attempted until a receiver
// answers 2xx, with exponential backoff (30 s doubling up to an hour between attempts) for 24 hours,
// then marked failed; an operator can resend it. At least once: an attempt is leased in the database
// before the request leaves, so a process that dies mid-attempt leaves the delivery to the next
// worker once the lease ends; a receiver deduplicates by the event's `id`. In order per user and
// endpoint: a delivery is taken only when no earlier one of the same user and endpoint is pending.
// Several processes may run the worker: claims use SKIP LOCKED.
import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { and, asc, desc, eq, inArray, isNull, lt, lte, notExists, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client.ts";
import type { Audit, AuditBy } from "../audit/index.ts";
import { webhookDeliveries, webhookEndpoints, webhookEvents, type WebhookDeliveryStatus, type WebhookEventType } from "../../db/schema/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import { isIP } from "node:net";
import { endpointUrlProblem, isPublicAddress, publicOnlyLookup } from "./address.ts";
import { RETRY_WINDOW_MS } from "./outbox.ts";

export { createOutbox, type Outbox } from "./outbox.ts";

/** Delay before attempt n+1 after n failed ones: 30 s, 1 min, 2 min, … at most an hour. */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, failedAttempts - 1), 3600_000);
}

/** `Nova-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac("sha256", secret).update(`${unixSeconds}.${body}`).digest("hex");
  return `t=${unixSeconds},v1=${mac}`;
}

export type Delivery = {
  id: number;
  eventId: string;
  type: WebhookEventType;
  userId: number;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
};

export type Endpoint = {
  id: number;
  url: string;
  events: WebhookEventType[];
  active: boolean;
  createdAt: Date;
  /** The first characters of the secret, to tell endpoints apart (the whole secret is shown once). */
  secretHint: string;
  deliveries: Delivery[];
};

/** What one attempt got: the receiver's status, or why there was none. */
export type SendResult = { status: number } | { error: string };
export type Send = (url: string, body: string, headers: Record<string, string>, timeoutMs: number) => Promise<SendResult>;

type Logger = { warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };

/** A POST with node's http(s): a total deadline, the answer's body drained and dropped. */
function sender(lookup: typeof publicOnlyLookup | undefined): Send {
  return (url, body, headers, timeoutMs) => {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[(.*)\]$/, "$1");
    // A literal address is never looked up: checked here (names are checked by the lookup).
    if (lookup && isIP(host) && !isPublicAddress(host)) return Promise.resolve({ error: `${host} is not a public address` });
    return new Promise((resolve) => {
      let settled = false;
      const done = (result: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const request = (target.protocol === "https:" ? https : http).request(
        target,
        { method: "POST", headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) }, ...(lookup ? { lookup } : {}) },
        (response) => {
          response.on("data", () => {});
          response.on("end", () => done({ status: response.statusCode ?? 0 }));
          response.on("error", (error) => done({ error: error.message }));
        },
      );
      const timer = setTimeout(() => {
        request.destroy();
        done({ error: `no answer within ${timeoutMs} ms` });
      }, timeoutMs);
      request.on("error", (error) => done({ error: error.message }));
      request.end(body);
    });
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;

export function createWebhooks(deps: {
  db: Db;
  clock: Clock;
  audit: Audit;
  /** A loopback shop may call any address over http too (docs/product/delivery.md#webhooks). */
  anyAddress: boolean;
  timeoutMs: number;
  logger: Logger;
  /** How an attempt is sent; node's http(s) by default. */
  send?: Send;
}) {
  const { db, clock, audit, anyAddress, timeoutMs, logger } = deps;
  const send = deps.send ?? sender(anyAddress ? undefined : publicOnlyLookup);
  /** An attempt's lease: its deadline and a minute to write down the answer. */
  const leaseMs = timeoutMs + 60_000;

  const deliveryOf = (row: typeof webhookDeliveries.$inferSelect, type: WebhookEventType): Delivery => ({
    id: row.id,
    eventId: row.eventId,
    type,
    userId: row.userId,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt,
    lastAttemptAt: row.lastAttemptAt,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    deliveredAt: row.deliveredAt,
    createdAt: row.createdAt,
  });

  async function latestDeliveries(endpointIds: number[], perEndpoint: number): Promise<Map<number, Delivery[]>> {
    const byEndpoint = new Map<number, Delivery[]>(endpointIds.map((id) => [id, []]));
    if (endpointIds.length === 0) return byEndpoint;
    const rows = await db
      .select({ delivery: webhookDeliveries, type: webhookEvents.type })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(
        and(
          inArray(webhookDeliveries.endpointId, endpointIds),
          sql`${webhookDeliveries.id} in (select id from webhook_deliveries w where w.endpoint_id = ${webhookDeliveries.endpointId} order by w.id desc limit ${perEndpoint})`,
        ),
      )
      .orderBy(desc(webhookDeliveries.id));
    for (const { delivery, type } of rows) byEndpoint.get(delivery.endpointId)?.push(deliveryOf(delivery, type));
    return byEndpoint;
  }

  /** One attempt of a claimed delivery; writes down what happened unless another worker took it over. */
  async function attempt(claim: { id: number; lockedUntil: Date; attempts: number; deadlineAt: Date; url: string; secret: string; body: string; eventId: string; type: string }) {
    const sentAt = clock.now();
    const headers = {
      "Content-Type": "application/json",
      "User-Agent": "NOVA-Webhooks/1",
      "Nova-Event-Id": claim.eventId,
      "Nova-Event-Type": claim.type,
      "Nova-Signature": signatureHeader(claim.secret, claim.body, Math.floor(sentAt.getTime() / 1000)),
    };
    let result: SendResult;
    try {
      result = await send(claim.url, claim.body, headers, timeoutMs);
    } catch (error) {
      result = { error: error instanceof Error ? error.message : String(error) };
    }
    const now = clock.now();
    const ok = "status" in result && result.status >= 200 && result.status < 300;
    const next = new Date(now.getTime() + retryDelayMs(claim.attempts));
    const failed = !ok && next.getTime() > claim.deadlineAt.getTime();
    const lastStatus = "status" in result ? result.status : null;
    const lastError = "error" in result ? result.error.slice(0, 500) : ok ? null : `HTTP ${lastStatus}`;
    await db
      .update(webhookDeliveries)
      .set(
        ok
          ? { status: "delivered", deliveredAt: now, lockedUntil: null, lastStatus, lastError: null }
          : { status: failed ? "failed" : "pending", nextAttemptAt: next, lockedUntil: null, lastStatus, lastError },
      )
      // Only the holder of the lease writes: a worker whose lease ran out lost the delivery.
      .where(and(eq(webhookDeliveries.id, claim.id), eq(webhookDeliveries.lockedUntil, claim.lockedUntil)));
    if (!ok) logger.warn({ deliveryId: claim.id, eventId: claim.eventId, status: lastStatus, error: lastError, failed }, "webhook delivery failed");
    return ok ? "delivered" : failed ? "failed" : "retry";
  }

  return {
    /** Every endpoint, newest first, each with its latest deliveries (the delivery log). */
    async list(perEndpoint = 20): Promise<Endpoint[]> {
      const rows = await db.select().from(webhookEndpoints).orderBy(desc(webhookEndpoints.id));
      const deliveries = await latestDeliveries(
        rows.map((r) => r.id),
        perEndpoint,
      );
      return rows.map((row) => ({
        id: row.id,
        url: row.url,
        events: row.events,
        active: row.active,
        createdAt: row.createdAt,
        secretHint: `${row.secret.slice(0, 4)}…`,
        deliveries: deliveries.get(row.id) ?? [],
      }));
    },

    /** Registers an endpoint, audited (the secret is not written down); its secret (given, or made here) is answered this once. */
    async create(input: { url: string; secret?: string; events: WebhookEventType[] }, by: AuditBy): Promise<{ id: number; secret: string }> {
      const problem = await endpointUrlProblem(input.url, anyAddress);
      if (problem) throw new DomainError("validation_failed", "errors.validation_failed", { fields: { url: "validation.webhook_url" }, reason: problem });
      const secret = input.secret ?? `whsec_${randomBytes(24).toString("base64url")}`;
      const events = [...new Set(input.events)];
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(webhookEndpoints).values({ url: input.url, secret, events, createdBy: by.actorId, createdAt: clock.now() }).returning({ id: webhookEndpoints.id });
        await audit.record(tx, { actorId: by.actorId, action: "webhook.add", targetType: "webhook", targetId: row!.id, reason: by.reason, after: { url: input.url, events }, ip: by.ip });
        return { id: row!.id, secret };
      });
    },

    /** Removes an endpoint and its queue, audited. */
    async remove(id: number, by: AuditBy): Promise<void> {
      await db.transaction(async (tx) => {
        const gone = await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).returning({ id: webhookEndpoints.id, url: webhookEndpoints.url, events: webhookEndpoints.events });
        if (gone.length === 0) throw new DomainError("not_found");
        await audit.record(tx, {
          actorId: by.actorId,
          action: "webhook.remove",
          targetType: "webhook",
          targetId: id,
          reason: by.reason,
          before: { url: gone[0]!.url, events: gone[0]!.events },
          ip: by.ip,
        });
      });
    },

    /** Sends a delivery again by hand, audited: pending now, with a fresh 24 hours of retries. */
    async resend(deliveryId: number, by: AuditBy): Promise<void> {
      const now = clock.now();
      await db.transaction(async (tx) => {
        const [before] = await tx
          .select({ status: webhookDeliveries.status, attempts: webhookDeliveries.attempts, endpointId: webhookDeliveries.endpointId, eventId: webhookDeliveries.eventId })
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.id, deliveryId))
          .for("update");
        if (!before) throw new DomainError("not_found");
        await tx
          .update(webhookDeliveries)
          .set({ status: "pending", attempts: 0, nextAttemptAt: now, deadlineAt: new Date(now.getTime() + RETRY_WINDOW_MS), lockedUntil: null, deliveredAt: null })
          .where(eq(webhookDeliveries.id, deliveryId));
        await audit.record(tx, {
          actorId: by.actorId,
          action: "webhook.resend",
          targetType: "webhook_delivery",
          targetId: deliveryId,
          reason: by.reason,
          before: { status: before.status, attempts: before.attempts, endpoint_id: before.endpointId, event_id: before.eventId },
          after: { status: "pending" },
          ip: by.ip,
        });
      });
    },

    /**
     * Claims the due deliveries (at most `limit`, at most one per user and endpoint: the oldest
     * pending) and attempts them in parallel. Returns what became of each.
     */
    async deliverDue(limit = 20): Promise<{ delivered: number; retry: number; failed: number }> {
      const now = clock.now();
      const lockedUntil = new Date(now.getTime() + leaseMs);
      const earlier = alias(webhookDeliveries, "earlier");
      const claims = await db.transaction(async (tx) => {
        const due = await tx
          .select({
            id: webhookDeliveries.id,
            attempts: webhookDeliveries.attempts,
            deadlineAt: webhookDeliveries.deadlineAt,
            eventId: webhookDeliveries.eventId,
            endpointId: webhookDeliveries.endpointId,
          })
          .from(webhookDeliveries)
          .where(
            and(
              eq(webhookDeliveries.status, "pending"),
              lte(webhookDeliveries.nextAttemptAt, now),
              or(isNull(webhookDeliveries.lockedUntil), lte(webhookDeliveries.lockedUntil, now)),
              notExists(
                tx
                  .select({ one: sql`1` })
                  .from(earlier)
                  .where(
                    and(eq(earlier.endpointId, webhookDeliveries.endpointId), eq(earlier.userId, webhookDeliveries.userId), lt(earlier.id, webhookDeliveries.id), eq(earlier.status, "pending")),
                  ),
              ),
            ),
          )
          .orderBy(asc(webhookDeliveries.id))
          .limit(limit)
          .for("update", { of: webhookDeliveries, skipLocked: true });
        if (due.length === 0) return [];
        await tx
          .update(webhookDeliveries)
          .set({ lockedUntil, attempts: sql`${webhookDeliveries.attempts} + 1`, lastAttemptAt: now })
          .where(
            inArray(
              webhookDeliveries.id,
              due.map((d) => d.id),
            ),
          );
        const events = await tx
          .select()
          .from(webhookEvents)
          .where(
            inArray(
              webhookEvents.id,
              due.map((d) => d.eventId),
            ),
          );
        const endpoints = await tx
          .select()
          .from(webhookEndpoints)
          .where(
            inArray(
              webhookEndpoints.id,
              due.map((d) => d.endpointId),
            ),
          );
        const eventOf = new Map(events.map((e) => [e.id, e]));
        const endpointOf = new Map(endpoints.map((e) => [e.id, e]));
        return due.map((d) => {
          const event = eventOf.get(d.eventId)!;
          const endpoint = endpointOf.get(d.endpointId)!;
          const body = JSON.stringify({ id: event.id, type: event.type, created_at: event.createdAt.toISOString(), data: event.data });
          return { id: d.id, lockedUntil, attempts: d.attempts + 1, deadlineAt: d.deadlineAt, url: endpoint.url, secret: endpoint.secret, body, eventId: event.id, type: event.type };
        });
      });
      const outcomes = await Promise.all(claims.map(attempt));
      return {
        delivered: outcomes.filter((o) => o === "delivered").length,
        retry: outcomes.filter((o) => o === "retry").length,
        failed: outcomes.filter((o) => o === "failed").length,
      };
    },
  };
}
