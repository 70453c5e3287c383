// Sign-in with reCAPTCHA on, in Chromium (issue 7): the widget (the loopback stand-in of Google's
// api.js, served at RECAPTCHA_SCRIPT_URL) appears inside the form once the page has hydrated, an
// unticked form is refused with the message in the page's language, a ticked one signs in; no
// console error on the way (a hydration error, a CSP refusal of the script, a failed load would
// fail the test). The whole journeys (register, 2FA, reset) run with it in accounts.test.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { MOBILE, screenshot, useBrowser } from "./fixtures/browser.ts";
import { tickRecaptcha } from "./fixtures/recaptcha.ts";
import { DEMO } from "../db/seed.ts";

const session = useBrowser();
const root = path.resolve(import.meta.dirname, "..");
const catalog = (locale: string) => JSON.parse(readFileSync(path.join(root, "i18n/messages", `${locale}.json`), "utf8")) as Record<string, string>;
const DEMO_USER = DEMO.user;
const WIDE = { width: 1440, height: 900 };

describe.each([
  { locale: "ru", prefix: "", robot: "Я не робот" },
  { locale: "en", prefix: "/en", robot: "I'm not a robot" },
])("reCAPTCHA on the sign-in page ($locale)", ({ locale, prefix, robot }) => {
  const t = catalog(locale);

  test("the widget renders after hydration, an unticked form is refused, a ticked one signs in", async () => {
    const page = await session.newPage({ viewport: WIDE, allowConsoleErrors: [/status of 400/] });
    await page.goto(`${prefix}/auth`);
    // The widget, in the page's language, inside the sign-in form.
    const form = page.locator("form", { has: page.getByLabel(t["auth.field.login"]!) });
    await expect.poll(() => form.getByRole("checkbox", { name: robot }).isVisible()).toBe(true);
    expect(await form.locator("textarea[name=g-recaptcha-response]").count()).toBe(1);
    await screenshot(page, `recaptcha-${locale}-login-desktop`);

    await page.getByLabel(t["auth.field.login"]!).fill(DEMO_USER.email);
    await page.getByLabel(t["auth.field.password"]!, { exact: true }).fill(DEMO_USER.password);
    await page.getByRole("button", { name: t["auth.login.submit"], exact: true }).click();
    await expect.poll(() => page.getByRole("alert").innerText()).toBe(t["errors.recaptcha_failed"]);
    expect(session.takeErrors()).toEqual([]);

    await tickRecaptcha(page);
    await page.getByRole("button", { name: t["auth.login.submit"], exact: true }).click();
    await page.waitForURL(new RegExp(`${prefix}/[a-z0-9]+/profile$`));
  });

  test("the sign-in page with the widget on a phone", async () => {
    const page = await session.newPage({ viewport: MOBILE });
    await page.goto(`${prefix}/auth`);
    const widget = page.locator(".recaptcha").getByRole("checkbox", { name: robot });
    await expect.poll(() => widget.isVisible()).toBe(true);
    // The widget fits the card: nothing sticks out to the right of the screen.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(MOBILE.width);
    await screenshot(page, `recaptcha-${locale}-login-phone`);
  });
});
