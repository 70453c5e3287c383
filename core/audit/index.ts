// The audit log (docs/product/back-office.md#audit-log): one entry for every operator write and every
// role change, written in the same transaction as the change itself, so an entry exists exactly
// when the change does. Append-only: this module only inserts and reads, and a database trigger
// refuses UPDATE, DELETE and TRUNCATE whoever asks.
import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { auditLog } from "../../db/schema/index.ts";
import type { Clock } from "../shared/clock.ts";

/** What an entry records a change to. */
export type AuditTargetType = "user" | "payment" | "cheat" | "product" | "area" | "route_rule" | "site_page" | "compensation" | "mail" | "build" | "webhook" | "webhook_delivery";

/** Who makes an audited change, from where and why: what a core write outside core/admin takes to write its entry. */
export type AuditBy = { actorId: number | null; ip: string | null; reason: string };

/** One entry as written (docs/product/back-office.md#audit-log). */
export type AuditEntry = {
  id: number;
  at: Date;
  /** The operator; null for the command line and the OWNER_EMAILS setting. */
  actorId: number | null;
  action: string;
  targetType: string;
  targetId: string | null;
  reason: string;
  before: unknown;
  after: unknown;
  ip: string | null;
};

export type NewAuditEntry = {
  actorId: number | null;
  action: string;
  targetType: AuditTargetType;
  targetId: string | number | null;
  reason: string;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
};

export type AuditFilter = {
  actorId?: number;
  /** `type:id` or a type alone, e.g. `user:42`, `payment`. */
  targetType?: string;
  targetId?: string;
  action?: string;
  /** Entries older than this id (the cursor of the previous page). */
  before?: number;
  limit: number;
};

export type Audit = ReturnType<typeof createAudit>;

const toEntry = (row: typeof auditLog.$inferSelect): AuditEntry => ({ ...row });

export function createAudit({ db, clock }: { db: Db; clock: Clock }) {
  return {
    /** Appends an entry inside the caller's transaction (or alone). */
    async record(tx: Db | Tx, entry: NewAuditEntry): Promise<AuditEntry> {
      const [row] = await tx
        .insert(auditLog)
        .values({
          at: clock.now(),
          actorId: entry.actorId,
          action: entry.action,
          targetType: entry.targetType,
          targetId: entry.targetId === null ? null : String(entry.targetId),
          reason: entry.reason,
          before: entry.before ?? null,
          after: entry.after ?? null,
          ip: entry.ip ?? null,
        })
        .returning();
      return toEntry(row!);
    },

    /** A page of entries, newest first, and the cursor of the next page (null at the end). */
    async list(filter: AuditFilter): Promise<{ entries: AuditEntry[]; nextCursor: number | null }> {
      const conditions: SQL[] = [];
      if (filter.actorId !== undefined) conditions.push(eq(auditLog.actorId, filter.actorId));
      if (filter.targetType !== undefined) conditions.push(eq(auditLog.targetType, filter.targetType));
      if (filter.targetId !== undefined) conditions.push(eq(auditLog.targetId, filter.targetId));
      if (filter.action !== undefined) conditions.push(eq(auditLog.action, filter.action));
      if (filter.before !== undefined) conditions.push(lt(auditLog.id, filter.before));
      const rows = await db
        .select()
        .from(auditLog)
        .where(and(...conditions))
        .orderBy(desc(auditLog.id))
        .limit(filter.limit + 1);
      const page = rows.slice(0, filter.limit).map(toEntry);
      return { entries: page, nextCursor: rows.length > filter.limit ? page.at(-1)!.id : null };
    },
  };
}
