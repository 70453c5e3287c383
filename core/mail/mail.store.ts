// The mail outbox: every e-mail the shop sends or logs, newest first for the developer page.
import { and, desc, eq, inArray, lt, ne, or, sql } from "drizzle-orm";
import type { Locale } from "../../i18n/locales.ts";
import type { Db, Tx } from "../../db/client.ts";
import { mailOutbox } from "../../db/schema/messaging.ts";
import { MAIL_TEMPLATE_IDS, RESENDABLE_TEMPLATES, type MailMessage, type MailTemplateId } from "./templates.ts";

export type OutboxStatus = "queued" | "sent" | "failed" | "logged";
export type OutboxEntry = typeof mailOutbox.$inferSelect;
type NewEntry = Pick<typeof mailOutbox.$inferInsert, "to" | "subject" | "text" | "html" | "locale" | "createdAt" | "template" | "params"> & {
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
  await db
    .update(mailOutbox)
    .set(dropBody ? { ...change, ...NO_BODY } : change)
    .where(eq(mailOutbox.id, id));
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

export async function outboxById(db: Db | Tx, id: number): Promise<OutboxEntry[]> {
  return db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
}

/** The newest `limit` mails sent to any of these addresses (case-insensitively), newest first; `id` picks one. */
export async function listOutboxTo(db: Db | Tx, addresses: string[], limit = 50, id?: number): Promise<OutboxEntry[]> {
  const wanted = [...new Set(addresses.map((a) => a.trim().toLowerCase()).filter(Boolean))];
  if (wanted.length === 0) return [];
  return db
    .select()
    .from(mailOutbox)
    .where(and(inArray(sql`lower(${mailOutbox.to})`, wanted), id === undefined ? undefined : eq(mailOutbox.id, id)))
    .orderBy(desc(mailOutbox.id))
    .limit(limit);
}

const isTemplate = (id: string | null): id is MailTemplateId => id !== null && (MAIL_TEMPLATE_IDS as readonly string[]).includes(id);

/**
 * The mail of an outbox row made again for `to` in `locale`, when its template may be resent and
 * its parameters were kept (docs/product/back-office.md#customers); undefined otherwise.
 */
export function resendableMessage(row: Pick<OutboxEntry, "template" | "params">, to: string, locale: Locale): MailMessage | undefined {
  if (!isTemplate(row.template) || !RESENDABLE_TEMPLATES.has(row.template) || row.params === null) return undefined;
  const params: Record<string, unknown> = { ...row.params };
  // Dates were stored as ISO strings (JSON has no dates).
  if (row.template === "subscription_expiring" && typeof params.date === "string") params.date = new Date(params.date);
  return { to, locale, template: row.template, params } as MailMessage;
}
