// The mail module against a real database and a real (loopback) SMTP exchange.
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { openTestDatabase } from "../../tests/kit/database.ts";
import { loadCatalogs } from "../../i18n/catalogs.ts";
import { LOCALES } from "../../i18n/locales.ts";
import { startSmtpServer, type TestSmtpServer } from "../../tests/kit/smtp.ts";
import { createMailer, escapeHtml, listOutbox, MAIL_TEMPLATE_IDS, type MailLogger, type MailMessage, type MailTemplates } from "./index.ts";
import { formatDate, formatMoney } from "../../i18n/format.ts";
import { MAIL_COLORS } from "./templates.ts";

const catalogs = loadCatalogs();
const FROM = "NOVA <no-reply@shop.test>";
const PUBLIC_URL = "http://shop.test";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

function recordingLogger() {
  const info: { obj: Record<string, unknown>; msg?: string }[] = [];
  const error: { obj: Record<string, unknown>; msg?: string }[] = [];
  const logger: MailLogger = {
    info: (obj, msg) => void info.push({ obj: obj as Record<string, unknown>, msg }),
    error: (obj, msg) => void error.push({ obj: obj as Record<string, unknown>, msg }),
  };
  return { logger, info, error };
}

async function outboxRowFor(to: string) {
  const rows = (await listOutbox(database.db, 500)).filter((r) => r.to === to);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

const lines = (text: string | undefined) => (text ?? "").split(/\r?\n/);

describe("sending over SMTP", () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp?.stop();
  });

  const cases = [
    { locale: "ru", to: "ivan@example.com", code: "048213", subject: "Код для сброса пароля NOVA", greeting: "Здравствуйте!" },
    { locale: "en", to: "john@example.com", code: "907155", subject: "Your NOVA password reset code", greeting: "Hello!" },
  ] as const;

  it.each(cases)("delivers a password reset in $locale", async ({ locale, to, code, subject, greeting }) => {
    const url = new URL(smtp.url);
    url.username = "shop";
    url.password = "s3cret";
    const mailer = createMailer({ db: database.db, smtpUrl: url.toString(), from: FROM, logger: pino({ level: "silent" }), publicUrl: PUBLIC_URL, catalogs, keepBodies: true });
    expect(mailer.mode).toBe("smtp");
    const link = `${PUBLIC_URL}/reset?email=${encodeURIComponent(to)}&code=${code}`;
    const before = smtp.messages.length;

    await mailer.send({ to, locale, template: "password_reset", params: { code, link } });

    const mail = await smtp.waitFor((m) => m.envelope.to.includes(to), 2000);
    expect(smtp.messages.length).toBe(before + 1);
    expect(mail.envelope).toEqual({ from: "no-reply@shop.test", to: [to] });
    expect(mail.authUser).toBe("shop");
    expect(mail.to).toContain(to);
    expect(mail.from).toContain("no-reply@shop.test");
    expect(mail.subject).toBe(subject);

    // The code on a line of its own, and the link that fills it in, also on its own line.
    const text = lines(mail.text);
    expect(text).toContain(code);
    expect(text).toContain(link);
    expect(text).toContain(greeting);
    expect(mail.text).toContain(catalogs.t(locale)("mail.password_reset.linkLead"));

    expect(mail.html).toMatch(/^<!DOCTYPE html>/);
    expect(mail.html).toContain(`<html lang="${locale}"`);
    expect(mail.html).toContain(">NOVA</td>");
    expect(mail.html).toContain(`>${code}</span>`);
    expect(mail.html).toContain(`href="${link.replace(/&/g, "&amp;")}"`);
    expect(mail.html).toContain(greeting);

    const row = await outboxRowFor(to);
    expect(row).toMatchObject({ status: "sent", error: null, locale, subject, text: mail.text?.replace(/\r\n/g, "\n") });
    expect(row.sentAt).toBeInstanceOf(Date);
  });

  it("delivers subject, text and HTML byte-exact in scripts sent as base64 and as quoted-printable", async () => {
    const mailer = createMailer({ db: database.db, smtpUrl: smtp.url, from: FROM, logger: recordingLogger().logger, publicUrl: PUBLIC_URL, catalogs, keepBodies: true });
    const params = { game: "Dota 2", days: 30, from: "Алексей 李 ✓" };
    for (const locale of ["cn", "hi", "pt"] as const) {
      const to = `gift-${locale}@example.com`;
      await mailer.send({ to, locale, template: "gift_received", params });
      const mail = await smtp.waitFor((m) => m.envelope.to.includes(to), 2000);
      const expected = mailer.render({ to, locale, template: "gift_received", params });
      expect(mail.subject).toBe(expected.subject);
      expect(mail.text?.replace(/\r\n/g, "\n")).toBe(expected.text);
      expect(mail.html?.replace(/\r\n/g, "\n")).toBe(expected.html);
    }
  });

  it("rejects and records 'failed' when the SMTP server is down", async () => {
    const down = await startSmtpServer();
    await down.stop();
    const { logger, error } = recordingLogger();
    const mailer = createMailer({ db: database.db, smtpUrl: down.url, from: FROM, logger, publicUrl: PUBLIC_URL, catalogs, keepBodies: true });
    const to = "nobody@example.com";

    await expect(mailer.send({ to, locale: "en", template: "password_changed" })).rejects.toThrow(/Mail "password_changed" to nobody@example\.com could not be sent: .*ECONNREFUSED/);

    const row = await outboxRowFor(to);
    expect(row.status).toBe("failed");
    expect(row.error).toMatch(/ECONNREFUSED/);
    expect(row.sentAt).toBeNull();
    expect(down.messages).toHaveLength(0);
    expect(error).toHaveLength(1);
  });
});

describe("outside development (keepBodies off, docs/product/operations.md#production-safety)", () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp?.stop();
  });

  it("delivers a reset code, then keeps only the record in the outbox and never the code in the log", async () => {
    const { logger, info, error } = recordingLogger();
    const mailer = createMailer({ db: database.db, smtpUrl: smtp.url, from: FROM, logger, publicUrl: PUBLIC_URL, catalogs });
    const to = "prod-reset@example.com";
    await mailer.send({ to, locale: "en", template: "password_reset", params: { code: "314159", link: `${PUBLIC_URL}/en/reset?code=314159` } });

    const mail = await smtp.waitFor((m) => m.envelope.to.includes(to), 2000);
    expect(mail.text).toContain("314159");
    const row = await outboxRowFor(to);
    expect(row).toMatchObject({ status: "sent", to, locale: "en", subject: "", text: "", html: "" });
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(JSON.stringify([...info, ...error])).not.toContain("314159");
  });

  it("drops the body of a mail that could not be sent too", async () => {
    const down = await startSmtpServer();
    await down.stop();
    const { logger, info, error } = recordingLogger();
    const mailer = createMailer({ db: database.db, smtpUrl: down.url, from: FROM, logger, publicUrl: PUBLIC_URL, catalogs });
    const to = "prod-failed@example.com";
    await expect(mailer.send({ to, locale: "en", template: "password_reset", params: { code: "271828", link: `${PUBLIC_URL}/en/reset` } })).rejects.toThrow();
    expect(await outboxRowFor(to)).toMatchObject({ status: "failed", subject: "", text: "", html: "" });
    expect(JSON.stringify([...info, ...error])).not.toContain("271828");
  });

  it("does not write the body of a mail it only logs", async () => {
    const { logger, info } = recordingLogger();
    const mailer = createMailer({ db: database.db, from: FROM, logger, publicUrl: PUBLIC_URL, catalogs });
    await mailer.send({ to: "prod-logged@example.com", locale: "en", template: "password_reset", params: { code: "161803", link: `${PUBLIC_URL}/en/reset` } });
    expect(info).toHaveLength(1);
    expect(JSON.stringify(info)).not.toContain("161803");
  });
});

describe("without SMTP", () => {
  it("keeps the mail in the outbox as 'logged' and writes it to the log", async () => {
    const { logger, info } = recordingLogger();
    const mailer = createMailer({ db: database.db, from: FROM, logger, publicUrl: PUBLIC_URL, catalogs, keepBodies: true });
    expect(mailer.mode).toBe("log");
    const to = "maria@example.com";

    await mailer.send({ to, locale: "es", template: "password_reset", params: { code: "123456", link: `${PUBLIC_URL}/es/reset?code=123456` } });

    const row = await outboxRowFor(to);
    expect(row).toMatchObject({ status: "logged", locale: "es", error: null, subject: "Tu código para restablecer la contraseña de NOVA" });
    expect(lines(row.text)).toContain("123456");
    expect(row.html).toContain("123456");

    expect(info).toHaveLength(1);
    const logged = info[0]!.obj.mail as Record<string, unknown>;
    expect(logged).toMatchObject({ to, subject: row.subject, text: row.text });
  });

  it("escapes user values in the HTML part but not in the text part", async () => {
    const mailer = createMailer({ db: database.db, from: FROM, logger: recordingLogger().logger, publicUrl: PUBLIC_URL, catalogs, keepBodies: true });
    const to = "gift@example.com";
    const from = `<script>alert("x")</script> & 'Co'`;

    await mailer.send({ to, locale: "en", template: "gift_received", params: { game: "Dota 2", days: 30, from } });

    const row = await outboxRowFor(to);
    expect(row.html).not.toContain("<script>");
    expect(row.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Co&#39;");
    expect(row.text).toContain(from);
    expect(row.subject).toBe(`${from} sent you a gift`);
    expect(row.html).toContain(`href="${PUBLIC_URL}/en/profile"`);
  });

  it("keeps a line break in a value from forging a line of the mail", async () => {
    const mailer = createMailer({ db: database.db, from: FROM, logger: recordingLogger().logger, publicUrl: PUBLIC_URL, catalogs, keepBodies: true });
    const mail = mailer.render({ to: "x@example.com", locale: "en", template: "gift_received", params: { game: "CS2", days: 7, from: "eve\n\n999999\n" } });
    expect(lines(mail.text)).not.toContain("999999");
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });

  it("refuses a link that is not http(s)", async () => {
    const mailer = createMailer({ db: database.db, from: FROM, logger: recordingLogger().logger, publicUrl: PUBLIC_URL, catalogs, keepBodies: true });
    await expect(mailer.send({ to: "js@example.com", locale: "en", template: "email_change_confirm", params: { link: "javascript:alert(1)", newEmail: "a@b.c" } })).rejects.toThrow(/http\(s\)/);
  });

  it("lists the outbox newest first, at most `limit` rows", async () => {
    const rows = await listOutbox(database.db, 2);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.id).toBeGreaterThan(rows[1]!.id);
    const all = await listOutbox(database.db, 500);
    expect(all[0]!.id).toBe(rows[0]!.id);
  });
});

describe("templates", () => {
  const samples: { [K in keyof MailTemplates]: MailTemplates[K] } = {
    password_reset: { code: "111222", link: `${PUBLIC_URL}/reset?code=111222` },
    email_change_confirm: { link: `${PUBLIC_URL}/confirm-email?token=abc`, newEmail: "new@example.com" },
    email_changed_notice: { newEmail: "new@example.com", link: `${PUBLIC_URL}/auth/undo-email?token=def` },
    email_change_taken: { newEmail: "taken@example.com" },
    password_changed: {},
    two_fa_enabled: {},
    two_fa_disabled: {},
    gift_received: { game: "Minecraft", days: 7, from: "alex" },
    gift_code: { game: "CS2", days: 30, code: "GIFT-ABCD-1234" },
    gift_invite: { game: "Dota 2", days: 7, code: "ABCDEFGH2345", from: "alex", link: `${PUBLIC_URL}/en/auth/register` },
    subscription_expiring: { game: "Dota 2", date: new Date("2026-03-15T12:00:00Z") },
    receipt: {
      number: "000042",
      orderRef: "5O190127TN364715T",
      date: new Date("2026-03-15T12:00:00Z"),
      sale: { kind: "purchase", method: "paypal", items: [{ game: "Dota 2", days: 30, price: 1500 }], total: 1500, currency: "USD" },
      seller: { name: "NOVA Games Ltd", address: "1 Example Street, Tallinn", supportEmail: "help@example.com" },
    },
    welcome: { link: `${PUBLIC_URL}/auth/verify-email?token=ghi` },
    email_verify: { link: `${PUBLIC_URL}/auth/verify-email?token=jkl` },
    account_deleted: {},
    days_granted: { game: "Minecraft", days: 3 },
    refund_claim: { refund: { amount: 1999, currency: "USD" }, orderRef: "KitInvoice42", link: "https://btcpay.example.com/pull-payments/3yT8qL" },
  };
  const mailer = createMailer({ db: undefined as never, from: FROM, logger: { info() {}, error() {} }, publicUrl: `${PUBLIC_URL}/`, catalogs });

  it.each(LOCALES)("renders every template in %s with no missing message and every value", (locale) => {
    const subjects = new Set<string>();
    for (const template of MAIL_TEMPLATE_IDS) {
      const params = samples[template];
      const mail = mailer.render({ to: "a@example.com", locale, template, params } as MailMessage);
      for (const part of [mail.subject, mail.text, mail.html]) expect(part, `${locale} ${template}`).not.toMatch(/mail\.\w|\{\w+\}/);
      for (const value of Object.values(params)) {
        if (typeof value === "string" || typeof value === "number") expect(mail.text, `${locale} ${template}`).toContain(String(value));
      }
      expect(mail.html).toContain(`lang="${locale === "cn" ? "zh-CN" : locale}"`);
      subjects.add(mail.subject);
    }
    expect(subjects.size).toBe(MAIL_TEMPLATE_IDS.length);
  });

  it.each(LOCALES)("names a giver without a username as a NOVA user in %s, never by anything else", (locale) => {
    const anonymous = catalogs.t(locale)("gift.anonymousGiver");
    expect(anonymous).not.toMatch(/gift\./);
    for (const template of ["gift_received", "gift_invite"] as const) {
      const params = { ...samples[template], from: null };
      const mail = mailer.render({ to: "a@example.com", locale, template, params } as MailMessage);
      expect(mail.subject, `${locale} ${template}`).toContain(anonymous);
      expect(mail.text, `${locale} ${template}`).toContain(anonymous);
      expect(mail.text).not.toMatch(/null|undefined/);
    }
  });

  it("writes a date as the pages do (dd.MM.yyyy HH:mm), with its zone's name, in the reader's zone or UTC", () => {
    const params = samples.subscription_expiring;
    const en = mailer.render({ to: "a@example.com", locale: "en", template: "subscription_expiring", params });
    expect(en.text).toContain("Your Dota 2 subscription ends on 15.03.2026 12:00 UTC.");
    expect(en.html).toContain("ends on <strong>15.03.2026 12:00 UTC</strong>.");
    const ru = mailer.render({ to: "a@example.com", locale: "ru", template: "subscription_expiring", params: { ...params, timeZone: "Europe/Moscow" } });
    expect(ru.text).toContain("15.03.2026 15:00 GMT+3");
  });

  it.each(LOCALES)("writes a receipt in %s: its number, date and zone, order, items, method, total and the seller", (locale) => {
    const t = catalogs.t(locale);
    const mail = mailer.render({ to: "a@example.com", locale, template: "receipt", params: { ...samples.receipt, timeZone: "Asia/Tokyo" } });
    expect(mail.subject).toBe(t("mail.receipt.subject", { number: "000042" }));
    const lines = mail.text.split("\n");
    const row = (key: Parameters<typeof t>[0]) => lines.find((l) => l.startsWith(`${t(key)}: `))?.slice(t(key).length + 2);
    expect(row("mail.receipt.number")).toBe("000042");
    expect(row("mail.receipt.date")).toBe(formatDate(samples.receipt.date, { timeZone: "Asia/Tokyo", locale }));
    expect(row("mail.receipt.order")).toBe("5O190127TN364715T");
    expect(row("mail.receipt.item")).toBe(`${t("product.name", { game: "Dota 2", days: t("plural.days", { count: 30 }) })} — ${formatMoney(1500, "USD", locale)}`);
    expect(row("mail.receipt.method")).toBe("PayPal");
    expect(row("mail.receipt.total")).toBe(formatMoney(1500, "USD", locale));
    expect(mail.text).toContain(t("mail.receipt.seller", { seller: "NOVA Games Ltd, 1 Example Street, Tallinn" }));
    expect(mail.text).toContain(t("mail.receipt.support", { email: "help@example.com" }));
    expect(mail.html).toContain(`>${escapeHtml(formatMoney(1500, "USD", locale))}</td>`);
  });

  it("names a top-up and a gift on a receipt, and no order for a balance purchase", () => {
    const t = catalogs.t("en");
    const topup = mailer.render({
      to: "a@example.com",
      locale: "en",
      template: "receipt",
      params: { ...samples.receipt, sale: { kind: "topup", method: "demo", items: [], total: 2500, currency: "USD" } },
    });
    expect(topup.text).toContain("Item: Balance top-up — $25.00");
    expect(topup.text).toContain("Paid with: Demo payment");
    const gift = mailer.render({
      to: "a@example.com",
      locale: "en",
      template: "receipt",
      params: {
        ...samples.receipt,
        orderRef: null,
        sale: { kind: "gift", method: "balance", items: [{ game: "CS2", days: 7, price: 499 }], total: 499, currency: "USD" },
        seller: { name: "NOVA", supportEmail: "s@example.com" },
      },
    });
    expect(gift.text).toContain(`Item: Gift: CS2 · 7 days — $4.99`);
    expect(gift.text).toContain("Paid with: Balance");
    expect(gift.text).not.toContain(`${t("mail.receipt.order")}:`);
    expect(gift.text).toContain("Seller: NOVA.");
  });

  it("sets the values of a message in bold in HTML, escaped, the count of a plural too", () => {
    const html = mailer.render({ to: "a@example.com", locale: "en", template: "gift_received", params: { game: "CS2", days: 7, from: "<eve>" } }).html;
    expect(html).toContain("<strong>&lt;eve&gt;</strong> gave you a <strong>CS2</strong> subscription.");
    expect(html).toContain("Added: <strong>7</strong> days");
  });

  it.each(LOCALES)("wears the site's colours in %s, links support, terms, privacy and refunds, and keeps a Russian heading's short words together", (locale) => {
    const t = catalogs.t(locale);
    const prefix = locale === "ru" ? "" : `/${locale}`;
    for (const template of MAIL_TEMPLATE_IDS) {
      const mail = mailer.render({ to: "a@example.com", locale, template, params: samples[template] } as MailMessage);
      // The dark page, the card and the accent of app/styles/app.css, as CSS and as bgcolor.
      expect(mail.html).toContain(`<body bgcolor="${MAIL_COLORS.page}"`);
      expect(mail.html).toContain(`bgcolor="${MAIL_COLORS.card}"`);
      expect(mail.html).toContain(`linear-gradient(135deg,${MAIL_COLORS.accent},${MAIL_COLORS.accent2})`);
      expect(mail.html).not.toMatch(/#ffffff|#111827|#1d4ed8/i);
      for (const slug of ["support", "terms", "privacy", "refunds"] as const) {
        const href = `${PUBLIC_URL}${prefix}/${slug}`;
        expect(mail.html, `${locale} ${template} ${slug}`).toContain(
          `<a href="${href}" target="_blank" style="color:${MAIL_COLORS.muted};text-decoration:underline;">${escapeHtml(t(`legal.nav.${slug}`))}</a>`,
        );
        expect(mail.text).toContain(`${t(`legal.nav.${slug}`)}: ${href}`);
      }
    }
    const expiring = mailer.render({ to: "a@example.com", locale, template: "subscription_expiring", params: samples.subscription_expiring });
    const heading = expiring.html.match(/<h1[^>]*>([^<]*)<\/h1>/)![1]!;
    expect(expiring.subject).not.toContain("\u00a0");
    if (locale === "ru") expect(heading).toBe("Подписка на\u00a0Dota 2 скоро закончится");
    else expect(heading).toBe(escapeHtml(expiring.subject));
  });

  it("types each template's parameters", () => {
    const check = (message: MailMessage) => message.template;
    // @ts-expect-error: password_reset needs a link
    expect(check({ to: "a@b.c", locale: "en", template: "password_reset", params: { code: "123456" } })).toBe("password_reset");
    // @ts-expect-error: gift_code has no `from`
    expect(check({ to: "a@b.c", locale: "en", template: "gift_code", params: { game: "CS2", days: 1, from: "x" } })).toBe("gift_code");
    // @ts-expect-error: not a locale
    expect(check({ to: "a@b.c", locale: "de", template: "password_changed" })).toBe("password_changed");
    // @ts-expect-error: a date is a Date, written by the template in the reader's language and zone
    expect(check({ to: "a@b.c", locale: "en", template: "subscription_expiring", params: { game: "CS2", date: "2026-03-15T12:00:00Z" } })).toBe("subscription_expiring");
    expect(check({ to: "a@b.c", locale: "en", template: "two_fa_enabled" })).toBe("two_fa_enabled");
  });
});
