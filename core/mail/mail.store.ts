// The mail outbox: every e-mail the shop sends or logs, newest first for the developer page.
import { and, desc, eq, inArray, lt, ne, or } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { mailOutbox } from "../../db/schema/messaging.ts";

export type OutboxStatus = "queued" | "sent" | "failed" | "logged";
export type OutboxEntry = typeof mailOutbox.$inferSelect;
type NewEntry = Pick<typeof mailOutbox.$inferInsert, "to" | "subject" | "text" | "html" | "locale" | "createdAt"> & {
  status: OutboxStatus;
  sentAt?: Date | null;
};

export async function insertOutbox(db: Db, entry: NewEntry): Promise<number> {
  const [row] = await db.insert(mailOutbox).values(entry).returning({ id: mailOutbox.id });
  return row!.id;
}

/** What an outbox row keeps of a mail once its body is gone: the record, not the content. */
const NO_BODY = { subject: "", text: "", html: "" };

/** Records the end of a send attempt; with dropBody the mail's subject and content go too. */
export async function markOutbox(db: Db, id: number, change: { status: "sent"; sentAt: Date } | { status: "failed"; error: string }, dropBody = false): Promise<void> {
  await db.update(mailOutbox).set(dropBody ? { ...change, ...NO_BODY } : change).where(eq(mailOutbox.id, id));
}

/**
 * Empties the subject and content of mails whose sending ended (sent, failed, or only logged)
 * before `cutoff`; the rows stay, as the record of what was sent to whom and when.
 */
export async function purgeOutboxBodies(db: Db, cutoff: Date): Promise<number> {
  const rows = await db
    .update(mailOutbox)
    .set(NO_BODY)
    .where(and(inArray(mailOutbox.status, ["sent", "failed", "logged"]), lt(mailOutbox.createdAt, cutoff), or(ne(mailOutbox.text, ""), ne(mailOutbox.html, ""), ne(mailOutbox.subject, ""))))
    .returning({ id: mailOutbox.id });
  return rows.length;
}

/** The newest `limit` outbox entries (1–500), newest first. */
export async function listOutbox(db: Db, limit = 50): Promise<OutboxEntry[]> {
  const n = Math.min(500, Math.max(1, Math.trunc(Number.isFinite(limit) ? limit : 50)));
  return db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(n);
}
