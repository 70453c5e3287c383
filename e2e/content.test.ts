// What sells the product and earns trust, in Chromium (issue 9 points 6 and 7): a game's page in
// Russian and English at 1440 and 390 px — status, plans with their savings, illustrations, FAQ —
// the site pages, and a guest's way from "Buy" through registration to a checkout that says what
// the payment will do. Each page is checked with axe (no serious or critical violation) and for
// horizontal overflow, and photographed.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import type { Page } from "playwright-core";
import { compileCatalog } from "../i18n/catalogs.ts";
import { createTranslate } from "../i18n/translate.ts";
import { formatMoney } from "../i18n/format.ts";
import { DEMO } from "../db/seed.ts";
import { screenshot, useBrowser } from "./fixtures/browser.ts";
import { tickRecaptcha } from "./fixtures/recaptcha.ts";
import { expectAccessible, expectNoOverflow } from "./fixtures/axe.ts";

const session = useBrowser();
const root = path.resolve(import.meta.dirname, "..");
const raw = (locale: string) => JSON.parse(readFileSync(path.join(root, "i18n/messages", `${locale}.json`), "utf8")) as Record<string, string>;
const SIZES = [
  { name: "1440", viewport: { width: 1440, height: 900 } },
  { name: "390", viewport: { width: 390, height: 844 } },
] as const;
const DAY = 86_400_000;

async function check(page: Page, name: string) {
  await expectNoOverflow(page);
  await expectAccessible(page);
  await screenshot(page, name);
}

describe.each([
  { locale: "ru" as const, prefix: "", game: DEMO.games.cs2 },
  { locale: "en" as const, prefix: "/en", game: DEMO.games.dota2 },
])("the game page in $locale", ({ locale, prefix, game }) => {
  const t = createTranslate(compileCatalog(locale), locale);
  const m = raw(locale);

  test.each(SIZES)("at $name px: status, plans with savings, illustrations and answers", async ({ name, viewport }) => {
    const page = await session.newPage({ viewport });
    const res = await page.goto(`${prefix}/${game.slug}`);
    expect(res?.status()).toBe(200);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(t("game.title", { game: game.name }));
    const status = game.slug === "cs2" ? m["game.status.updating"]! : m["game.status.working"]!;
    expect(await page.locator(".game-status .status-badge").innerText()).toBe(status);

    const plans = page.locator("#plans li.plan");
    expect(await plans.count()).toBe(4);
    expect(await page.locator("#plans li.plan-best").count()).toBe(1);
    // Each plan but the 1-day one says what it saves a day.
    const savings = await page.locator("#plans .plan-saving:not(.plan-saving-none)").allInnerTexts();
    expect(savings).toHaveLength(3);
    const prefixOf = t("game.product.saving", { amount: "#", percent: 1 }).split("#")[0]!;
    for (const s of savings) expect(s.startsWith(prefixOf), s).toBe(true);
    // A guest buys; the link names the plan.
    await expect
      .poll(() =>
        plans
          .first()
          .getByRole("link", { name: t("game.product.buyLabel", { days: t("plural.days", { count: 1 }) }) })
          .isVisible(),
      )
      .toBe(true);

    // The illustrations are loaded images of ours.
    const images = page.locator(".game-page img");
    expect(await images.count()).toBe(3);
    for (const img of await images.all()) {
      await img.scrollIntoViewIfNeeded();
      await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
      expect(await img.getAttribute("src")).toMatch(/^\/media\/games\//);
    }
    // An answer opens under its question.
    const faq = page.locator("details.faq").first();
    await faq.locator("summary").click();
    expect(await faq.evaluate((d: HTMLDetailsElement) => d.open)).toBe(true);
    expect(await faq.locator("p").isVisible()).toBe(true);
    await check(page, `content-game-${locale}-${game.slug}-${name}`);
  });
});

describe("the site pages", () => {
  test.each(SIZES)("terms, privacy, refunds and support at $name px", async ({ name, viewport }) => {
    const page = await session.newPage({ viewport });
    for (const [locale, prefix] of [
      ["en", "/en"],
      ["ru", ""],
    ] as const) {
      const m = raw(locale);
      for (const slug of ["terms", "privacy", "refunds", "support"] as const) {
        const res = await page.goto(`${prefix}/${slug}`);
        expect(res?.status()).toBe(200);
        // The page's own link at the top is marked current; the footer links it too.
        await expect.poll(() => page.locator(`.legal-nav a[aria-current="page"]`).innerText()).toBe(m[`legal.nav.${slug}`]);
        expect(await page.locator(`footer a[href="${prefix}/${slug}"]`).count()).toBe(1);
        await check(page, `content-${slug}-${locale}-${name}`);
      }
    }
  });
});

describe("from Buy to the checkout", () => {
  test.each(SIZES)("a guest sees the order while signing up, then what the payment will do, at $name px", async ({ name, viewport }) => {
    const t = createTranslate(compileCatalog("en"), "en");
    const product = DEMO.products.minecraft.days30;
    const page = await session.newPage({ viewport, allowConsoleErrors: [/status of 4\d\d/] });
    await page.goto("/en/minecraft");
    await page.getByRole("link", { name: t("game.product.buyLabel", { days: t("plural.days", { count: 30 }) }), exact: true }).click();
    const checkout = `/en/minecraft/profile/payment?product=${product.id}`;
    await page.waitForURL((u) => u.pathname === "/en/auth" && u.searchParams.get("redirectTo") === checkout);

    const summary = page.getByRole("complementary", { name: t("auth.order.title") });
    await expect.poll(() => summary.isVisible()).toBe(true);
    const item = t("product.name", { game: DEMO.games.minecraft.name, days: t("plural.days", { count: 30 }) });
    expect(await summary.innerText()).toContain(item);
    expect(await summary.innerText()).toContain(formatMoney(product.price, "USD", "en"));
    await check(page, `content-signin-order-en-${name}`);

    // Registration keeps the order, and leads to the checkout.
    await page.getByRole("link", { name: t("auth.login.register"), exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/en/auth/register" && u.searchParams.get("redirectTo") === checkout);
    await expect.poll(() => summary.isVisible()).toBe(true);
    await check(page, `content-register-order-en-${name}`);
    await page.getByLabel(t("auth.field.email")).fill(`order-${name}-${Date.now()}@example.com`);
    await page.getByLabel(t("auth.field.password")).fill("violet tangerine orbit 42");
    await tickRecaptcha(page);
    const from = Date.now();
    await page.getByRole("button", { name: t("auth.register.submit") }).click();
    await page.waitForURL((u) => u.pathname + u.search === checkout);
    const to = Date.now();

    // The new pass would end 30 days from now; the empty balance cannot pay, and says so.
    const newEnd = await page.getByTestId("new-end").locator("time").getAttribute("datetime");
    expect(new Date(newEnd!).getTime()).toBeGreaterThanOrEqual(from + 30 * DAY - 1000);
    expect(new Date(newEnd!).getTime()).toBeLessThanOrEqual(to + 30 * DAY);
    const fromBalance = page.getByRole("button", { name: t("payment.fromBalance", { price: formatMoney(product.price, "USD", "en") }) });
    expect(await fromBalance.isDisabled()).toBe(true);
    expect(await page.locator("#balance-short").innerText()).toContain(t("payment.topUp"));
    expect(await page.getByRole("button", { name: t("payment.paypal") }).isEnabled()).toBe(true);
    for (const slug of ["terms", "refunds", "support"]) expect(await page.locator(`.checkout-card a[href="/en/${slug}"]`).count()).toBe(1);
    await check(page, `content-checkout-en-${name}`);
  });
});
