// Receipt checks shared by the receipt tests (docs/product/money.md#receipts): the stored receipts
// of a user once background mail work is done, the receipt mails the loopback SMTP server got in
// any language, and "exactly one, in this language".
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { receipts } from "../../db/schema/index.ts";
import { LOCALES, type Locale } from "../../i18n/locales.ts";
import type { ReceivedMail } from "../kit/smtp.ts";
import type { Shop, User } from "../kit/shop.ts";

/** The receipts of a user, as stored; mails are waited for (background work) before counting. */
export async function receiptRows(s: Shop, userId: number) {
  await s.services.background.drain();
  return s.services.db.select().from(receipts).where(eq(receipts.userId, userId)).orderBy(receipts.id);
}

/** Every receipt mail a user got, in any of the seven languages. */
export function receiptMails(s: Shop, user: User): ReceivedMail[] {
  const subjects = LOCALES.map((l) => {
    const [before = "", after = ""] = s.services.catalogs.t(l)("mail.receipt.subject", { number: "000000" }).split("000000");
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`^${escape(before)}\\d{6}${escape(after)}$`);
  });
  return s.smtp.messages.filter((m) => m.envelope.to.includes(user.email) && subjects.some((subject) => subject.test(m.subject)));
}

/** The one receipt mail of a user, checked to be in `locale` and to name its number. */
export async function oneReceipt(s: Shop, user: User, locale: Locale): Promise<{ mail: ReceivedMail; row: typeof receipts.$inferSelect }> {
  const rows = await receiptRows(s, user.id);
  expect(rows).toHaveLength(1);
  const row = rows[0]!;
  expect(row.mailedAt).not.toBeNull();
  const number = String(row.id).padStart(6, "0");
  const mail = await s.smtp.waitFor((m) => m.envelope.to.includes(user.email) && m.subject.includes(number));
  expect(receiptMails(s, user)).toHaveLength(1);
  expect(mail.subject).toBe(s.services.catalogs.t(locale)("mail.receipt.subject", { number }));
  return { mail, row };
}
