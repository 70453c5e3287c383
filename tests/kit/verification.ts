// Verified addresses in tests (docs/product/accounts.md#verified-addresses): a new account gets a
// welcome mail with a link that proves its address. A test that needs a proven address opens the
// link the way its owner would — read from the outbox, which keeps mail bodies on a test run (the
// development conveniences are on) whether or not SMTP is set — and a test that counts the mails
// of an address leaves the welcome mail out of its count.
import { and, desc, eq, like, sql } from "drizzle-orm";
import { expect } from "vitest";
import { mailOutbox } from "../../db/schema/index.ts";
import type { TestApp } from "./app.ts";
import type { TestSmtpServer } from "./smtp.ts";

const LINK = /https?:\/\/[^\s<>"]+\/auth\/verify-email\?token=([A-Za-z0-9_-]+)/;

/** The token of the newest verification link mailed to `email`. */
export async function verificationToken(app: Pick<TestApp, "services">, email: string): Promise<string> {
  await app.services.background.drain();
  const [row] = await app.services.db
    .select({ text: mailOutbox.text })
    .from(mailOutbox)
    .where(and(eq(sql`lower(${mailOutbox.to})`, email.toLowerCase()), like(mailOutbox.text, "%/auth/verify-email?token=%")))
    .orderBy(desc(mailOutbox.id))
    .limit(1);
  const token = row && LINK.exec(row.text)?.[1];
  if (!token) throw new Error(`no verification link was mailed to ${email}`);
  return token;
}

/** Opens the newest verification link of `email` through the API, as its owner would open the mail. */
export async function verifyEmail(app: Pick<TestApp, "services" | "request">, email: string): Promise<void> {
  const token = await verificationToken(app, email);
  const res = await app.request("/v2/web/verify-email", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }) });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** Forgets the welcome mail the loopback SMTP server got for `email`, so a test counts only the mails it causes. */
export async function forgetWelcomeMail(app: Pick<TestApp, "services">, smtp: TestSmtpServer, email: string, subject: string): Promise<void> {
  await app.services.background.drain();
  const welcome = await smtp.waitFor((m) => m.envelope.to.includes(email) && m.subject === subject);
  smtp.messages.splice(smtp.messages.indexOf(welcome), 1);
}
