// The mail module (docs/product/operations.md#mail-delivery): renders a template in the recipient's language and sends it
// over SMTP when SMTP_URL is set, recording every mail in the mail_outbox table. Without SMTP_URL
// a mail is only recorded (status 'logged') and written to the log, so development needs no server.
import type { Db } from "../../db/client.ts";
import type { Catalogs } from "../../i18n/catalogs.ts";
import { systemClock, type Clock } from "../shared/clock.ts";
import { insertOutbox, listOutbox, markOutbox } from "./mail.store.ts";
import { renderMail, RESENDABLE_TEMPLATES, type MailMessage, type RenderedMail } from "./templates.ts";
import { createSmtpTransport } from "./transport.ts";

export { listOutbox, listOutboxTo, outboxById, purgeOutboxBodies, resendableMessage, type OutboxEntry, type OutboxStatus } from "./mail.store.ts";
export {
  MAIL_TEMPLATE_IDS,
  RESENDABLE_TEMPLATES,
  escapeHtml,
  paymentMethodName,
  receiptLines,
  type ReceiptSale,
  type ReceiptSeller,
  type MailMessage,
  type MailTemplates,
  type RenderedMail,
} from "./templates.ts";

/** The little of a pino logger that the mailer uses. */
export type MailLogger = {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
};

export type MailerDeps = {
  db: Db;
  /** smtp://user:pass@host:port or smtps://…; unset: mails are only logged and kept in the outbox. */
  smtpUrl?: string;
  /** The From header, e.g. "NOVA <no-reply@example.com>". */
  from: string;
  logger: MailLogger;
  /** The site's origin, for links in mails (profile). */
  publicUrl: string;
  /** The message catalogues (i18n/catalogs.ts loadCatalogs()). */
  catalogs: Pick<Catalogs, "t" | "pieces">;
  clock?: Clock;
  /**
   * Development only (docs/product/operations.md#mail-delivery): mail bodies stay in the outbox after sending and a mail that
   * is only logged has its text in the log. Off, a body (a reset code, a sign-in link) leaves the
   * outbox once the attempt to send it ended, and never reaches the log. Default: off.
   */
  keepBodies?: boolean;
};

export type Mailer = ReturnType<typeof createMailer>;

export function createMailer(deps: MailerDeps) {
  const { db, from, logger, catalogs } = deps;
  const clock = deps.clock ?? systemClock;
  const publicUrl = deps.publicUrl.replace(/\/+$/, "");
  const transport = deps.smtpUrl ? createSmtpTransport(deps.smtpUrl) : undefined;
  const keepBodies = deps.keepBodies ?? false;

  function render(message: MailMessage): RenderedMail {
    return renderMail(message, { t: catalogs.t(message.locale), pieces: catalogs.pieces(message.locale), locale: message.locale, publicUrl });
  }

  /**
   * Renders and delivers one mail. Resolves with its outbox id once the SMTP server accepted it
   * (or, without SMTP, once it is in the outbox); rejects with an Error when sending failed, after
   * recording 'failed'.
   */
  async function send(message: MailMessage): Promise<number> {
    const to = message.to.trim();
    if (!to || /[\r\n]/.test(to)) throw new Error(`mail: invalid recipient ${JSON.stringify(message.to)}`);
    const mail = render(message);
    // Made at the mailer's clock, which the retention of mail bodies counts from.
    const params = RESENDABLE_TEMPLATES.has(message.template) ? ((message.params ?? {}) as Record<string, unknown>) : null;
    const entry = { to, locale: message.locale, ...mail, template: message.template, params, createdAt: clock.now() };

    if (!transport) {
      const id = await insertOutbox(db, { ...entry, status: "logged" });
      const shown = keepBodies ? { subject: mail.subject, text: mail.text } : {};
      logger.info({ mail: { id, to, template: message.template, ...shown } }, "mail not sent (SMTP_URL is unset); kept in the outbox");
      return id;
    }

    const id = await insertOutbox(db, { ...entry, status: "queued" });
    try {
      await transport.sendMail({ from, to, subject: mail.subject, text: mail.text, html: mail.html });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      await markOutbox(db, id, { status: "failed", error: reason }, !keepBodies).catch((dbErr: unknown) => logger.error({ err: dbErr, outboxId: id }, "recording a failed mail failed"));
      logger.error({ err, outboxId: id, to, template: message.template }, "mail could not be sent");
      throw new Error(`Mail "${message.template}" to ${to} could not be sent: ${reason}`, { cause: err });
    }
    await markOutbox(db, id, { status: "sent", sentAt: clock.now() }, !keepBodies);
    logger.info({ mail: { id, to, template: message.template } }, "mail sent");
    return id;
  }

  return {
    /** "smtp" when mails really leave the shop, "log" when they only reach the outbox and the log. */
    mode: transport ? ("smtp" as const) : ("log" as const),
    send,
    render,
    listOutbox: (limit?: number) => listOutbox(db, limit),
    /** Closes the SMTP transport (idle connections); sending afterwards opens a new one. */
    close(): void {
      transport?.close();
    },
  };
}
