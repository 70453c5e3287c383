// The page forms' refusals in Chromium, in Russian and English, on a desktop and a phone
// (docs/decisions/0009-forms-on-the-server.md): the browser posts a form it was told not to check
// (novalidate), so no native bubble stops it; the server's messages show inline, in the page's
// language; a refused field is aria-invalid and aria-describedby names the element that says why.
// Screenshots of sign-in, registration, reset and settings with their messages.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import type { Locator, Page } from "playwright-core";
import { DEMO } from "../db/seed.ts";
import { MOBILE, screenshot, useBrowser } from "./fixtures/browser.ts";
import { tickRecaptcha } from "./fixtures/recaptcha.ts";

const session = useBrowser();
const root = path.resolve(import.meta.dirname, "..");
const catalog = (locale: string) => JSON.parse(readFileSync(path.join(root, "i18n/messages", `${locale}.json`), "utf8")) as Record<string, string>;
const WIDE = { width: 1440, height: 900 };

/** The message a refused field names in aria-describedby (the first id: Conform puts the error first). */
async function describedError(page: Page, field: Locator): Promise<string> {
  expect(await field.getAttribute("aria-invalid")).toBe("true");
  const [errorId] = (await field.getAttribute("aria-describedby"))!.split(" ");
  const message = page.locator(`[id="${errorId}"]`);
  expect(await message.isVisible()).toBe(true);
  return (await message.innerText()).trim();
}

describe.each([
  { locale: "ru", prefix: "" },
  { locale: "en", prefix: "/en" },
])("form messages ($locale)", ({ locale, prefix }) => {
  const t = catalog(locale);

  describe.each([
    { device: "desktop", viewport: WIDE },
    { device: "phone", viewport: MOBILE },
  ])("on a $device", ({ device, viewport }) => {
    const shot = (page: Page, name: string) => screenshot(page, `forms-${locale}-${name}-${device}`);

    test("sign-in, registration and reset answer a refused field next to it", async () => {
      const page = await session.newPage({ viewport, allowConsoleErrors: [/status of 4\d\d/] });

      // Sign-in with nothing typed: the browser does not stop it, the server names both fields.
      await page.goto(`${prefix}/auth`);
      expect(await page.locator("form:has(input[name=login])").getAttribute("novalidate")).not.toBeNull();
      expect(await page.getByLabel(t["auth.field.login"]!).getAttribute("required")).not.toBeNull();
      await page.getByRole("button", { name: t["auth.login.submit"], exact: true }).click();
      await expect.poll(() => page.getByLabel(t["auth.field.login"]!).getAttribute("aria-invalid")).toBe("true");
      expect(await describedError(page, page.getByLabel(t["auth.field.login"]!))).toBe(t["validation.required"]);
      expect(await describedError(page, page.getByLabel(t["auth.field.password"]!, { exact: true }))).toBe(t["validation.required"]);
      await shot(page, "sign-in");

      // Registration: an address that is none, a password too short; the address stays typed.
      await page.goto(`${prefix}/auth/register`);
      await page.getByLabel(t["auth.field.email"]!, { exact: true }).fill("not an address");
      await page.getByLabel(t["auth.field.password"]!).fill("short");
      await page.getByRole("button", { name: t["auth.register.submit"] }).click();
      await expect.poll(() => page.getByLabel(t["auth.field.email"]!, { exact: true }).getAttribute("aria-invalid")).toBe("true");
      expect(await describedError(page, page.getByLabel(t["auth.field.email"]!, { exact: true }))).toBe(t["validation.email"]);
      expect(await describedError(page, page.getByLabel(t["auth.field.password"]!))).toBe(t["validation.password_short"]);
      expect(await page.getByLabel(t["auth.field.email"]!, { exact: true }).inputValue()).toBe("not an address");
      await shot(page, "register");

      // Reset: the request with an address that is none.
      await page.goto(`${prefix}/auth/restore-password`);
      await page.getByLabel(t["auth.field.email"]!, { exact: true }).fill("nobody@");
      await tickRecaptcha(page);
      await page.getByRole("button", { name: t["auth.reset.requestSubmit"] }).click();
      await expect.poll(() => page.getByLabel(t["auth.field.email"]!, { exact: true }).getAttribute("aria-invalid")).toBe("true");
      expect(await describedError(page, page.getByLabel(t["auth.field.email"]!, { exact: true }))).toBe(t["validation.email"]);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(viewport.width);
      await shot(page, "reset");
    });

    test("settings answers a wrong old password next to it, and only in that task's form", async () => {
      const page = await session.newPage({ viewport, allowConsoleErrors: [/status of 4\d\d/] });
      await page.goto(`${prefix}/auth?redirectTo=${encodeURIComponent(`${prefix}/dota2/profile/settings`)}`);
      await page.getByLabel(t["auth.field.login"]!).fill(DEMO.user.email);
      await page.getByLabel(t["auth.field.password"]!, { exact: true }).fill(DEMO.user.password);
      await tickRecaptcha(page);
      await page.getByRole("button", { name: t["auth.login.submit"], exact: true }).click();
      await page.waitForURL(`**${prefix}/dota2/profile/settings`);

      await page.getByLabel(t["settings.password.old"]!).fill("not the password 1");
      await page.getByLabel(t["settings.password.new"]!).fill("copper lantern meadow 17");
      await page.getByRole("button", { name: t["settings.password.submit"], exact: true }).click();
      const old = page.getByLabel(t["settings.password.old"]!);
      await expect.poll(() => old.getAttribute("aria-invalid")).toBe("true");
      expect(await describedError(page, old)).toBe(t["validation.password_wrong"]);
      // The e-mail form beside it is untouched.
      expect(await page.getByLabel(t["settings.email.new"]!).getAttribute("aria-invalid")).toBeNull();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(viewport.width);
      await shot(page, "settings");
    });
  });
});
