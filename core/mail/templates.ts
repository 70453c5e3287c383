// The shop's e-mails: one typed map of template ids to their parameters, and the rendering of a
// message into subject, plain text and e-mail-safe HTML in the recipient's language (keys mail.*).
import { formatDate, formatMoney } from "../../i18n/format.ts";
import { isMessageKey } from "../../i18n/keys.ts";
import { LANG_TAG, localePath, type Locale } from "../../i18n/locales.ts";
import { bindShortWords } from "../../i18n/typography.ts";
import type { MessageKey, Params, Translate, TranslatePieces } from "../../i18n/translate.ts";

type NoParams = Record<string, never>;

/** Every template id and the parameters it needs. A wrong or missing parameter is a type error. */
export type MailTemplates = {
  /** code: the 6-digit reset code; link: a page URL that fills the code in. */
  password_reset: { code: string; link: string };
  /** Sent to the new address; link confirms it. */
  email_change_confirm: { link: string; newEmail: string };
  /**
   * Sent to the old address whenever a change is asked for, whatever allow_security says; link
   * undoes the change (docs/product/accounts.md#e-mail-change, issue 7).
   */
  email_changed_notice: { newEmail: string; link: string };
  /** Sent instead of the confirmation when the new address belongs to another account: no link. */
  email_change_taken: { newEmail: string };
  password_changed: NoParams;
  two_fa_enabled: NoParams;
  two_fa_disabled: NoParams;
  /** game: its display name; from: the giver's username, null for none ("a NOVA user"), never an e-mail. */
  gift_received: { game: string; days: number; from: string | null };
  gift_code: { game: string; days: number; code: string };
  /** A gift to an address with no account: the code to redeem after signing up (link: registration). */
  gift_invite: { game: string; days: number; code: string; from: string | null; link: string };
  /**
   * The date is written dd.MM.yyyy HH:mm in `timeZone` (the recipient's IANA zone; UTC by
   * default), with the zone's name, since a mail is read anywhere. A Date, never a preformatted
   * string: how it reads is the template's business.
   */
  subscription_expiring: { game: string; date: Date; timeZone?: string };
  /**
   * A receipt (docs/product/money.md#receipts): its number, the provider's order id when a provider
   * took the money, the date (written in `timeZone`, UTC by default), what was sold and paid
   * (amounts in minor units, written by the template in the reader's language), and the seller.
   */
  receipt: { number: string; orderRef: string | null; date: Date; timeZone?: string; sale: ReceiptSale; seller: ReceiptSeller };
  /** After registration: welcome, and the link that verifies the address (docs/product/accounts.md#verified-addresses). */
  welcome: { link: string };
  /** A new verification link the owner asked for. */
  email_verify: { link: string };
  /** To the old address of a deleted account (docs/product/accounts.md#deleting-an-account). */
  account_deleted: NoParams;
  /** Days an operator added to a pass (a bulk compensation, docs/product/back-office.md#compensation). */
  days_granted: { game: string; days: number };
  /**
   * An operator's refund the buyer claims (BTCPay's pull payment, docs/decisions/0042-refund-claim-link.md):
   * the amount in minor units of the shop currency, the provider's order id, and the claim page.
   * Whoever holds the link can claim the money: never kept, never resent.
   */
  refund_claim: { refund: { amount: number; currency: string }; orderRef: string; link: string };
};

/** What a receipt sold: a top-up, or days of games bought (or given) at their prices. */
export type ReceiptSale = {
  kind: "topup" | "purchase" | "gift";
  /** "balance" or the provider's name ("paypal", "demo", …). */
  method: string;
  items: { game: string; days: number; price: number }[];
  total: number;
  currency: string;
};

/** The seller's details every receipt carries (SELLER_NAME, SELLER_ADDRESS, SUPPORT_EMAIL). */
export type ReceiptSeller = { name: string; address?: string; supportEmail: string };

export type MailTemplateId = keyof MailTemplates;

export const MAIL_TEMPLATE_IDS = [
  "password_reset",
  "email_change_confirm",
  "email_changed_notice",
  "email_change_taken",
  "password_changed",
  "two_fa_enabled",
  "two_fa_disabled",
  "gift_received",
  "gift_code",
  "gift_invite",
  "subscription_expiring",
  "receipt",
  "welcome",
  "email_verify",
  "account_deleted",
  "days_granted",
  "refund_claim",
] as const satisfies readonly MailTemplateId[];

/**
 * Templates whose parameters carry no secret (no code that signs in or resets, no one-time link):
 * their parameters are kept with the outbox row, and an operator may send them again
 * (docs/product/back-office.md#customers). The others are never kept and never resent: the buyer
 * asks for a new code or link.
 */
export const RESENDABLE_TEMPLATES: ReadonlySet<MailTemplateId> = new Set([
  "password_changed",
  "two_fa_enabled",
  "two_fa_disabled",
  "gift_received",
  "gift_code",
  "subscription_expiring",
  "receipt",
  "days_granted",
]);

/** One e-mail to send: who, in which language, which template with which parameters. */
export type MailMessage = {
  [K in MailTemplateId]: { to: string; locale: Locale; template: K } & (MailTemplates[K] extends NoParams ? { params?: MailTemplates[K] } : { params: MailTemplates[K] });
}[MailTemplateId];

export type RenderedMail = { subject: string; text: string; html: string };

export type RenderContext = { t: Translate; pieces: TranslatePieces; locale: Locale; publicUrl: string };

type Values = Params;

/** The building blocks of a mail body, rendered both as plain text and as HTML. */
type Block =
  /** A paragraph from a message key; parameter values are escaped and set in bold in HTML. */
  | { kind: "p"; key: MessageKey; values?: Values }
  /** A code on a line of its own (large monospace in HTML). */
  | { kind: "code"; value: string }
  /** A lead sentence, then the URL on its own line (text) or a button with a fallback (HTML). */
  | { kind: "link"; lead?: MessageKey; button: MessageKey; href: string; values?: Values }
  /** Labelled values, one a line (text) or a two-column table (HTML); the last row stands out. */
  | { kind: "rows"; rows: { label: MessageKey; value: string }[] };

type Template<P> = { subject: MessageKey; subjectValues?: (p: P, ctx: RenderContext) => Values; blocks: (p: P, ctx: RenderContext) => Block[] };

const NOT_YOU: Block = { kind: "p", key: "mail.common.notYou" };
const NOT_YOU_SUPPORT: Block = { kind: "p", key: "mail.account_deleted.notYou" };

/** The site pages every mail links to, in its footer (docs/product/routes.md#legal-and-support-pages). */
const FOOTER_PAGES = ["support", "terms", "privacy", "refunds"] as const;
const footerLinks = (ctx: RenderContext) => FOOTER_PAGES.map((slug) => ({ label: ctx.t(`legal.nav.${slug}`), href: `${ctx.publicUrl}${localePath(ctx.locale, `/${slug}`)}` }));

const profileLink = (ctx: RenderContext) => `${ctx.publicUrl}${localePath(ctx.locale, "/profile")}`;

/** The giver as a gift names them: the username, or "a NOVA user" (docs/product/money.md#gifts). */
const giver = (from: string | null, ctx: RenderContext) => from ?? ctx.t("gift.anonymousGiver");

const TEMPLATES: { [K in MailTemplateId]: Template<MailTemplates[K]> } = {
  password_reset: {
    subject: "mail.password_reset.subject",
    blocks: (p): Block[] => [
      { kind: "p", key: "mail.password_reset.intro" },
      { kind: "code", value: p.code },
      { kind: "link", lead: "mail.password_reset.linkLead", button: "mail.password_reset.button", href: p.link },
      { kind: "p", key: "mail.password_reset.expiry" },
      { kind: "p", key: "mail.password_reset.ignore" },
    ],
  },
  email_change_confirm: {
    subject: "mail.email_change_confirm.subject",
    blocks: (p): Block[] => [
      {
        kind: "link",
        lead: "mail.email_change_confirm.intro",
        values: { newEmail: p.newEmail },
        button: "mail.email_change_confirm.button",
        href: p.link,
      },
      { kind: "p", key: "mail.email_change_confirm.ignore" },
    ],
  },
  email_changed_notice: {
    subject: "mail.email_changed_notice.subject",
    blocks: (p): Block[] => [
      { kind: "p", key: "mail.email_changed_notice.intro", values: { newEmail: p.newEmail } },
      { kind: "link", lead: "mail.email_changed_notice.undoLead", button: "mail.email_changed_notice.undoButton", href: p.link },
      { kind: "p", key: "mail.email_changed_notice.expiry" },
    ],
  },
  email_change_taken: {
    subject: "mail.email_change_taken.subject",
    blocks: (p): Block[] => [
      { kind: "p", key: "mail.email_change_taken.intro", values: { newEmail: p.newEmail } },
      { kind: "p", key: "mail.email_change_taken.ignore" },
    ],
  },
  password_changed: {
    subject: "mail.password_changed.subject",
    blocks: (): Block[] => [{ kind: "p", key: "mail.password_changed.intro" }, NOT_YOU],
  },
  two_fa_enabled: {
    subject: "mail.two_fa_enabled.subject",
    blocks: (): Block[] => [{ kind: "p", key: "mail.two_fa_enabled.intro" }, NOT_YOU],
  },
  two_fa_disabled: {
    subject: "mail.two_fa_disabled.subject",
    blocks: (): Block[] => [{ kind: "p", key: "mail.two_fa_disabled.intro" }, NOT_YOU],
  },
  gift_received: {
    subject: "mail.gift_received.subject",
    subjectValues: (p, ctx) => ({ from: giver(p.from, ctx) }),
    blocks: (p, ctx): Block[] => [
      { kind: "p", key: "mail.gift_received.intro", values: { from: giver(p.from, ctx), game: p.game } },
      { kind: "p", key: "mail.gift_received.days", values: { days: p.days } },
      { kind: "link", button: "mail.common.profileButton", href: profileLink(ctx) },
    ],
  },
  gift_code: {
    subject: "mail.gift_code.subject",
    subjectValues: (p) => ({ game: p.game }),
    blocks: (p, ctx): Block[] => [
      { kind: "p", key: "mail.gift_code.intro", values: { game: p.game } },
      { kind: "code", value: p.code },
      { kind: "p", key: "mail.gift_code.days", values: { days: p.days } },
      { kind: "p", key: "mail.gift_code.redeem" },
      { kind: "link", button: "mail.common.profileButton", href: profileLink(ctx) },
    ],
  },
  gift_invite: {
    subject: "mail.gift_invite.subject",
    subjectValues: (p, ctx) => ({ from: giver(p.from, ctx) }),
    blocks: (p, ctx): Block[] => [
      { kind: "p", key: "mail.gift_invite.intro", values: { from: giver(p.from, ctx), game: p.game } },
      { kind: "code", value: p.code },
      { kind: "p", key: "mail.gift_code.days", values: { days: p.days } },
      { kind: "link", lead: "mail.gift_invite.redeem", button: "mail.gift_invite.button", href: p.link },
      { kind: "p", key: "mail.gift_invite.ignore" },
    ],
  },
  subscription_expiring: {
    subject: "mail.subscription_expiring.subject",
    subjectValues: (p) => ({ game: p.game }),
    blocks: (p, ctx): Block[] => [
      {
        kind: "p",
        key: "mail.subscription_expiring.intro",
        values: { game: p.game, date: formatDate(p.date, { timeZone: p.timeZone ?? "UTC", locale: ctx.locale }) },
      },
      { kind: "link", button: "mail.subscription_expiring.button", href: profileLink(ctx) },
    ],
  },
  welcome: {
    subject: "mail.welcome.subject",
    blocks: (p): Block[] => [
      { kind: "p", key: "mail.welcome.intro" },
      { kind: "link", lead: "mail.email_verify.lead", button: "mail.email_verify.button", href: p.link },
      { kind: "p", key: "mail.email_verify.expiry" },
      { kind: "p", key: "mail.welcome.ignore" },
    ],
  },
  email_verify: {
    subject: "mail.email_verify.subject",
    blocks: (p): Block[] => [
      { kind: "link", lead: "mail.email_verify.lead", button: "mail.email_verify.button", href: p.link },
      { kind: "p", key: "mail.email_verify.expiry" },
      { kind: "p", key: "mail.email_verify.ignore" },
    ],
  },
  account_deleted: {
    subject: "mail.account_deleted.subject",
    blocks: (): Block[] => [{ kind: "p", key: "mail.account_deleted.intro" }, { kind: "p", key: "mail.account_deleted.kept" }, NOT_YOU_SUPPORT],
  },
  receipt: {
    subject: "mail.receipt.subject",
    subjectValues: (p) => ({ number: p.number }),
    blocks: (p, ctx): Block[] => {
      const money = (minor: number) => formatMoney(minor, p.sale.currency, ctx.locale);
      const rows: { label: MessageKey; value: string }[] = [
        { label: "mail.receipt.number", value: p.number },
        { label: "mail.receipt.date", value: formatDate(p.date, { timeZone: p.timeZone ?? "UTC", locale: ctx.locale }) },
      ];
      if (p.orderRef) rows.push({ label: "mail.receipt.order", value: p.orderRef });
      for (const line of receiptLines(ctx.t, p.sale)) rows.push({ label: "mail.receipt.item", value: `${line.text} — ${money(line.price)}` });
      rows.push({ label: "mail.receipt.method", value: paymentMethodName(ctx.t, p.sale.method) });
      rows.push({ label: "mail.receipt.total", value: money(p.sale.total) });
      const seller = p.seller.address ? `${p.seller.name}, ${p.seller.address}` : p.seller.name;
      return [
        { kind: "p", key: "mail.receipt.intro" },
        { kind: "rows", rows },
        { kind: "p", key: "mail.receipt.seller", values: { seller } },
        { kind: "p", key: "mail.receipt.support", values: { email: p.seller.supportEmail } },
        { kind: "link", button: "mail.receipt.button", href: profileLink(ctx) },
      ];
    },
  },
  days_granted: {
    subject: "mail.days_granted.subject",
    subjectValues: (p) => ({ game: p.game }),
    blocks: (p, ctx): Block[] => [
      { kind: "p", key: "mail.days_granted.intro", values: { game: p.game, days: p.days } },
      { kind: "p", key: "mail.days_granted.frozen" },
      { kind: "link", button: "mail.common.profileButton", href: profileLink(ctx) },
    ],
  },
  refund_claim: {
    subject: "mail.refund_claim.subject",
    subjectValues: (p, ctx) => ({ amount: formatMoney(p.refund.amount, p.refund.currency, ctx.locale) }),
    blocks: (p, ctx): Block[] => [
      { kind: "p", key: "mail.refund_claim.intro", values: { amount: formatMoney(p.refund.amount, p.refund.currency, ctx.locale), order: p.orderRef } },
      { kind: "link", lead: "mail.refund_claim.claim", button: "mail.refund_claim.button", href: p.link },
      { kind: "p", key: "mail.refund_claim.rate", values: { currency: p.refund.currency } },
      { kind: "p", key: "mail.refund_claim.secret" },
    ],
  },
};

/**
 * The lines of a receipt as its reader names them, each with its price: "Dota 2 · 30 days", "Gift:
 * Dota 2 · 30 days", "Balance top-up". The receipts list of the profile writes them the same way.
 */
export function receiptLines(t: Translate, sale: Pick<ReceiptSale, "kind" | "items" | "total">): { text: string; price: number }[] {
  if (sale.kind === "topup") return [{ text: t("receipt.item.topup"), price: sale.total }];
  return sale.items.map((item) => {
    const name = t("product.name", { game: item.game, days: t("plural.days", { count: item.days }) });
    return { text: sale.kind === "gift" ? t("receipt.item.gift", { item: name }) : name, price: item.price };
  });
}

/** How a payment was made, for people: "Balance", "PayPal", …; an unknown provider by its name. */
export function paymentMethodName(t: Translate, method: string): string {
  const key = `receipt.method.${method}`;
  return isMessageKey(key) ? t(key) : method;
}

/** Renders a message in its locale. Throws on a link that is not an absolute http(s) URL. */
export function renderMail(message: MailMessage, ctx: RenderContext): RenderedMail {
  const template = TEMPLATES[message.template] as Template<unknown>;
  const params = (message.params ?? {}) as unknown;
  const subject = oneLine(ctx.t(template.subject, clean(template.subjectValues?.(params, ctx))));
  const blocks = template.blocks(params, ctx).map((block) => (block.kind === "link" ? { ...block, href: checkLink(block.href) } : block));
  return { subject, text: renderText(blocks, ctx), html: renderHtml(subject, blocks, ctx) };
}

// Parameter values are single-line: a line break in a user's value must not fake a line of the mail.
function oneLine(value: string): string {
  return value.replace(/[\r\n\t\u2028\u2029]+/g, " ").trim();
}

function clean(values: Values | undefined): Values | undefined {
  if (!values) return undefined;
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === "number" ? v : oneLine(v)]));
}

function checkLink(href: string): string {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    throw new Error(`mail: link is not an absolute URL: ${JSON.stringify(href)}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`mail: link must be http(s): ${JSON.stringify(href)}`);
  return url.toString();
}

// ---- plain text ----

function renderText(blocks: Block[], ctx: RenderContext): string {
  const { t } = ctx;
  const parts: string[] = [t("mail.common.greeting")];
  for (const block of blocks) {
    if (block.kind === "p") parts.push(t(block.key, clean(block.values)));
    else if (block.kind === "code") parts.push(oneLine(block.value));
    else if (block.kind === "rows") parts.push(block.rows.map((row) => `${t(row.label)}: ${oneLine(row.value)}`).join("\n"));
    else parts.push(block.lead ? `${t(block.lead, clean(block.values))}\n${block.href}` : `${t(block.button)}:\n${block.href}`);
  }
  const links = footerLinks(ctx).map((l) => `${l.label}: ${l.href}`);
  parts.push(`${t("mail.common.signature")}\n\n--\n${t("mail.common.footer")}\n${links.join("\n")}`);
  return `${parts.join("\n\n")}\n`;
}

// ---- HTML ----

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

const FONT = "font-family:Arial,Helvetica,sans-serif;";
/**
 * The site's colours (app/styles/app.css :root), so a mail looks like the shop: its dark page and
 * raised surfaces, its text and muted text, the violet-to-cyan accent. Contrast (WCAG): text on the
 * card 14.9:1, muted text 7.3:1, the button's dark text on violet 5.3:1 and on cyan 10.7:1, links
 * (cyan) on the card 9.5:1. Every colour is also written as a bgcolor attribute for clients that
 * drop CSS backgrounds, so light text never lands on white.
 */
export const MAIL_COLORS = {
  page: "#0b0d17",
  raised: "#131627",
  card: "#181c30",
  border: "#2a2f4a",
  text: "#eef0ff",
  muted: "#a3a9c7",
  accent: "#8b6cff",
  accent2: "#22d3ee",
  onAccent: "#0b0d17",
} as const;
const C = MAIL_COLORS;
const TEXT_COLOR = C.text;
const MUTED = C.muted;
const GRADIENT = `background-color:${C.accent};background-image:linear-gradient(135deg,${C.accent},${C.accent2});`;

/** A message with its parameters, escaped; the values put into it in bold. */
function htmlMessage(pieces: TranslatePieces, key: MessageKey, values: Values | undefined): string {
  return pieces(key, clean(values))
    .map((piece) => (piece.value ? `<strong>${escapeHtml(piece.text)}</strong>` : escapeHtml(piece.text)))
    .join("");
}

const paragraph = (inner: string, style = "") => `<p style="${style.includes("margin:") ? "" : "margin:0 0 16px 0;"}${style}">${inner}</p>`;

function renderHtml(subject: string, blocks: Block[], ctx: RenderContext): string {
  const { t } = ctx;
  const body: string[] = [
    `<h1 style="margin:0 0 20px 0;${FONT}font-size:22px;line-height:28px;font-weight:bold;color:${TEXT_COLOR};">${escapeHtml(bindShortWords(subject, ctx.locale))}</h1>`,
    paragraph(escapeHtml(t("mail.common.greeting"))),
  ];
  for (const block of blocks) {
    if (block.kind === "p") body.push(paragraph(htmlMessage(ctx.pieces, block.key, block.values)));
    else if (block.kind === "rows") {
      const cell = `padding:8px 0;border-bottom:1px solid ${C.border};${FONT}font-size:15px;line-height:22px;vertical-align:top;`;
      const rows = block.rows.map((row, i) => {
        const strong = i === block.rows.length - 1 ? "font-weight:bold;" : "";
        return `<tr><td style="${cell}color:${MUTED};padding-right:16px;">${escapeHtml(t(row.label))}</td><td style="${cell}${strong}color:${TEXT_COLOR};text-align:right;">${escapeHtml(oneLine(row.value))}</td></tr>`;
      });
      body.push(`<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px 0;border-collapse:collapse;">${rows.join("")}</table>`);
    } else if (block.kind === "code") {
      body.push(
        paragraph(
          `<span style="display:inline-block;padding:12px 20px;background-color:${C.page};border:1px solid ${C.border};border-radius:6px;font-family:'Courier New',Courier,monospace;font-size:28px;line-height:34px;font-weight:bold;letter-spacing:6px;color:${TEXT_COLOR};">${escapeHtml(oneLine(block.value))}</span>`,
        ),
      );
    } else {
      const href = escapeHtml(block.href);
      if (block.lead) body.push(paragraph(htmlMessage(ctx.pieces, block.lead, block.values)));
      body.push(
        `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px 0;"><tr>` +
          `<td bgcolor="${C.accent}" style="border-radius:6px;${GRADIENT}">` +
          `<a href="${href}" target="_blank" style="display:inline-block;padding:12px 24px;${FONT}font-size:16px;line-height:20px;font-weight:bold;color:${C.onAccent};text-decoration:none;border-radius:6px;">${escapeHtml(t(block.button))}</a>` +
          `</td></tr></table>`,
        paragraph(
          `${escapeHtml(t("mail.common.linkFallback"))}<br><a href="${href}" target="_blank" style="color:${C.accent2};word-break:break-all;">${href}</a>`,
          `font-size:13px;line-height:20px;color:${MUTED};`,
        ),
      );
    }
  }
  body.push(paragraph(escapeHtml(t("mail.common.signature")), "margin:24px 0 0 0;"));

  return `<!DOCTYPE html>
<html lang="${LANG_TAG[ctx.locale]}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<meta name="supported-color-schemes" content="dark">
<title>${escapeHtml(subject)}</title>
</head>
<body bgcolor="${C.page}" style="margin:0;padding:0;background-color:${C.page};">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="${C.page}" style="background-color:${C.page};">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="${C.card}" style="max-width:560px;background-color:${C.card};border:1px solid ${C.border};border-radius:12px;">
<tr><td bgcolor="${C.raised}" style="padding:20px 32px;background-color:${C.raised};border-radius:12px 12px 0 0;${FONT}font-size:22px;line-height:28px;font-weight:bold;letter-spacing:4px;color:${TEXT_COLOR};">NOVA</td></tr>
<tr><td bgcolor="${C.accent}" height="4" style="height:4px;line-height:4px;font-size:0;${GRADIENT}">&nbsp;</td></tr>
<tr><td style="padding:28px 32px;${FONT}font-size:16px;line-height:24px;color:${TEXT_COLOR};">
${body.join("\n")}
</td></tr>
<tr><td bgcolor="${C.raised}" style="padding:16px 32px;background-color:${C.raised};border-top:1px solid ${C.border};border-radius:0 0 12px 12px;${FONT}font-size:12px;line-height:18px;color:${MUTED};">${escapeHtml(t("mail.common.footer"))}<br>${footerLinks(
    ctx,
  )
    .map((l) => `<a href="${escapeHtml(l.href)}" target="_blank" style="color:${MUTED};text-decoration:underline;">${escapeHtml(l.label)}</a>`)
    .join(" &middot; ")}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}
