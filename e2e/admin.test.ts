// The back office in Chromium, in Russian and English (docs/product/back-office.md#pages): a buyer
// tops up with the demo provider; an operator (an address of the e2e server's OWNER_EMAILS) is
// refused at /admin until two-factor codes are on, turns them on, signs in again with a code, finds
// the buyer, grants 3 days of Dota 2, refunds the top-up (the step-up opened by a recovery code,
// since the authenticator's codes of this minute are spent), and reads both in the audit log; then
// adds a game and a plan for it at /admin/catalogue, sees both on the game's page and the home
// page, and hides the game again (the shared server's other journeys count the demo's games).
// Screenshots at 1440 px and 390 px: test-results/screenshots/admin-{locale}-*.png.
//
// The refund goes through the e2e server's payment provider, the demo one: the loopback PayPal's
// refunds are exercised by the API tests (tests/integration), on both databases.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import type { Page } from "playwright-core";
import { totpAt } from "../core/accounts/totp.ts";
import { compileCatalog } from "../i18n/catalogs.ts";
import { formatDate, formatMoney } from "../i18n/format.ts";
import { createTranslate } from "../i18n/translate.ts";
import { DEMO } from "../db/seed.ts";
import { expectAccessible, expectNoOverflow } from "./fixtures/axe.ts";
import { MOBILE, screenshot, useBrowser } from "./fixtures/browser.ts";
import { ownerEmail } from "./fixtures/operators.ts";
import { tickRecaptcha } from "./fixtures/recaptcha.ts";

const session = useBrowser();
const root = path.resolve(import.meta.dirname, "..");
const catalog = (locale: string) => JSON.parse(readFileSync(path.join(root, "i18n/messages", `${locale}.json`), "utf8")) as Record<string, string>;

const PASSWORD = "violet tangerine orbit 42";
const GAME = DEMO.games.dota2;
const LAPTOP = { width: 1440, height: 900 };
const DAY = 86_400_000;
const MINUTE = 60_000;
/** 4xx answers the journey provokes on purpose (the entry's refusal of an operator without 2FA). */
const EXPECTED_ERRORS = [/status of 4\d\d/];

/** The shop's currency: the e2e server leaves SHOP_CURRENCY at its default. */
const CURRENCY = "USD";

/** Money as text with its no-break spaces folded (Intl's ru format has them). */
const spaces = (text: string) => text.replace(/\s+/g, " ").trim();
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe.each([
  { locale: "ru" as const, prefix: "" },
  { locale: "en" as const, prefix: "/en" },
])("back office ($locale)", ({ locale, prefix }) => {
  const t = catalog(locale);
  const tr = createTranslate(compileCatalog(locale), locale);
  /** Each step at 1440 and 390 px: accessible (axe), and nothing wider than the phone's screen. */
  const shot = async (page: Page, step: string) => {
    await expectAccessible(page);
    await screenshot(page, `admin-${locale}-${step}-1440`);
    await page.setViewportSize(MOBILE);
    await expectNoOverflow(page);
    await screenshot(page, `admin-${locale}-${step}-390`);
    await page.setViewportSize(LAPTOP);
  };
  /** The form that holds the button named `submit`. */
  const formOf = (page: Page, submit: string) => page.locator("form", { has: page.getByRole("button", { name: submit, exact: true }) });

  async function register(page: Page, email: string) {
    await page.goto(`${prefix}/auth/register`);
    await page.getByLabel(t["auth.field.email"]!).fill(email);
    await page.getByLabel(t["auth.field.password"]!).fill(PASSWORD);
    await tickRecaptcha(page);
    await page.getByRole("button", { name: t["auth.register.submit"] }).click();
    await page.waitForURL(`**${prefix}/${GAME.slug}/profile`);
  }

  /** Twelve steps with axe and two screen sizes at each: a busy two-core machine needs more than the project's 90 s. */
  const JOURNEY = 240_000;

  test(
    "an operator signs in with 2FA, finds a customer, grants 3 days, refunds a payment and reads the audit",
    async () => {
      // 1. A buyer with a payment: a top-up of 12 through the demo provider.
      const buyer = await session.newPage({ allowConsoleErrors: EXPECTED_ERRORS });
      const buyerEmail = `admin-buyer-${locale}-${Date.now()}@example.com`;
      await register(buyer, buyerEmail);
      await buyer.goto(`${prefix}/${GAME.slug}/profile/balance`);
      await buyer.getByLabel(new RegExp(`^${escape(t["balance.topup.amount"]!.split("{")[0]!)}`)).fill("12");
      await buyer.getByRole("button", { name: t["balance.topup.submit"], exact: true }).click();
      await buyer.waitForURL(/\/payment\/demo\?order=DEMO-/);
      await buyer.getByRole("button", { name: new RegExp(`^${escape(t["demo.pay"]!.split("{")[0]!)}`) }).click();
      await buyer.waitForURL(/\/payment\/paypal\?token=DEMO-/);
      await expect.poll(() => buyer.getByRole("heading", { level: 1 }).innerText()).toBe(t["return.success.title"]);

      // 2. The operator: an owner by OWNER_EMAILS, refused at the entry until two-factor codes are on.
      const page = await session.newPage({ viewport: LAPTOP, timezoneId: "UTC", allowConsoleErrors: EXPECTED_ERRORS });
      const operator = ownerEmail(locale);
      await register(page, operator);
      const refused = await page.goto(`${prefix}/admin`);
      expect(refused?.status()).toBe(403);
      await expect.poll(() => page.getByRole("alert").first().innerText()).toBe(t["errors.admin_two_fa_required"]);
      await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(t["admin.entry.title"]);
      await shot(page, "01-entry-refused");
      await page.getByRole("link", { name: t["admin.entry.twoFaLink"], exact: true }).click();
      await page.waitForURL(`**${prefix}/${GAME.slug}/profile/settings#two-fa`);
      await page.getByRole("button", { name: t["settings.twoFa.enable"], exact: true }).click();
      const secret = (await page.locator("code.secret").innerText()).trim();
      await page.getByLabel(t["auth.twoFa.code"]!).fill(totpAt(secret, new Date()));
      await page.getByRole("button", { name: t["settings.twoFa.confirm"], exact: true }).click();
      const codes = page.getByRole("list", { name: t["settings.twoFa.recoveryTitle"] }).getByRole("listitem");
      await expect.poll(() => codes.count()).toBeGreaterThan(1);
      const recovery = (await codes.allInnerTexts()).map((code) => code.trim());

      // Sign out and in again, the second factor a code of the next step (this one is spent).
      await page.getByRole("button", { name: t["settings.sessions.signOut"], exact: true }).click();
      await page.waitForURL(`**${prefix}/auth`);
      await page.getByLabel(t["auth.field.login"]!).fill(operator);
      await page.getByLabel(t["auth.field.password"]!, { exact: true }).fill(PASSWORD);
      await tickRecaptcha(page);
      await page.getByRole("button", { name: t["auth.login.submit"], exact: true }).click();
      await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(t["auth.twoFa.title"]);
      await page.getByLabel(t["auth.twoFa.code"]!).fill(totpAt(secret, new Date(Date.now() + 30_000)));
      await page.getByRole("button", { name: t["auth.twoFa.submit"] }).click();
      await page.waitForURL(`**${prefix}/${GAME.slug}/profile`);

      const entered = await page.goto(`${prefix}/admin`);
      expect(entered?.status()).toBe(200);
      await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(t["adminDashboard.title"]);
      await expect.poll(() => page.locator(".admin-who").innerText()).toContain(t["admin.role.owner"]);
      await expect.poll(() => page.locator(".admin-who").innerText()).toContain(t["admin.stepUp.badgeClosed"]);
      await shot(page, "02-welcome");

      // 3. Find the customer by the beginning of their address.
      await page.getByRole("navigation", { name: t["admin.nav.label"] }).getByRole("link", { name: t["admin.nav.customers"] }).click();
      await page.waitForURL(`**${prefix}/admin/customers`);
      await page.getByLabel(t["admin.customers.q"]!).fill(buyerEmail.slice(0, buyerEmail.indexOf("@")));
      await page.getByRole("button", { name: t["admin.customers.search"], exact: true }).click();
      await expect.poll(() => page.getByRole("status").innerText()).toBe(tr("admin.customers.found", { count: 1 }));
      await shot(page, "03-search");
      await page.getByRole("link", { name: buyerEmail, exact: true }).click();
      await page.waitForURL(/\/admin\/customers\/\d+$/);
      await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toContain(buyerEmail);
      const passes = page.getByRole("region", { name: t["admin.customer.passes"] });
      await expect.poll(() => passes.innerText()).toContain(t["admin.table.empty"]);

      // 4. Grant 3 days of Dota 2, with a reason: an active pass that ends 3 days from now.
      const grant = formOf(page, t["admin.grant.submit"]!);
      await grant.getByLabel(t["admin.col.game"]!).selectOption({ label: GAME.name });
      await grant.getByLabel(t["admin.grant.days"]!).fill("3");
      await grant.getByLabel(t["admin.field.reason"]!).fill("e2e: outage compensation");
      const before = Date.now();
      await grant.getByRole("button", { name: t["admin.grant.submit"], exact: true }).click();
      await expect.poll(() => page.getByRole("status").first().innerText()).toBe(t["admin.done.grant"]);
      const after = Date.now();
      const pass = passes.getByRole("row", { name: new RegExp(escape(GAME.name)) });
      await expect.poll(() => pass.locator("td").nth(1).innerText()).toBe(t["sub.state.active"]);
      const shown = await pass.locator("td").nth(2).innerText();
      const minutes = [before, after].map((ms) => formatDate(new Date(Math.floor((ms + 3 * DAY) / MINUTE) * MINUTE), { timeZone: "UTC", locale }));
      expect(minutes).toContain(shown.trim());
      await shot(page, "04-customer-granted");

      // 5. Refund the top-up in full: the step-up asks for a code (a recovery code opens it).
      const payments = page.getByRole("region", { name: t["admin.payments.title"] });
      await payments
        .getByRole("link", { name: /^#\d+$/ })
        .first()
        .click();
      await page.waitForURL(/\/admin\/payments\/\d+$/);
      const paymentId = /(\d+)$/.exec(page.url())![1]!;
      await expect.poll(() => page.locator(".admin-facts").innerText()).toContain(t["admin.payment.status.completed"]);
      const refund = formOf(page, t["admin.refund.submit"]!);
      await refund.getByLabel(t["admin.field.reason"]!).fill("e2e: refund on request");
      // Without a code the refund is refused, and nothing moves.
      await refund.getByRole("button", { name: t["admin.refund.submit"], exact: true }).click();
      await expect.poll(() => page.getByRole("alert").first().innerText()).toBe(t["errors.step_up_required"]);
      await refund.getByLabel(t["admin.field.reason"]!).fill("e2e: refund on request");
      await refund.getByLabel(t["admin.stepUp.code"]!).fill(recovery[0]!);
      await shot(page, "05-refund-form");
      await refund.getByRole("button", { name: t["admin.refund.submit"], exact: true }).click();
      await expect.poll(() => page.getByRole("status").first().innerText()).toBe(t["admin.done.refund"]);
      await expect.poll(() => page.locator(".admin-facts").innerText()).toContain(t["admin.payment.status.refunded"]);
      await expect.poll(() => page.locator(".admin-who").innerText()).not.toContain(t["admin.stepUp.badgeClosed"]);
      expect(await formOf(page, t["admin.refund.submit"]!).count()).toBe(0);
      await shot(page, "06-refunded");

      // The customer's ledger has the refund, and the balance is back where it started.
      await page.getByRole("link", { name: buyerEmail, exact: true }).click();
      const ledger = page.getByRole("region", { name: t["admin.customer.ledger"] });
      await expect.poll(() => ledger.locator("tbody tr").first().locator("td").nth(1).innerText()).toContain(t["tx.type.refund"]);
      const [balanceAfterRefund, topupAmount] = await Promise.all([
        ledger.locator("tbody tr").first().locator("td").nth(3).innerText(),
        ledger.locator("tbody tr").nth(1).locator("td").nth(2).innerText(),
      ]);
      expect(balanceAfterRefund.replace(/[1-9]/g, "0")).toBe(balanceAfterRefund);
      expect(topupAmount).toMatch(/12/);

      // 6. The audit log: the grant and the refund, with their reasons.
      await page.getByRole("navigation", { name: t["admin.nav.label"] }).getByRole("link", { name: t["admin.nav.audit"] }).click();
      await page.waitForURL(`**${prefix}/admin/audit`);
      const log = page.getByRole("table");
      await expect.poll(() => log.innerText()).toContain("user.grant");
      expect(
        await log
          .getByRole("row", { name: /user\.grant/ })
          .first()
          .innerText(),
      ).toContain("e2e: outage compensation");
      expect(
        await log
          .getByRole("row", { name: /refund\.request/ })
          .first()
          .innerText(),
      ).toContain("e2e: refund on request");
      // Filtered: this payment's refund request, the one entry (the other language's journey made its own).
      await page.getByLabel(t["admin.col.target"]!).fill(`payment:${paymentId}`);
      await page.getByLabel(t["admin.col.action"]!).fill("refund.request");
      await page.getByRole("button", { name: t["admin.filter.apply"], exact: true }).click();
      await page.waitForURL(/\/admin\/audit\?.*action=refund\.request/);
      await expect.poll(() => log.locator("tbody tr").count()).toBe(1);
      await shot(page, "07-audit");

      // The payments list, filtered to refunded demo payments, and the compensation form (not sent:
      // it would extend every Dota 2 pass of the shared server, the other journeys' too).
      await page.getByRole("navigation", { name: t["admin.nav.label"] }).getByRole("link", { name: t["admin.nav.payments"] }).click();
      await page.getByLabel(t["admin.col.state"]!).selectOption("refunded");
      await page.getByLabel(t["admin.col.provider"]!).selectOption("demo");
      await page.getByRole("button", { name: t["admin.filter.apply"], exact: true }).click();
      await page.waitForURL(/\/admin\/payments\?status=refunded&provider=demo/);
      await expect.poll(() => page.getByRole("table").innerText()).toContain(buyerEmail);
      expect(await page.getByRole("link", { name: t["admin.payments.csv"] }).getAttribute("href")).toBe("/v2/admin/payments?status=refunded&provider=demo&format=csv");
      await shot(page, "08-payments");
      await page.getByRole("navigation", { name: t["admin.nav.label"] }).getByRole("link", { name: t["admin.nav.compensation"] }).click();
      await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(t["admin.compensation.title"]);
      await shot(page, "09-compensation");

      // 10. The catalogue: a new game (texts in the page's language) and a plan for it in the global
      // area, each form with a reason; then the game's page and the home page show them.
      await page.getByRole("navigation", { name: t["admin.nav.label"] }).getByRole("link", { name: t["admin.nav.catalogue"] }).click();
      await page.waitForURL(`**${prefix}/admin/catalogue`);
      await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(t["adminCatalogue.title"]);
      const slug = `e2e-${locale}-${Date.now().toString(36)}`;
      const name = `${locale === "ru" ? "Тестовая игра" : "Test game"} ${slug}`;
      const newGame = page.locator("form", { has: page.getByLabel(t["adminCatalogue.slug"]!, { exact: true }) });
      await newGame.getByLabel(t["adminCatalogue.slug"]!, { exact: true }).fill(slug);
      await newGame.getByLabel(t["adminCatalogue.name"]!, { exact: true }).fill(name);
      expect(await newGame.getByLabel(t["adminCatalogue.language"]!).inputValue()).toBe(locale);
      await newGame.getByLabel(t["adminCatalogue.tagline"]!, { exact: true }).fill(locale === "ru" ? "Игра, добавленная сквозным тестом" : "A game added by the end-to-end test");
      await newGame.getByLabel(t["adminCatalogue.description"]!, { exact: true }).fill(locale === "ru" ? "Описание тестовой игры." : "The test game's description.");
      expect(await newGame.getByLabel(t["adminCatalogue.visible"]!, { exact: true }).isChecked()).toBe(true);
      await newGame.getByLabel(t["adminCatalogue.reason"]!, { exact: true }).fill("e2e: a new game");
      await newGame.getByRole("button", { name: t["adminCatalogue.add"], exact: true }).click();
      await expect.poll(() => page.getByRole("status").first().innerText()).toBe(t["adminCatalogue.saved"]);
      const gameRow = page.getByRole("row").filter({ hasText: `/${slug}` });
      await expect.poll(() => gameRow.innerText()).toContain(name);
      expect(await gameRow.locator("td").nth(1).innerText()).toBe(locale);

      // A plan of 45 days at 4.56 in the global area: on sale from the start.
      const PRICE = 456;
      const newPlan = page.locator("form", { has: page.getByLabel(t["adminCatalogue.days"]!, { exact: true }) });
      await newPlan.getByLabel(t["adminCatalogue.game"]!).selectOption({ label: name });
      await newPlan.getByLabel(t["adminCatalogue.area"]!).selectOption("global");
      await newPlan.getByLabel(t["adminCatalogue.days"]!, { exact: true }).fill("45");
      await newPlan.getByLabel(tr("adminCatalogue.priceIn", { currency: CURRENCY }), { exact: true }).fill("4.56");
      await newPlan.getByLabel(t["adminCatalogue.reason"]!, { exact: true }).fill("e2e: a plan for the new game");
      await newPlan.getByRole("button", { name: t["adminCatalogue.add"], exact: true }).click();
      await expect.poll(() => page.getByRole("status").first().innerText()).toBe(t["adminCatalogue.saved"]);
      const price = formatMoney(PRICE, CURRENCY, locale);
      const planRow = page
        .getByRole("row")
        .filter({ hasText: name })
        .filter({ has: page.getByRole("cell", { name: "global", exact: true }) });
      await expect.poll(() => planRow.locator("td").nth(2).innerText()).toBe("45");
      expect(spaces(await planRow.locator("td").nth(3).innerText())).toBe(spaces(price));
      await shot(page, "10-catalogue");

      // The game's page: its name and the plan's price (a change is on every page within 2 s).
      await expect.poll(async () => (await page.goto(`${prefix}/${slug}`))?.status()).toBe(200);
      await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(tr("game.title", { game: name }));
      const plans = page.getByRole("region", { name: t["game.products.title"], exact: true });
      await expect.poll(async () => (await plans.locator(".plan-price").allInnerTexts()).map(spaces)).toEqual([spaces(price)]);
      await shot(page, "11-game");
      // The home page lists it, from its one price.
      await page.goto(`${prefix}/`);
      const card = page
        .getByRole("region", { name: t["home.games.title"], exact: true })
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading", { level: 3, name, exact: true }) });
      await expect.poll(() => card.count()).toBe(1);
      expect(spaces(await card.locator(".price-from").innerText())).toBe(spaces(tr("home.games.from", { price })));
      expect(await card.getByRole("link", { name: tr("home.games.openLabel", { game: name }), exact: true }).getAttribute("href")).toBe(`${prefix}/${slug}`);

      // Hidden again, so that the shared server's other journeys see the demo's games only.
      await page.goto(`${prefix}/admin/catalogue`);
      const hideForm = gameRow.locator("form");
      await hideForm.getByLabel(t["adminCatalogue.visible"]!, { exact: true }).uncheck();
      await hideForm.getByLabel(t["adminCatalogue.reason"]!, { exact: true }).fill("e2e: hidden after the journey");
      await hideForm.getByRole("button", { name: t["adminCatalogue.save"], exact: true }).click();
      await expect.poll(() => page.getByRole("status").first().innerText()).toBe(t["adminCatalogue.saved"]);
      await expect.poll(async () => (await page.goto(`${prefix}/${slug}`))?.status()).toBe(404);
    },
    JOURNEY,
  );
});
