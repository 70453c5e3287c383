// The mail outbox: every e-mail the shop sends or logs, newest first for the developer page.
import { desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { mailOutbox } from "../../db/schema/messaging.ts";

export type OutboxStatus = "queued" | "sent" | "failed" | "logged";
export type OutboxEntry = typeof mailOutbox.$inferSelect;
type NewEntry = Pick<typeof mailOutbox.$inferInsert, "to" | "subject" | "text" | "html" | "locale"> & {
  status: OutboxStatus;
  sentAt?: Date | null;
};

export async function insertOutbox(db: Db, entry: NewEntry): Promise<number> {
  const [row] = await db.insert(mailOutbox).values(entry).returning({ id: mailOutbox.id });
  return row!.id;
}

export async function markOutbox(db: Db, id: number, change: { status: "sent"; sentAt: Date } | { status: "failed"; error: string }): Promise<void> {
  await db.update(mailOutbox).set(change).where(eq(mailOutbox.id, id));
}

/** The newest `limit` outbox entries (1–500), newest first. */
export async function listOutbox(db: Db, limit = 50): Promise<OutboxEntry[]> {
  const n = Math.min(500, Math.max(1, Math.trunc(Number.isFinite(limit) ? limit : 50)));
  return db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(n);
}
