// Delivery in Chromium (issue 11), in Russian and English: a new buyer tops up with the demo provider and buys a day
// of Minecraft → the subscription page shows the licence key (with its copy button) and the latest build with its
// checksum → the download button fetches the file through a fresh signed link (its bytes match the SHA-256 shown) →
// the same link, once expired, is refused (403). The e2e server signs links for 5 s (DOWNLOAD_LINK_SECONDS,
// e2e/fixtures/global-setup.ts) instead of 10 minutes; the development data gives every game a stand-in build.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import type { Page } from "playwright-core";
import { compileCatalog } from "../i18n/catalogs.ts";
import { createTranslate } from "../i18n/translate.ts";
import { DEMO } from "../db/seed.ts";
import { screenshot, useBrowser } from "./fixtures/browser.ts";
import { tickRecaptcha } from "./fixtures/recaptcha.ts";

const session = useBrowser();
const root = path.resolve(import.meta.dirname, "..");
const GAME = DEMO.games.minecraft;
const PASSWORD = "amber lantern river 42";
const LINK_SECONDS = 5;

describe.each([
  { locale: "ru" as const, prefix: "" },
  { locale: "en" as const, prefix: "/en" },
])("delivery journey ($locale)", ({ locale, prefix }) => {
  const t = JSON.parse(readFileSync(path.join(root, "i18n/messages", `${locale}.json`), "utf8")) as Record<string, string>;
  const tr = createTranslate(compileCatalog(locale), locale);
  const profile = `${prefix}/${GAME.slug}/profile`;
  const shot = (page: Page, step: string) => screenshot(page, `delivery-${locale}-${step}`);

  test("buy → the key and the download → the file by its signed link → the link refused once expired", async () => {
    const page = await session.newPage({ allowConsoleErrors: [/status of 4\d\d/], acceptDownloads: true });

    // A new buyer.
    await page.goto(`${prefix}/auth/register`);
    await page.getByLabel(t["auth.field.email"]!).fill(`delivery-${locale}-${Date.now()}@example.com`);
    await page.getByLabel(t["auth.field.password"]!).fill(PASSWORD);
    await tickRecaptcha(page);
    await page.getByRole("button", { name: t["auth.register.submit"] }).click();
    await page.waitForURL(/\/profile$/);

    // Money on the balance through the demo provider.
    await page.goto(`${profile}/balance`);
    const currency = (await page.locator(".amount-currency").innerText()).trim();
    await page.getByLabel(tr("balance.topup.amount", { currency })).fill("10");
    await page.getByRole("button", { name: t["balance.topup.submit"], exact: true }).click();
    await page.waitForURL(/\/payment\/demo\?order=/);
    await page.locator('button[name="intent"][value="pay"]').click();
    await page.waitForURL(/\/payment\/paypal\?token=/);

    // Before buying: no key, and the download waits for a pass.
    await page.goto(`${profile}/subscription`);
    await expect.poll(() => page.getByText(t["download.needPass"]!, { exact: true }).isVisible()).toBe(true);
    expect(await page.locator("#licence-key").count()).toBe(0);

    // One day of Minecraft from the balance.
    const plan = page.locator("li.plan").filter({ has: page.getByRole("heading", { level: 3, name: tr("plural.days", { count: 1 }), exact: true }) });
    await plan.getByRole("link", { name: tr("game.product.buyLabel", { days: tr("plural.days", { count: 1 }) }), exact: true }).click();
    await page.waitForURL(/\/profile\/payment\?product=\d+/);
    await page.locator('button[name="intent"][value="balance"]').click();
    await page.waitForURL(new RegExp(`${profile.replace(/\//g, "\\/")}/subscription\\?notice=purchased$`));

    // The key, with its copy button, and the latest build with its checksum and setup steps.
    const key = page.locator("#licence-key");
    await expect.poll(() => key.count()).toBe(1);
    const keyText = (await key.inputValue()).trim();
    expect(keyText.length).toBeGreaterThanOrEqual(16);
    expect(await page.getByRole("button", { name: t["licence.copy"], exact: true }).count()).toBeGreaterThan(0);
    const checksum = (await page.locator(".checksum code").innerText()).trim();
    expect(checksum).toMatch(/^[0-9a-f]{64}$/);
    await expect.poll(() => page.getByText(t["download.steps.1"]!, { exact: true }).isVisible()).toBe(true);
    await shot(page, "01-key-and-download");

    // The download: a fresh signed link, then the file.
    const button = page.locator(".download-card a.btn");
    const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
    const signed = download.url();
    expect(signed).toMatch(/\/v2\/download\/\d+\?u=\d+&e=\d+&s=[A-Za-z0-9_-]+$/);
    const file = await download.path();
    expect(file).toBeTruthy();
    expect(createHash("sha256").update(readFileSync(file!)).digest("hex")).toBe(checksum);
    const expires = Number(new URL(signed).searchParams.get("e")) * 1000;
    expect(expires - Date.now()).toBeLessThanOrEqual(LINK_SECONDS * 1000);

    // The same link after it expired: refused.
    await expect.poll(async () => (await page.request.get(signed, { maxRedirects: 0 })).status(), { timeout: 30_000, interval: 1000 }).toBe(403);
    const refused = await page.request.get(signed);
    expect((await refused.json()).code).toBe("download_link_invalid");
    await page.goto(`${profile}/subscription`);
    await shot(page, "02-after-download");
  });
});
