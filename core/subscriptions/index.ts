// Subscriptions: one per user and cheat (docs/product/data.md#subscriptions). Buying days extends a live
// subscription and restarts an expired one; freezing keeps the remaining time to the second;
// unfreezing (by the user, or by itself after FREEZE_MAX_DAYS) sets expires_at = now + that time.
// Every change locks the subscription's row, so parallel freezes or unfreezes act once.
import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { jsonRows } from "../../db/json-rows.ts";
import { subscriptions, users } from "../../db/schema/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import { WEBHOOK_EVENTS, type GameStatus } from "../../db/schema/index.ts";
import { subscriptionEventData, type Outbox } from "../webhooks/outbox.ts";

const DAY_MS = 86_400_000;

/** A subscription as stored. */
export type SubscriptionRow = typeof subscriptions.$inferSelect;
type Row = SubscriptionRow;

export type SubscriptionState = "active" | "frozen" | "expired";

/** Why a freeze is refused; `null` when it is allowed. */
export type FreezeBlock = "missing" | "expired" | "frozen" | "cooldown" | null;

/** A user's subscription to one game, with what follows from it now (docs/product/data.md#subscriptions). */
export type Subscription = {
  cheatId: number;
  /** When the time runs out; while frozen not meaningful (the time is in `frozenLength`). */
  expiresAt: Date;
  /** Seconds kept aside while frozen, else 0. */
  frozenLength: number;
  /** The earliest next freeze (after an unfreeze, the cooldown). */
  nextFreezeAt: Date | null;
  /** When the last freeze ended. */
  unfrozenAt: Date | null;
  /** When the running freeze began. */
  frozenAt: Date | null;
  state: SubscriptionState;
  /** Seconds of subscription time left (while frozen: what the freeze keeps). */
  remainingSeconds: number;
  canFreeze: boolean;
  freezeBlock: FreezeBlock;
  /** When a running freeze ends by itself. */
  freezeEndsAt: Date | null;
  /** The pass's licence key (docs/product/delivery.md#licences). */
  licenceKey: string;
};

export type Subscriptions = ReturnType<typeof createSubscriptions>;

/** What buying days makes of a pass: a running one and when it ends, or a frozen one and the time it keeps. */
export type AfterPurchase = { state: "active"; expiresAt: Date } | { state: "frozen"; keptSeconds: number };

/**
 * The pass after buying `days` at `now`, by the rule grantDays applies (docs/product/data.md#subscriptions):
 * a live pass is extended from its end, a frozen one keeps the days in its freeze, an expired or
 * missing one starts now. For a checkout to show before the buyer pays.
 */
export function afterPurchase(subscription: Pick<Subscription, "state" | "expiresAt" | "frozenLength"> | null, days: number, now: Date): AfterPurchase {
  const added = days * DAY_MS;
  if (subscription?.state === "frozen") return { state: "frozen", keptSeconds: subscription.frozenLength + days * 86_400 };
  const from = subscription?.state === "active" ? subscription.expiresAt.getTime() : now.getTime();
  return { state: "active", expiresAt: new Date(from + added) };
}

/** Game statuses under which no pass of the game entitles (docs/product/delivery.md#entitlement). */
const UNPLAYABLE: ReadonlySet<GameStatus> = new Set(["detected", "maintenance"]);

/**
 * Whether a pass lets its owner play (docs/product/data.md#subscription-states): it is active, the game is neither
 * `detected` nor `maintenance`, and the account is not suspended.
 */
export function isEntitled(subscription: Pick<Subscription, "state">, account: { suspendedAt: Date | null }, gameStatus: GameStatus = "working"): boolean {
  return subscription.state === "active" && account.suspendedAt === null && !UNPLAYABLE.has(gameStatus);
}

export function createSubscriptions(deps: { db: Db; clock: Clock; freezeMaxDays: number; freezeCooldownDays: number; outbox?: Outbox }) {
  const { db, clock, freezeMaxDays, freezeCooldownDays, outbox } = deps;

  /** Tells the webhooks of a changed pass, inside the transaction of the change (docs/product/delivery.md#webhooks). */
  async function changed(tx: Tx, row: Row, now = clock.now()): Promise<void> {
    await outbox?.emit(tx, WEBHOOK_EVENTS.subscriptionUpdated, row.userId, subscriptionEventData(row.userId, view(row, now)));
  }

  function stateOf(row: Row, now: Date): SubscriptionState {
    if (row.frozenLength > 0) return "frozen"; // a frozen subscription never reads as expired
    return row.expiresAt.getTime() > now.getTime() ? "active" : "expired";
  }

  function freezeBlock(row: Row | undefined, now: Date): FreezeBlock {
    if (!row) return "missing";
    const state = stateOf(row, now);
    if (state === "frozen") return "frozen";
    if (state === "expired") return "expired";
    if (row.nextFrozeDate && row.nextFrozeDate.getTime() > now.getTime()) return "cooldown";
    return null;
  }

  function view(row: Row, now = clock.now()): Subscription {
    const state = stateOf(row, now);
    const block = freezeBlock(row, now);
    return {
      cheatId: row.cheatId,
      expiresAt: row.expiresAt,
      frozenLength: row.frozenLength,
      nextFreezeAt: row.nextFrozeDate,
      unfrozenAt: row.unfrozenDate,
      frozenAt: row.frozenAt,
      state,
      remainingSeconds: state === "frozen" ? row.frozenLength : Math.max(0, Math.floor((row.expiresAt.getTime() - now.getTime()) / 1000)),
      canFreeze: block === null,
      freezeBlock: block,
      freezeEndsAt: row.frozenAt ? new Date(row.frozenAt.getTime() + freezeMaxDays * DAY_MS) : null,
      licenceKey: row.licenceKey,
    };
  }

  /** A user's rows outside a transaction: prepared once (the signed-in hot path, frontend/data and the profile). */
  const userRows = db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, sql.placeholder("userId")))
    .orderBy(asc(subscriptions.cheatId))
    .prepare("subscriptions_of_user");

  async function rowsOf(userId: number, tx: Db | Tx = db): Promise<Row[]> {
    if (tx === db) return userRows.execute({ userId });
    return tx.select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(asc(subscriptions.cheatId));
  }

  async function lockRow(tx: Tx, userId: number, cheatId: number): Promise<Row | undefined> {
    const rows = await tx
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), eq(subscriptions.cheatId, cheatId)))
      .for("update");
    return rows[0];
  }

  /** The unfreeze of a row, as of `at` (the user's click, or the scheduled end of a freeze). */
  function unfrozenValues(row: Row, at: Date) {
    return {
      expiresAt: new Date(at.getTime() + row.frozenLength * 1000),
      frozenLength: 0,
      frozenAt: null,
      unfrozenDate: at,
      nextFrozeDate: new Date(at.getTime() + freezeCooldownDays * DAY_MS),
      updatedAt: clock.now(),
    };
  }

  return {
    view,

    async list(userId: number, tx: Db | Tx = db): Promise<Subscription[]> {
      const now = clock.now();
      return (await rowsOf(userId, tx)).map((row) => view(row, now));
    },

    /**
     * The user's stored rows, as a fragment of a bigger statement (`userId` is the column or value
     * naming the user there), for `viewAll` at the time of each answer: frontend/data keeps them
     * between requests (docs/decisions/0076-own-rows-by-version.md), and their state, remaining
     * seconds and freeze block change with time alone.
     */
    rowsIn(userId: SQLWrapper): SQL<Row[]> {
      return jsonRows(subscriptions, sql`select * from ${subscriptions} where ${subscriptions.userId} = ${userId}`, subscriptions.cheatId, "asc", (row) => row);
    },

    /** What `list` answers for rows of `rowsIn`, now. */
    viewAll(rows: readonly Row[]): Subscription[] {
      const now = clock.now();
      return rows.map((row) => view(row, now));
    },

    /** The user's subscription to one game, or null when they never had one. */
    async forCheat(userId: number, cheatId: number): Promise<Subscription | null> {
      const [row] = await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, userId), eq(subscriptions.cheatId, cheatId)));
      return row ? view(row) : null;
    },

    /**
     * Adds days inside the caller's transaction, in one statement: a live subscription is
     * extended, a frozen one keeps the days in its freeze, an expired or missing one starts now.
     */
    async grantDays(tx: Tx, userId: number, cheatId: number, days: number): Promise<void> {
      if (!Number.isInteger(days) || days <= 0) throw new DomainError("validation_failed");
      const now = clock.now();
      const seconds = days * 86_400;
      const nowIso = now.toISOString();
      const [row] = await tx
        .insert(subscriptions)
        .values({ userId, cheatId, expiresAt: new Date(now.getTime() + seconds * 1000), createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: [subscriptions.userId, subscriptions.cheatId],
          set: {
            frozenLength: sql`case when ${subscriptions.frozenLength} > 0 then ${subscriptions.frozenLength} + ${seconds} else 0 end`,
            expiresAt: sql`case
              when ${subscriptions.frozenLength} > 0 then ${subscriptions.expiresAt}
              when ${subscriptions.expiresAt} > ${nowIso}::timestamptz then ${subscriptions.expiresAt} + make_interval(secs => ${seconds})
              else ${nowIso}::timestamptz + make_interval(secs => ${seconds}) end`,
            expiryNotifiedAt: null,
            updatedAt: now,
          },
        })
        .returning();
      await changed(tx, row!, now);
    },

    /**
     * Removes up to `seconds` of time (a refunded purchase, docs/product/money.md#refunds-and-reversals): from `expires_at`, or
     * from `frozen_length` when frozen, never time already used (nothing goes below "now"); inside
     * the caller's transaction. Returns the seconds actually removed.
     */
    async revokeSeconds(tx: Tx, userId: number, cheatId: number, seconds: number): Promise<number> {
      if (!Number.isInteger(seconds) || seconds <= 0) return 0;
      const row = await lockRow(tx, userId, cheatId);
      if (!row) return 0;
      const now = clock.now();
      const wanted = seconds;
      if (row.frozenLength > 0) {
        const removed = Math.min(wanted, row.frozenLength);
        const left = row.frozenLength - removed;
        const [updated] = await tx
          .update(subscriptions)
          .set(left > 0 ? { frozenLength: left, updatedAt: now } : { frozenLength: 0, frozenAt: null, expiresAt: now, updatedAt: now })
          .where(eq(subscriptions.id, row.id))
          .returning();
        if (removed > 0) await changed(tx, updated!, now);
        return removed;
      }
      const left = Math.max(0, Math.floor((row.expiresAt.getTime() - now.getTime()) / 1000));
      const removed = Math.min(wanted, left);
      const [updated] = await tx
        .update(subscriptions)
        .set({ expiresAt: new Date(row.expiresAt.getTime() - removed * 1000), updatedAt: now })
        .where(eq(subscriptions.id, row.id))
        .returning();
      if (removed > 0) await changed(tx, updated!, now);
      return removed;
    },

    async freeze(userId: number, cheatId: number): Promise<Subscription[]> {
      return db.transaction(async (tx) => {
        const now = clock.now();
        const row = await lockRow(tx, userId, cheatId);
        const block = freezeBlock(row, now);
        if (block) throw new DomainError("freeze_not_allowed", `subscription.block.${block}`, { reason: block });
        const seconds = Math.floor((row!.expiresAt.getTime() - now.getTime()) / 1000);
        if (seconds <= 0) throw new DomainError("freeze_not_allowed", "subscription.block.expired", { reason: "expired" });
        const [updated] = await tx
          .update(subscriptions)
          .set({ frozenLength: seconds, frozenAt: now, freezeCount: sql`${subscriptions.freezeCount} + 1`, updatedAt: now })
          .where(eq(subscriptions.id, row!.id))
          .returning();
        await changed(tx, updated!, now);
        return (await rowsOf(userId, tx)).map((r) => view(r, now));
      });
    },

    async unfreeze(userId: number, cheatId: number): Promise<Subscription[]> {
      return db.transaction(async (tx) => {
        const now = clock.now();
        const row = await lockRow(tx, userId, cheatId);
        if (!row || row.frozenLength === 0) throw new DomainError("conflict", "subscription.notFrozen");
        const [updated] = await tx.update(subscriptions).set(unfrozenValues(row, now)).where(eq(subscriptions.id, row.id)).returning();
        await changed(tx, updated!, now);
        return (await rowsOf(userId, tx)).map((r) => view(r, now));
      });
    },

    /**
     * Ends freezes older than FREEZE_MAX_DAYS, as of their scheduled end (so a late run loses no
     * time). Safe with several processes: rows are claimed with SKIP LOCKED.
     */
    async endLongFreezes(limit = 100): Promise<{ userId: number; cheatId: number }[]> {
      const cutoff = new Date(clock.now().getTime() - freezeMaxDays * DAY_MS);
      return db.transaction(async (tx) => {
        const due = await tx
          .select()
          .from(subscriptions)
          .where(and(gt(subscriptions.frozenLength, 0), isNotNull(subscriptions.frozenAt), lte(subscriptions.frozenAt, cutoff)))
          .limit(limit)
          .for("update", { skipLocked: true });
        for (const row of due) {
          const end = new Date(row.frozenAt!.getTime() + freezeMaxDays * DAY_MS);
          const [updated] = await tx.update(subscriptions).set(unfrozenValues(row, end)).where(eq(subscriptions.id, row.id)).returning();
          await changed(tx, updated!);
        }
        return due.map((row) => ({ userId: row.userId, cheatId: row.cheatId }));
      });
    },

    /**
     * Subscriptions that end within three days and were not told so for this expiry yet, with
     * where to tell their owner; each is marked notified in the same transaction (SKIP LOCKED: one
     * process takes each row).
     */
    async claimExpiring(limit = 100): Promise<{ userId: number; cheatId: number; expiresAt: Date; owner: { email: string; locale: string; timeZone: string | null } }[]> {
      const now = clock.now();
      const horizon = new Date(now.getTime() + 3 * DAY_MS);
      return db.transaction(async (tx) => {
        const due = await tx
          .select()
          .from(subscriptions)
          .where(
            and(
              eq(subscriptions.frozenLength, 0),
              gt(subscriptions.expiresAt, now),
              lte(subscriptions.expiresAt, horizon),
              or(isNull(subscriptions.expiryNotifiedAt), sql`${subscriptions.expiryNotifiedAt} < ${subscriptions.expiresAt} - interval '3 days'`),
            ),
          )
          .limit(limit)
          .for("update", { skipLocked: true });
        for (const row of due) {
          await tx.update(subscriptions).set({ expiryNotifiedAt: now }).where(eq(subscriptions.id, row.id));
        }
        // A deleted account is told nothing (docs/product/accounts.md#deleting-an-account): its passes are only marked.
        const owners =
          due.length === 0
            ? []
            : await tx
                .select({ id: users.id, email: users.email, locale: users.locale, timeZone: users.timeZone })
                .from(users)
                .where(
                  and(
                    inArray(
                      users.id,
                      due.map((row) => row.userId),
                    ),
                    isNull(users.deletedAt),
                  ),
                );
        const ownerOf = new Map(owners.map(({ id, email, locale, timeZone }) => [id, { email, locale, timeZone }]));
        return due.flatMap((row) => {
          const owner = ownerOf.get(row.userId);
          return owner ? [{ userId: row.userId, cheatId: row.cheatId, expiresAt: row.expiresAt, owner }] : [];
        });
      });
    },
  };
}
