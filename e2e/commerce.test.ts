// The commerce journey in Chromium, in Russian and English: sign in → top up the balance with the
// demo provider → buy 30 days of Dota 2 from the balance → freeze and unfreeze → give 7 days to
// another user, who then sees them → the journey's receipts on the balance page → the header's
// inbox (its notifications, one marked read, then all). Labels come from the message catalogues;
// every money figure and date is checked exactly against what the page showed before the step, and
// every date names the browser's zone, even on a page drawn with a stale `tz` cookie.
//
// Both languages share one server and one demo user, and a freeze leaves a 7-day cooldown: so the
// Russian journey uses the demo user (an active subscription that the purchase extends), the
// English one a newly registered user (no subscription: the purchase starts one).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect as fileExpect, test, type ExpectStatic } from "vitest";
import type { Locator, Page } from "playwright-core";
import { compileCatalog } from "../i18n/catalogs.ts";
import { formatDate, formatMoney } from "../i18n/format.ts";
import { LANG_TAG } from "../i18n/locales.ts";
import { createTranslate } from "../i18n/translate.ts";
import { screenshot, useBrowser } from "./fixtures/browser.ts";
import { tickRecaptcha } from "./fixtures/recaptcha.ts";
import { confirmAddress } from "./fixtures/mail.ts";
import { DEMO } from "../db/seed.ts";

const session = useBrowser();
const root = path.resolve(import.meta.dirname, "..");
const catalog = (locale: string) => JSON.parse(readFileSync(path.join(root, "i18n/messages", `${locale}.json`), "utf8")) as Record<string, string>;

const DEMO_USER = DEMO.user;
const PASSWORD = "violet tangerine orbit 42";
const GAME = DEMO.games.dota2;
/** The server's defaults (FREEZE_MAX_DAYS, FREEZE_COOLDOWN_DAYS); the e2e server sets neither. */
const FREEZE_MAX_DAYS = 30;
const FREEZE_COOLDOWN_DAYS = 7;
/** The top-up, in major units: enough for a new user to buy 30 days and then give 7. */
const TOPUP = 30;

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * The buyer's time zone: the browser's, which the page's script writes into the `tz` cookie, so the
 * pages show times there with the zone's short name (docs/product/routes.md#dates-and-amounts).
 * The English journey runs in Tokyo (no summer time: a fixed offset), the Russian one in UTC.
 */
const ZONES = { ru: { id: "UTC", offset: 0 }, en: { id: "Asia/Tokyo", offset: 9 * 3_600_000 } } as const;
/** A zone neither journey runs in: the stale `tz` cookie of a buyer back from a trip. */
const STALE_ZONE = "America/New_York";

// The two languages' journeys run at the same time (their own buyers and recipients; the fixture
// checks the console when both are done): a journey is mostly waiting for pages.
describe.concurrent.each([
  { locale: "ru" as const, prefix: "", buyer: "demo" as const },
  { locale: "en" as const, prefix: "/en", buyer: "new" as const },
])("commerce journey ($locale, $buyer user)", ({ locale, prefix, buyer }) => {
  /**
   * The journey's own `expect`, its test's from the moment it starts: with the two journeys at
   * once, the file's `expect.poll` would not know which test it belongs to.
   */
  let expect: ExpectStatic = fileExpect;
  const t = catalog(locale);
  const zone = ZONES[locale];
  /** dd.MM.yyyy HH:mm and the zone's name, as the pages show dates in the buyer's zone. */
  const shownDate = (ms: number) => formatDate(new Date(ms), { timeZone: zone.id, locale });
  /** The instant (the start of its minute) of a shown date, which must name the buyer's zone. */
  function parseShown(text: string): number {
    const m = /^(\d{2})\.(\d{2})\.(\d{4}) (\d{2}):(\d{2}) (\S+)$/.exec(text.trim());
    if (!m) throw new Error(`not a dd.MM.yyyy HH:mm date with its zone: ${JSON.stringify(text)}`);
    // Always the browser's zone (docs/decisions/0031-the-zone-before-the-cookie.md).
    expect(m[6], `the zone of ${text}`).toBe(shownDate(0).split(" ")[2]);
    return Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1]), Number(m[4]), Number(m[5])) - zone.offset;
  }
  /** A shown date must name the minute of some instant in [from, to]. */
  function expectShownBetween(text: string, from: number, to: number, what: string) {
    const at = parseShown(text);
    expect(at, `${what}: ${text} is not between ${shownDate(from)} and ${shownDate(to)}`).toBeGreaterThanOrEqual(Math.floor(from / MINUTE) * MINUTE);
    expect(at, `${what}: ${text} is not between ${shownDate(from)} and ${shownDate(to)}`).toBeLessThanOrEqual(to);
  }
  /** Messages with parameters (ICU: plurals), formatted as the pages format them. */
  const tr = createTranslate(compileCatalog(locale), locale);
  const days = (count: number) => tr("plural.days", { count });
  const stamp = Date.now();
  const recipientEmail = `gift-${locale}-${stamp}@example.com`;
  const buyerEmail = buyer === "demo" ? DEMO_USER.email : `buyer-${locale}-${stamp}@example.com`;
  const profile = `${prefix}/${GAME.slug}/profile`;
  let currency = "USD";

  const money = (minor: number) => formatMoney(minor, currency, locale);
  /** Minor units of a money figure; the figure must be exactly how the page formats that amount. */
  function minorOf(text: string): number {
    const minor = Number(text.replace(/\D/g, ""));
    expect(money(minor), `${JSON.stringify(text)} is not formatted as ${locale} money`).toBe(text.trim());
    return minor;
  }
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const exactly = (s: string) => new RegExp(`^\\s*${escape(s)}\\s*$`);
  const url = (pathAndQuery: string | RegExp) => new RegExp(`^https?://[^/]+${typeof pathAndQuery === "string" ? escape(pathAndQuery) : pathAndQuery.source}$`);

  /** The definition next to the term `label` in the page's facts list. */
  const fact = (page: Page, label: string): Locator => page.locator(`xpath=//dl[contains(@class,"facts")]/div[dt[normalize-space()="${label}"]]/dd`);
  const badge = (page: Page) => page.locator(".sub-card .badge");
  // The innermost status: the gift page wraps its notice (itself a status) in another one.
  const notice = (page: Page, text: string) =>
    page
      .getByRole("status")
      .filter({ hasText: exactly(text) })
      .last();
  const shot = (page: Page, step: string) => screenshot(page, `commerce-journey-${locale}-${step}`);
  /** The header's bell: its unread count, as the page states it. */
  const bell = (page: Page) => page.locator("details.inbox > summary");
  const unread = async (page: Page) => Number(await bell(page).getAttribute("data-unread"));

  async function register(page: Page, email: string) {
    await page.goto(`${prefix}/auth/register`);
    await expect.poll(() => page.locator("html").getAttribute("lang")).toBe(locale);
    await page.getByLabel(t["auth.field.email"]!).fill(email);
    await page.getByLabel(t["auth.field.password"]!).fill(PASSWORD);
    await tickRecaptcha(page);
    await page.getByRole("button", { name: t["auth.register.submit"] }).click();
    await page.waitForURL(url(`${prefix}/${GAME.slug}/profile`));
  }

  /** Opens the balance page and reads the balance it shows, in minor units. */
  async function balanceShown(page: Page): Promise<number> {
    await page.goto(`${profile}/balance`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(t["balance.title"]);
    currency = (await page.locator(".amount-currency").innerText()).trim();
    return minorOf(await page.getByTestId("balance").innerText());
  }

  test("top up with the demo provider, buy 30 days, freeze and unfreeze, give 7 days", async (context) => {
    expect = context.expect;
    const page = await session.newPage({ allowConsoleErrors: [/status of 4\d\d/], timezoneId: zone.id });

    // 1. Sign in (the demo user) or register (a new user).
    if (buyer === "demo") {
      await page.goto(`${prefix}/auth`);
      await expect.poll(() => page.locator("html").getAttribute("lang")).toBe(locale);
      await page.getByLabel(t["auth.field.login"]!).fill(DEMO_USER.email);
      await page.getByLabel(t["auth.field.password"]!, { exact: true }).fill(DEMO_USER.password);
      await tickRecaptcha(page);
      await page.getByRole("button", { name: t["auth.login.submit"], exact: true }).click();
      await page.waitForURL(url(new RegExp(`${prefix}/[a-z0-9]+/profile`)));
      await page.goto(profile);
    } else {
      await register(page, buyerEmail);
      // Gifts need a confirmed address (docs/product/accounts.md#verified-addresses): the welcome mail's link.
      await confirmAddress(page, buyerEmail);
      await page.goto(profile);
    }
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(tr("profile.overview.title", { game: GAME.name }));
    await expect.poll(() => page.locator(".stat-small").innerText()).toBe(buyerEmail);
    // The journey's receipts and notifications are those dated from here on.
    const journeyFrom = Date.now() - MINUTE;
    const unreadBefore = await unread(page);
    await shot(page, "01-signed-in");

    // 2. Top up with the demo provider.
    const startBalance = await balanceShown(page);
    if (buyer === "new") expect(startBalance).toBe(0);
    const topup = TOPUP * 100;
    await page.getByLabel(tr("balance.topup.amount", { currency })).fill(String(TOPUP));
    await page.getByRole("button", { name: t["balance.topup.submit"], exact: true }).click();
    await page.waitForURL(url(new RegExp(`${prefix}/payment/demo\\?order=DEMO-[A-Z0-9]+`)));
    // The ribbon, in capitals on the screen ("DEMO — NO REAL MONEY").
    const ribbon = page.getByRole("note");
    await expect.poll(async () => (await ribbon.textContent())?.trim()).toBe(t["demo.ribbon"]);
    expect((await ribbon.innerText()).trim()).toBe(t["demo.ribbon"]!.toLocaleUpperCase(LANG_TAG[locale]));
    await expect.poll(() => fact(page, t["demo.what"]!).innerText()).toBe(t["demo.topup"]);
    await expect.poll(() => fact(page, t["demo.amount"]!).innerText()).toBe(money(topup));
    expect(await fact(page, t["demo.order"]!).innerText()).toMatch(/^DEMO-[A-Z0-9]+$/);
    await shot(page, "02-demo-provider");
    await page.getByRole("button", { name: tr("demo.pay", { amount: money(topup) }), exact: true }).click();

    await page.waitForURL(url(new RegExp(`${prefix}/payment/paypal\\?token=DEMO-[A-Z0-9]+`)));
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(t["return.success.title"]);
    await expect.poll(() => page.getByText(tr("return.topup", { amount: money(topup) }), { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => page.locator(".result-figure strong").innerText()).toBe(money(startBalance + topup));
    await shot(page, "03-topup-return");
    await page.getByRole("link", { name: t["return.back"], exact: true }).click();
    await page.waitForURL(url(`${profile}/balance`));
    await expect.poll(() => page.getByTestId("balance").innerText()).toBe(money(startBalance + topup));
    const newest = page.locator(".tx-table tbody tr").first();
    await expect.poll(() => newest.locator("td").nth(1).innerText()).toBe(t["tx.type.topup"]);
    await expect.poll(() => newest.locator("td.amount").innerText()).toBe(`+${money(topup)}`);
    await shot(page, "04-topup-balance");
    const afterTopup = startBalance + topup;

    // 3. Buy the 30-day plan from the balance.
    await page.goto(`${profile}/subscription`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(tr("sub.title", { game: GAME.name }));
    let expiryBefore: number | undefined;
    if (buyer === "demo") {
      await expect.poll(() => badge(page).innerText()).toBe(t["sub.state.active"]);
      expiryBefore = parseShown(await fact(page, t["sub.expiresAt"]!).innerText());
    } else {
      await expect.poll(() => badge(page).innerText()).toBe(t["sub.state.none"]);
      await expect.poll(() => page.getByText(t["subscription.block.missing"]!, { exact: true }).isVisible()).toBe(true);
    }
    const plan = page.locator("li.plan").filter({ has: page.getByRole("heading", { level: 3, name: days(30), exact: true }) });
    await expect.poll(() => plan.count()).toBe(1);
    const price = minorOf(await plan.locator(".plan-price").innerText());
    expect(price).toBeLessThanOrEqual(afterTopup);
    // A holder extends, a newcomer buys: the card's one link says which, and for how many days.
    const action = expiryBefore === undefined ? tr("game.product.buyLabel", { days: days(30) }) : tr("game.product.extendLabel", { days: days(30) });
    await plan.getByRole("link", { name: action, exact: true }).click();

    await page.waitForURL(url(new RegExp(`${escape(profile)}/payment\\?product=\\d+`)));
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(t["payment.heading"]);
    await expect.poll(() => page.getByRole("heading", { level: 2 }).innerText()).toBe(tr("product.name", { game: GAME.name, days: days(30) }));
    expect(await page.locator(".checkout-price").innerText()).toBe(money(price));
    expect(await fact(page, t["balance.current"]!).innerText()).toBe(money(afterTopup));
    const effect = expiryBefore === undefined ? t["payment.startsNow"]! : tr("payment.extends", { date: shownDate(expiryBefore) });
    expect(await page.locator(".checkout-effect > span").last().innerText()).toBe(effect);
    // Before paying: the new end of the pass and the balance after paying from it.
    const newEnd = await page.getByTestId("new-end").innerText();
    if (expiryBefore !== undefined) expect(newEnd).toBe(shownDate(expiryBefore + 30 * DAY));
    else expectShownBetween(newEnd, Date.now() - 2 * MINUTE + 30 * DAY, Date.now() + 30 * DAY, "the new end shown before paying");
    expect(await page.getByTestId("balance-after").innerText()).toBe(money(afterTopup - price));
    await shot(page, "05-payment");
    const boughtFrom = Date.now();
    await page.getByRole("button", { name: tr("payment.fromBalance", { price: money(price) }), exact: true }).click();

    await page.waitForURL(url(`${profile}/subscription?notice=purchased`));
    const boughtTo = Date.now();
    await expect.poll(() => notice(page, t["sub.notice.purchased"]!).isVisible()).toBe(true);
    await expect.poll(() => badge(page).innerText()).toBe(t["sub.state.active"]);
    const expiryText = await fact(page, t["sub.expiresAt"]!).innerText();
    if (expiryBefore !== undefined) {
      // A live subscription is extended by exactly 30 days.
      expect(expiryText).toBe(shownDate(expiryBefore + 30 * DAY));
    } else {
      expectShownBetween(expiryText, boughtFrom + 30 * DAY, boughtTo + 30 * DAY, "a new subscription runs 30 days from the purchase");
    }
    const expiry = parseShown(expiryText);
    await expect.poll(() => page.getByRole("heading", { level: 2, name: t["sub.plans.extend"], exact: true }).isVisible()).toBe(true);
    await shot(page, "06-purchased");
    expect(await balanceShown(page)).toBe(afterTopup - price);
    await expect.poll(() => newest.locator("td").nth(1).innerText()).toBe(t["tx.type.purchase"]);
    await expect.poll(() => newest.locator("td.amount").innerText()).toBe(`−${money(price)}`);
    const afterPurchase = afterTopup - price;

    // 4. Freeze, then unfreeze: running again, and the next freeze waits for the cooldown.
    // First the buyer comes back with a `tz` cookie from another zone (a trip, a restored profile):
    // the page drawn in that zone asks for itself again, and shows the browser's zone
    // (docs/decisions/0031-the-zone-before-the-cookie.md).
    await page.context().addCookies([{ name: "tz", value: encodeURIComponent(STALE_ZONE), url: new URL(page.url()).origin }]);
    await page.goto(`${profile}/subscription`);
    await expect.poll(() => badge(page).innerText()).toBe(t["sub.state.active"]);
    await expect.poll(() => fact(page, t["sub.expiresAt"]!).innerText()).toBe(shownDate(expiry));
    expect((await page.context().cookies()).find((c) => c.name === "tz")?.value).toBe(encodeURIComponent(zone.id));
    expect(await page.locator("html").getAttribute("data-tz")).toBe(zone.id);
    const frozeFrom = Date.now();
    await page.getByRole("button", { name: t["sub.freeze"], exact: true }).click();
    await page.waitForURL(url(`${profile}/subscription?notice=frozen`));
    const frozeTo = Date.now();
    await expect.poll(() => notice(page, t["sub.notice.frozen"]!).isVisible()).toBe(true);
    await expect.poll(() => badge(page).innerText()).toBe(t["sub.state.frozen"]);
    const frozenAt = await fact(page, t["sub.frozenAt"]!).innerText();
    expectShownBetween(frozenAt, frozeFrom, frozeTo, "frozen on");
    expect(await fact(page, t["sub.freezeEnds"]!).innerText()).toBe(shownDate(parseShown(frozenAt) + FREEZE_MAX_DAYS * DAY));
    // The time kept is what was left: its whole days, from an expiry known to the minute.
    const kept = await fact(page, t["sub.kept"]!).innerText();
    const keptDays = new Set([Math.floor((expiry - frozeTo) / DAY), Math.floor((expiry + MINUTE - frozeFrom) / DAY)].map((n) => days(n)));
    expect(
      [...keptDays].some((d) => kept.startsWith(`${d} `) || kept === d),
      `time kept "${kept}" is not one of ${[...keptDays].join(", ")}`,
    ).toBe(true);
    expect(await page.getByRole("button", { name: t["sub.freeze"], exact: true }).count()).toBe(0);
    await shot(page, "07-frozen");

    const unfrozeFrom = Date.now();
    await page.getByRole("button", { name: t["sub.unfreeze"], exact: true }).click();
    await page.waitForURL(url(`${profile}/subscription?notice=unfrozen`));
    const unfrozeTo = Date.now();
    await expect.poll(() => notice(page, t["sub.notice.unfrozen"]!).isVisible()).toBe(true);
    await expect.poll(() => badge(page).innerText()).toBe(t["sub.state.active"]);
    // The kept time runs again from the unfreeze: the expiry moves by the time spent frozen.
    expectShownBetween(await fact(page, t["sub.expiresAt"]!).innerText(), expiry - 1000, expiry + MINUTE + (unfrozeTo - frozeFrom), "valid until, after the unfreeze");
    const cooldown = page.getByRole("note").filter({ hasText: t["sub.cooldownUntil"]!.split("{date}")[0]! });
    await expect.poll(() => cooldown.isVisible()).toBe(true);
    const nextFreeze = /(\d{2}\.\d{2}\.\d{4} \d{2}:\d{2} [A-Za-z0-9+\-:]+)/.exec(await cooldown.innerText())?.[1] ?? "";
    expect(await cooldown.innerText()).toBe(tr("sub.cooldownUntil", { date: nextFreeze }));
    expectShownBetween(nextFreeze, unfrozeFrom + FREEZE_COOLDOWN_DAYS * DAY, unfrozeTo + FREEZE_COOLDOWN_DAYS * DAY, "the next freeze");
    expect(await page.getByRole("button", { name: t["sub.freeze"], exact: true }).count()).toBe(0);
    await shot(page, "08-unfrozen");

    // 5. Give 7 days to a newly registered user.
    const recipient = await session.newPage({ allowConsoleErrors: [/status of 4\d\d/], timezoneId: zone.id });
    await register(recipient, recipientEmail);

    await page.goto(`${prefix}/give/subscription?game=${GAME.slug}`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(t["gift.title"]);
    await expect.poll(() => page.locator(".balance-inline strong").innerText()).toBe(money(afterPurchase));
    const product = page.getByLabel(t["gift.give.product"]!);
    const option = await product.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent ?? "");
    const giftName = tr("product.name", { game: GAME.name, days: days(7) });
    expect(option.startsWith(`${giftName} — `), `the preselected plan is "${option}"`).toBe(true);
    const giftPrice = minorOf(option.slice(giftName.length + 3));
    expect(giftPrice).toBeLessThanOrEqual(afterPurchase);
    await page.getByLabel(t["gift.give.recipient"]!).fill(recipientEmail);
    const gaveFrom = Date.now();
    await page.getByRole("button", { name: t["gift.give.submit"], exact: true }).click();
    // By e-mail the page says "sent to that address", never whether it has an account (docs/product/money.md#gifts).
    const sent = tr("gift.give.sentToEmail", { recipient: recipientEmail, days: 7, game: GAME.name });
    await expect.poll(() => notice(page, sent).isVisible()).toBe(true);
    const gaveTo = Date.now();
    await expect.poll(() => page.locator(".balance-inline strong").innerText()).toBe(money(afterPurchase - giftPrice));
    await expect.poll(() => page.getByLabel(t["gift.give.recipient"]!).inputValue()).toBe("");
    await shot(page, "09-gift-sent");

    await recipient.goto(`${profile}/subscription`);
    await expect.poll(() => recipient.getByRole("heading", { level: 1 }).innerText()).toBe(tr("sub.title", { game: GAME.name }));
    await expect.poll(() => badge(recipient).innerText()).toBe(t["sub.state.active"]);
    expectShownBetween(await fact(recipient, t["sub.expiresAt"]!).innerText(), gaveFrom + 7 * DAY, gaveTo + 7 * DAY, "the gift runs 7 days");
    const left = await fact(recipient, t["sub.remaining"]!).innerText();
    expect(
      [days(7), days(6)].some((d) => left === d || left.startsWith(`${d} `)),
      `time left "${left}"`,
    ).toBe(true);
    await shot(recipient, "10-gift-received");

    expect(await balanceShown(page)).toBe(afterPurchase - giftPrice);
    await expect.poll(() => newest.locator("td").nth(1).innerText()).toBe(t["tx.type.gift"]);
    await expect.poll(() => newest.locator("td.amount").innerText()).toBe(`−${money(giftPrice)}`);
    await shot(page, "11-balance-final");

    // 6. The receipts (docs/product/money.md#receipts), newest first on the balance page: the gift and
    // the purchase paid from the balance, the top-up paid with the demo provider — each with its
    // item, method and amount, dated in the buyer's zone within the journey.
    const receipts = page.locator(".receipts-table tbody tr");
    await expect.poll(() => receipts.count()).toBeGreaterThanOrEqual(3);
    const named = (n: number) => tr("product.name", { game: GAME.name, days: days(n) });
    const expected = [
      { item: tr("receipt.item.gift", { item: named(7) }), method: t["receipt.method.balance"], amount: giftPrice },
      { item: named(30), method: t["receipt.method.balance"], amount: price },
      { item: t["receipt.item.topup"], method: t["receipt.method.demo"], amount: topup },
    ];
    const numbers = new Set<string>();
    for (const [i, want] of expected.entries()) {
      const cells = receipts.nth(i).locator("td");
      expect(await cells.nth(2).innerText(), `receipt ${i + 1}: item`).toBe(want.item);
      expect(await cells.nth(3).innerText(), `receipt ${i + 1}: method`).toBe(want.method);
      expect(await cells.nth(4).innerText(), `receipt ${i + 1}: amount`).toBe(money(want.amount));
      expectShownBetween(await cells.nth(1).innerText(), journeyFrom, Date.now(), `receipt ${i + 1}: date`);
      numbers.add((await cells.nth(0).innerText()).trim());
    }
    expect(numbers.size, "three receipts, three numbers").toBe(3);
    await page.getByRole("heading", { level: 2, name: t["balance.receipts.title"], exact: true }).scrollIntoViewIfNeeded();
    await shot(page, "12-receipts");

    // 7. The header's inbox (docs/product/accounts.md#notifications): the bell counts the unread
    // ones, two more than before the journey (the payment, the gift sent); the panel lists them;
    // one is marked read, then all, and the count goes to zero.
    await page.goto(`${profile}/subscription`);
    await expect.poll(() => unread(page)).toBe(unreadBefore + 2);
    const count = await unread(page);
    expect(await bell(page).getAttribute("aria-label")).toBe(tr("inbox.label", { count }));
    expect(await bell(page).locator(".inbox-count").innerText()).toBe(String(count));
    await bell(page).click();
    const panel = page.locator("details.inbox[open] .inbox-panel");
    await expect.poll(() => panel.isVisible()).toBe(true);
    const item = (title: string) =>
      panel
        .locator("li")
        .filter({ has: page.locator(".inbox-title", { hasText: exactly(title) }) })
        .first();
    const paid = item(t["notification.payment_completed.title"]!);
    const gave = item(t["notification.gift_sent.title"]!);
    expect(await paid.locator("p").nth(1).innerText()).toBe(t["notification.payment_completed.content"]);
    expect(await gave.locator("p").nth(1).innerText()).toBe(tr("notification.gift_sent.content", { days: 7, game: GAME.name, to: recipientEmail }));
    for (const n of [paid, gave]) {
      expect(await n.getAttribute("class")).toBe("unread");
      expectShownBetween(await n.locator("time").innerText(), journeyFrom, Date.now(), "a notification's date");
    }
    await shot(page, "13-inbox");
    await gave.getByRole("button", { name: tr("inbox.markOneLabel", { title: t["notification.gift_sent.title"]! }), exact: true }).click();
    // The form comes back to the page it was on.
    await page.waitForURL(url(`${profile}/subscription`));
    await expect.poll(() => unread(page)).toBe(count - 1);
    await bell(page).click();
    await expect.poll(() => panel.isVisible()).toBe(true);
    expect(await gave.getAttribute("class")).toBeNull();
    expect(await gave.getByRole("button").count()).toBe(0);
    expect(await paid.getAttribute("class")).toBe("unread");
    await panel.getByRole("button", { name: t["inbox.markAll"], exact: true }).click();
    await page.waitForURL(url(`${profile}/subscription`));
    await expect.poll(() => unread(page)).toBe(0);
    expect(await bell(page).getAttribute("aria-label")).toBe(tr("inbox.label", { count: 0 }));
    expect(await bell(page).locator(".inbox-count").count()).toBe(0);
    await bell(page).click();
    await expect.poll(() => panel.isVisible()).toBe(true);
    expect(await panel.locator("li.unread").count()).toBe(0);
    expect(await panel.getByRole("button", { name: t["inbox.markAll"], exact: true }).count()).toBe(0);
    await shot(page, "14-inbox-read");
    // The whole journey, fourteen steps with two browsers: longer than the project's 90 s on a busy machine.
  }, 240_000);
});
