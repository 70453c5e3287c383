// The BTCPay journey in Chromium, in English and Russian (issue 12): a new buyer buys 30 days of
// Dota 2 with crypto at the checkout, pays on BTCPay Server's checkout page (the loopback stand-in
// of tests/kit/btcpay.ts, started by the global setup: its "Pay" button settles the invoice, sends
// the signed webhook and sends the buyer back, as BTCPay does), comes back to /payment/btcpay, sees
// the days on the subscription page; then tops up the balance the same way. Both receipts are mailed
// in the buyer's language and name the method. Every shop page visited is checked with axe, and the
// return pages are photographed at 1440 and 390 px.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import type { Locator, Page } from "playwright-core";
import { compileCatalog } from "../i18n/catalogs.ts";
import { formatDate, formatMoney } from "../i18n/format.ts";
import { createTranslate } from "../i18n/translate.ts";
import { MOBILE, screenshot, useBrowser } from "./fixtures/browser.ts";
import { expectAccessible, expectNoOverflow } from "./fixtures/axe.ts";
import { tickRecaptcha } from "./fixtures/recaptcha.ts";
import { DEMO } from "../db/seed.ts";

const session = useBrowser();
const root = path.resolve(import.meta.dirname, "..");
const catalog = (locale: string) => JSON.parse(readFileSync(path.join(root, "i18n/messages", `${locale}.json`), "utf8")) as Record<string, string>;

const PASSWORD = "amber kestrel lantern 57";
const GAME = DEMO.games.dota2;
const WIDE = { width: 1440, height: 900 } as const;
/** The top-up, in major units. */
const TOPUP = 25;
const MINUTE = 60_000;
const DAY = 86_400_000;

describe.each([
  { locale: "en" as const, prefix: "/en" },
  { locale: "ru" as const, prefix: "" },
])("BTCPay journey ($locale)", ({ locale, prefix }) => {
  const t = catalog(locale);
  const tr = createTranslate(compileCatalog(locale), locale);
  const days = (count: number) => tr("plural.days", { count });
  // The buyer's browser runs in UTC, so a page drawn before the tz cookie is known shows the same.
  const shownDate = (ms: number) => formatDate(new Date(ms), { timeZone: "UTC", locale });
  const buyerEmail = `btcpay-${locale}-${Date.now()}@example.com`;
  const profile = `${prefix}/${GAME.slug}/profile`;
  let currency = "USD";
  const money = (minor: number) => formatMoney(minor, currency, locale);
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const url = (pathAndQuery: string | RegExp) => new RegExp(`^https?://[^/]+${typeof pathAndQuery === "string" ? escape(pathAndQuery) : pathAndQuery.source}$`);
  const fact = (page: Page, label: string): Locator => page.locator(`xpath=//dl[contains(@class,"facts")]/div[dt[normalize-space()="${label}"]]/dd`);
  const shot = (page: Page, step: string) => screenshot(page, `btcpay-journey-${locale}-${step}`);

  /** The instant (start of its minute) of a date shown as dd.MM.yyyy HH:mm UTC. */
  function parseShown(text: string): number {
    const m = /^(\d{2})\.(\d{2})\.(\d{4}) (\d{2}):(\d{2}) UTC$/.exec(text.trim());
    if (!m) throw new Error(`not a dd.MM.yyyy HH:mm UTC date: ${JSON.stringify(text)}`);
    return Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1]), Number(m[4]), Number(m[5]));
  }

  /** The shop page as it is now: no serious axe violation, nothing wider than the viewport. */
  async function checked(page: Page) {
    await expectAccessible(page);
    await expectNoOverflow(page);
  }

  /** The return page photographed at 1440 px and at 390 px, axe-checked at both. */
  async function shots(page: Page, step: string) {
    await page.setViewportSize(WIDE);
    await checked(page);
    await shot(page, `${step}-1440`);
    await page.setViewportSize(MOBILE);
    await checked(page);
    await shot(page, `${step}-390`);
    await page.setViewportSize(WIDE);
  }

  /** The stand-in's checkout page for `amount`; pays there and waits for the shop's return page. */
  async function payOnBtcPay(page: Page, amount: number, step: string): Promise<string> {
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/i\/[A-Za-z0-9]+$/);
    const invoice = new URL(page.url()).pathname.split("/")[2]!;
    // The shop's invoice: its price in the shop currency, as a decimal.
    await expect.poll(() => page.locator("p.amount").innerText()).toBe(`${(amount / 100).toFixed(2)} ${currency}`);
    await shot(page, step);
    await page.getByRole("button", { name: "Pay with Bitcoin", exact: true }).click();
    await page.waitForURL(url(`${prefix}/payment/btcpay?invoice=${invoice}`));
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(t["return.success.title"]);
    return invoice;
  }

  /** The newest mail to the buyer whose subject starts like `subject`: its text, once it is in the outbox. */
  async function mailText(page: Page, subject: RegExp, contains: string): Promise<{ text: string; language: string }> {
    let found = { text: "", language: "" };
    await expect
      .poll(
        async () => {
          const html = await (await page.request.get("/dev/mail")).text();
          for (const article of html.split("<article>").slice(1)) {
            const title = /<h2>([^<]*)<\/h2>/.exec(article)?.[1] ?? "";
            if (!article.includes(`<b>To:</b> ${buyerEmail} `) || !subject.test(title) || !article.includes(contains)) continue;
            found = { text: /<pre>([\s\S]*)<\/pre>/.exec(article)?.[1] ?? "", language: /<b>Language:<\/b> (\w+)/.exec(article)?.[1] ?? "" };
            return true;
          }
          return false;
        },
        { message: `a receipt to ${buyerEmail} with ${contains}` },
      )
      .toBe(true);
    return found;
  }

  test("buy 30 days and top up with BTCPay: its checkout page, the return page, the days, the receipt mails", async () => {
    const page = await session.newPage({ timezoneId: "UTC", viewport: WIDE });

    // 1. Sign up.
    await page.goto(`${prefix}/auth/register`);
    await expect.poll(() => page.locator("html").getAttribute("lang")).toBe(locale);
    await page.getByLabel(t["auth.field.email"]!).fill(buyerEmail);
    await page.getByLabel(t["auth.field.password"]!).fill(PASSWORD);
    await tickRecaptcha(page);
    await page.getByRole("button", { name: t["auth.register.submit"] }).click();
    await page.waitForURL(url(`${prefix}/${GAME.slug}/profile`));

    // 2. The 30-day plan at the checkout: BTCPay beside the demo provider and the balance (empty).
    await page.goto(`${profile}/subscription`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(tr("sub.title", { game: GAME.name }));
    const plan = page.locator("li.plan").filter({ has: page.getByRole("heading", { level: 3, name: days(30), exact: true }) });
    await plan.getByRole("link", { name: tr("game.product.buyLabel", { days: days(30) }), exact: true }).click();
    await page.waitForURL(url(new RegExp(`${escape(profile)}/payment\\?product=\\d+`)));
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(t["payment.heading"]);
    const priceText = await page.locator(".checkout-price").innerText();
    const price = Number(priceText.replace(/\D/g, ""));
    expect(money(price)).toBe(priceText);
    const payWithCrypto = page.getByRole("button", { name: t["payment.btcpay"], exact: true });
    await expect.poll(() => payWithCrypto.isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: t["payment.paypal"], exact: true }).isVisible()).toBe(true);
    await checked(page);
    await shot(page, "01-checkout");
    const boughtFrom = Date.now();
    await payWithCrypto.click();

    // 3. BTCPay's checkout page: pay, and back to the shop's return page with the days.
    const purchaseInvoice = await payOnBtcPay(page, price, "02-btcpay-checkout");
    const boughtTo = Date.now();
    await expect.poll(() => page.getByText(tr("return.product", { item: tr("product.name", { game: GAME.name, days: days(30) }), amount: money(price) }), { exact: true }).isVisible()).toBe(true);
    const endOnReturn = await page.locator(".result-figure strong").innerText();
    const end = parseShown(endOnReturn);
    expect(end).toBeGreaterThanOrEqual(Math.floor((boughtFrom + 30 * DAY) / MINUTE) * MINUTE);
    expect(end).toBeLessThanOrEqual(boughtTo + 30 * DAY);
    await shots(page, "03-purchase-return");

    // 4. The subscription page: active until that date, 29 days and some hours left.
    await page.goto(`${profile}/subscription`);
    await expect.poll(() => page.locator(".sub-card .badge").innerText()).toBe(t["sub.state.active"]);
    expect(await fact(page, t["sub.expiresAt"]!).innerText()).toBe(shownDate(end));
    expect(await fact(page, t["sub.remaining"]!).innerText()).toMatch(new RegExp(`^(${escape(days(29))} |${escape(days(30))}$)`));
    await checked(page);
    await shot(page, "04-subscription");

    // 5. A top-up with BTCPay, picked on the balance page.
    await page.goto(`${profile}/balance`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(t["balance.title"]);
    currency = (await page.locator(".amount-currency").innerText()).trim();
    expect(await page.getByTestId("balance").innerText()).toBe(money(0));
    await page.getByLabel(tr("balance.topup.amount", { currency })).fill(String(TOPUP));
    await page.getByRole("radio", { name: t["receipt.method.btcpay"], exact: true }).check();
    await checked(page);
    await shot(page, "05-balance-topup");
    await page.getByRole("button", { name: t["balance.topup.submit"], exact: true }).click();
    const topupInvoice = await payOnBtcPay(page, TOPUP * 100, "06-btcpay-checkout");
    await expect.poll(() => page.getByText(tr("return.topup", { amount: money(TOPUP * 100) }), { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => page.locator(".result-figure strong").innerText()).toBe(money(TOPUP * 100));
    await shots(page, "07-topup-return");
    await page.getByRole("link", { name: t["return.back"], exact: true }).click();
    await page.waitForURL(url(`${profile}/balance`));
    await expect.poll(() => page.getByTestId("balance").innerText()).toBe(money(TOPUP * 100));
    await expect.poll(() => page.locator(".tx-table tbody tr").first().locator("td").nth(1).innerText()).toBe(t["tx.type.topup"]);

    // 6. Both receipts, in the buyer's language, say "Paid with: Cryptocurrency (BTCPay)" and name the invoice.
    const subject = new RegExp(`^${escape(t["mail.receipt.subject"]!.split("{")[0]!)}`);
    const paidWith = `${t["mail.receipt.method"]}: ${t["receipt.method.btcpay"]}`;
    for (const [invoice, item, total] of [
      [purchaseInvoice, tr("product.name", { game: GAME.name, days: days(30) }), price],
      [topupInvoice, t["receipt.item.topup"]!, TOPUP * 100],
    ] as const) {
      const mail = await mailText(page, subject, invoice);
      expect(mail.language).toBe(locale);
      expect(mail.text).toContain(paidWith);
      expect(mail.text).toContain(`${t["mail.receipt.item"]}: ${item} — ${money(total)}`);
      expect(mail.text).toContain(`${t["mail.receipt.total"]}: ${money(total)}`);
    }
  });
});
