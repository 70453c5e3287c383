// Bulk compensation (docs/product/back-office.md#compensation): N days added to every pass of a
// game held (active or frozen) when the call started — a frozen one keeps them in its freeze — with
// a notification and a mail to each buyer in their language, and one audit entry with the count.
//
// The set of passes is fixed first, in one transaction with the compensation's row and its audit
// entry: a purchase made afterwards that starts a new pass is not in it, and one that extends a pass
// of the set adds its own days on top (each batch's UPDATE reads the row as the purchase left it).
// The set is then worked through in batches of COMPENSATION_BATCH passes, each one transaction that
// extends its passes, marks them done and writes their notifications, so no lock is held for long and
// a pass is extended exactly once. A call that died part-way is resumed by its replay: the row is
// found by (operator, Idempotency-Key) and only the passes not done yet are extended. The call
// answers at the end, with the count; the mails go out after it, in the background and from the
// jobs (a pass is marked mailed in the transaction that claims it, then mailed).
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { compensations } from "../../db/schema/index.ts";
import type { Locale } from "../../i18n/locales.ts";
import type { Audit } from "../audit/index.ts";
import type { Catalog } from "../catalog/index.ts";
import type { Mailer } from "../mail/index.ts";
import type { Operators } from "../operators/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import type { Actor } from "./customers.ts";

type Logger = { error(obj: object, msg?: string): void };

export type CompensationResult = {
  id: number;
  cheatId: number;
  days: number;
  /** Passes extended: the whole set fixed when the call started. */
  affected: number;
  finishedAt: Date;
};

/** Compensation mails in flight at once. */
const MAIL_CONCURRENCY = 8;

/** The rows of a raw query, whichever driver ran it. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export function createCompensations(deps: { db: Db; clock: Clock; audit: Audit; operators: Operators; catalog: Catalog; mailer: Mailer; logger: Logger; batchSize: number }) {
  const { db, clock, audit, operators, catalog, mailer, logger, batchSize } = deps;

  /** Fixes the set of passes and writes the compensation with its audit entry; undefined when another call did first. */
  async function start(actor: Actor, input: { cheatId: number; days: number; reason: string; idempotencyKey: string }) {
    return db.transaction(async (tx) => {
      const now = clock.now();
      const [row] = await tx
        .insert(compensations)
        .values({ actorId: actor.operator.id, idempotencyKey: input.idempotencyKey, cheatId: input.cheatId, days: input.days, reason: input.reason, total: 0, createdAt: now })
        .onConflictDoNothing()
        .returning();
      if (!row) return undefined;
      // Held: active (not expired) or frozen; never an operator's own pass (no operator acts on an operator's account).
      const inserted = await tx.execute(sql`
        insert into compensation_items (compensation_id, subscription_id, user_id)
        select ${row.id}, s.id, s.user_id
        from subscriptions s join users u on u.id = s.user_id
        where s.cheat_id = ${input.cheatId} and u.role is null
          and (s.frozen_length > 0 or s.expires_at > ${now.toISOString()}::timestamptz)
        returning 1`);
      const total = rowsOf(inserted).length;
      const [started] = await tx.update(compensations).set({ total }).where(eq(compensations.id, row.id)).returning();
      await audit.record(tx, {
        actorId: actor.operator.id,
        action: "compensation.run",
        targetType: "compensation",
        targetId: row.id,
        reason: input.reason,
        after: { cheat_id: input.cheatId, days: input.days, passes: total },
        ip: actor.ip,
      });
      return started!;
    });
  }

  /** Extends the next batch of the set; how many passes it did (0: the set is done). */
  async function applyBatch(compensation: typeof compensations.$inferSelect, game: string): Promise<number> {
    const now = clock.now().toISOString();
    const seconds = compensation.days * 86_400;
    const data = JSON.stringify({ game, days: compensation.days });
    const result = await db.transaction(async (tx) =>
      tx.execute(sql`
        with batch as (
          select subscription_id from compensation_items
          where compensation_id = ${compensation.id} and applied_at is null
          order by subscription_id
          limit ${batchSize}
          for update skip locked
        ), extended as (
          update subscriptions s set
            frozen_length = case when s.frozen_length > 0 then s.frozen_length + ${seconds} else 0 end,
            expires_at = case
              when s.frozen_length > 0 then s.expires_at
              when s.expires_at > ${now}::timestamptz then s.expires_at + make_interval(secs => ${seconds})
              else ${now}::timestamptz + make_interval(secs => ${seconds}) end,
            expiry_notified_at = null,
            updated_at = ${now}::timestamptz
          from batch where s.id = batch.subscription_id
          returning s.user_id
        ), marked as (
          update compensation_items ci set applied_at = ${now}::timestamptz
          from batch where ci.compensation_id = ${compensation.id} and ci.subscription_id = batch.subscription_id
          returning ci.user_id
        ), notified as (
          insert into notifications (user_id, type, data, created_at)
          select user_id, 'days_granted', ${data}::jsonb, ${now}::timestamptz from extended
          returning 1
        )
        select (select count(*) from marked)::int as marked, (select count(*) from notified)::int as notified`),
    );
    return rowsOf<{ marked: number }>(result)[0]?.marked ?? 0;
  }

  return {
    /**
     * Runs (or, for a key seen before, resumes) a compensation and answers with the count once every
     * pass of its set is extended. `support` may not (docs/product/back-office.md#roles).
     */
    async compensate(actor: Actor, input: { cheatId: number; days: number; reason: string; idempotencyKey: string }): Promise<CompensationResult> {
      operators.require(actor.operator, "compensate");
      const cheat = catalog.cheatById(input.cheatId);
      if (!cheat) throw new DomainError("not_found", "errors.game_not_found");
      const where = and(eq(compensations.actorId, actor.operator.id), eq(compensations.idempotencyKey, input.idempotencyKey));
      let [compensation] = await db.select().from(compensations).where(where);
      if (!compensation) {
        compensation = (await start(actor, input)) ?? (await db.select().from(compensations).where(where))[0];
        if (!compensation) throw new DomainError("idempotency_in_progress");
      }
      if (compensation.cheatId !== input.cheatId || compensation.days !== input.days) throw new DomainError("idempotency_mismatch");
      // Batch after batch; one that another attempt still holds (SKIP LOCKED passes it by) is waited for.
      for (;;) {
        if ((await applyBatch(compensation, cheat.name)) > 0) continue;
        const [pending] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from compensation_items where compensation_id = ${compensation.id} and applied_at is null`));
        if (!pending || pending.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const [finished] = await db
        .update(compensations)
        .set({ finishedAt: clock.now() })
        .where(and(eq(compensations.id, compensation.id), isNull(compensations.finishedAt)))
        .returning();
      const done = finished ?? (await db.select().from(compensations).where(eq(compensations.id, compensation.id)))[0]!;
      return { id: done.id, cheatId: done.cheatId, days: done.days, affected: done.total, finishedAt: done.finishedAt! };
    },

    /**
     * Mails the buyers of extended passes not mailed yet (every compensation, or one), in their
     * language; each pass is claimed and marked in one transaction (SKIP LOCKED: several processes
     * share the work), then mailed. How many mails were sent.
     */
    async sendMails(compensationId?: number, limit = 200): Promise<number> {
      let sent = 0;
      for (;;) {
        const claimed = await db.transaction(async (tx) =>
          rowsOf<{ email: string; locale: Locale; cheat_id: number; days: number }>(
            await tx.execute(sql`
              with batch as (
                select compensation_id, subscription_id from compensation_items
                where applied_at is not null and mailed_at is null
                  ${compensationId === undefined ? sql`` : sql`and compensation_id = ${compensationId}`}
                limit ${limit}
                for update skip locked
              ), marked as (
                update compensation_items ci set mailed_at = ${clock.now().toISOString()}::timestamptz
                from batch where ci.compensation_id = batch.compensation_id and ci.subscription_id = batch.subscription_id
                returning ci.user_id, ci.compensation_id
              )
              select u.email, u.locale, c.cheat_id, c.days
              from marked m join users u on u.id = m.user_id join compensations c on c.id = m.compensation_id`),
          ),
        );
        // A few at a time: rendering is the CPU's, the outbox insert and SMTP the network's.
        for (let i = 0; i < claimed.length; i += MAIL_CONCURRENCY) {
          await Promise.all(
            claimed.slice(i, i + MAIL_CONCURRENCY).map((row) =>
              mailer
                .send({ to: row.email, locale: row.locale, template: "days_granted", params: { game: catalog.gameName(row.cheat_id), days: row.days } })
                .then(() => sent++)
                .catch((err: unknown) => logger.error({ err }, "compensation mail failed")),
            ),
          );
        }
        if (claimed.length < limit) return sent;
      }
    },
  };
}
