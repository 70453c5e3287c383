// Sign-in with reCAPTCHA on, in Chromium (issue 7): the widget (the loopback stand-in of Google's
// api.js, served at RECAPTCHA_SCRIPT_URL) appears inside the form — the page runs no script of
// ours, the widget's own renders it (docs/decisions/0009-forms-on-the-server.md) — an unticked
// form is refused with the message in the page's language, a ticked one signs in; no console
// error on the way (a CSP refusal of the script, a failed load would fail the test). The whole
// journeys (register, 2FA, reset) run with it in accounts.test.ts.
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

  test("the widget renders in the form, an unticked form is refused, a ticked one signs in", async () => {
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

    // The refused post's page is a new one: the login is filled in again, the password never.
    await expect.poll(() => page.getByLabel(t["auth.field.login"]!).inputValue()).toBe(DEMO_USER.email);
    expect(await page.getByLabel(t["auth.field.password"]!, { exact: true }).inputValue()).toBe("");
    await page.getByLabel(t["auth.field.password"]!, { exact: true }).fill(DEMO_USER.password);
    await tickRecaptcha(page);
    await page.getByRole("button", { name: t["auth.login.submit"], exact: true }).click();
    await page.waitForURL(new RegExp(`${prefix}/[a-z0-9]+/profile$`));
  });

  test("a sign-in page rendered in the browser, after a client-side navigation, has the widget too and signs in", async () => {
    const page = await session.newPage({ viewport: WIDE, allowConsoleErrors: [/status of 400/] });
    const referral = `${prefix}/dota2/profile/referral`;
    await page.goto(`${prefix}/auth?redirectTo=${encodeURIComponent(referral)}`);
    await page.getByLabel(t["auth.field.login"]!).fill(DEMO_USER.email);
    await page.getByLabel(t["auth.field.password"]!, { exact: true }).fill(DEMO_USER.password);
    await tickRecaptcha(page);
    await page.getByRole("button", { name: t["auth.login.submit"], exact: true }).click();
    await page.waitForURL(`**${referral}`);
    // The referral page hydrates (its copy button). The session ends meanwhile; the next section
    // is a client-side navigation, which the guard sends to sign in: React renders that page here.
    await expect.poll(() => page.getByRole("button", { name: t["referral.copy"] }).isVisible()).toBe(true);
    await page.context().clearCookies({ name: "access_token" });
    await page.getByRole("link", { name: t["profile.nav.balance"], exact: true }).click();
    const balance = `${prefix}/dota2/profile/balance`;
    await page.waitForURL(`**${prefix}/auth?redirectTo=${encodeURIComponent(balance)}`);
    const form = page.locator("form", { has: page.getByLabel(t["auth.field.login"]!) });
    await expect.poll(() => form.getByRole("checkbox", { name: robot }).isVisible()).toBe(true);
    // Refused without a tick: the message in the form, the widget asks again.
    await page.getByLabel(t["auth.field.login"]!).fill(DEMO_USER.email);
    await page.getByLabel(t["auth.field.password"]!, { exact: true }).fill(DEMO_USER.password);
    await page.getByRole("button", { name: t["auth.login.submit"], exact: true }).click();
    await expect.poll(() => page.getByRole("alert").innerText()).toBe(t["errors.recaptcha_failed"]);
    await tickRecaptcha(page);
    await page.getByLabel(t["auth.field.password"]!, { exact: true }).fill(DEMO_USER.password);
    await page.getByRole("button", { name: t["auth.login.submit"], exact: true }).click();
    await page.waitForURL(`**${balance}`);
    expect(session.takeErrors()).toEqual([]);
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
