// The one-time sign-in link in Chromium (issue 7): opening it shows whose account it signs in to;
// a guest confirms and is signed in; a signed-in visitor sees both accounts and keeps theirs
// unless they confirm.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import type { Page } from "playwright-core";
import { MOBILE, screenshot, useBrowser } from "./fixtures/browser.ts";
import { tickRecaptcha } from "./fixtures/recaptcha.ts";

const session = useBrowser();
const root = path.resolve(import.meta.dirname, "..");
const catalog = (locale: string) => JSON.parse(readFileSync(path.join(root, "i18n/messages", `${locale}.json`), "utf8")) as Record<string, string>;
const PASSWORD = "violet tangerine orbit 42";

describe.each([
  { locale: "ru", prefix: "" },
  { locale: "en", prefix: "/en" },
])("single sign-on link ($locale)", ({ locale, prefix }) => {
  const t = catalog(locale);
  const stamp = Date.now();

  async function register(page: Page, email: string) {
    await page.goto(`${prefix}/auth/register`);
    await page.getByLabel(t["auth.field.email"]!).fill(email);
    await page.getByLabel(t["auth.field.password"]!).fill(PASSWORD);
    await tickRecaptcha(page);
    await page.getByRole("button", { name: t["auth.register.submit"] }).click();
    await page.waitForURL(`**${prefix}/dota2/profile`);
  }

  /** A ticket of the page's signed-in user, made the way a client of the API makes one (the link is in the call's language). */
  async function ticketLink(page: Page): Promise<string> {
    return page.evaluate(async (language) => {
      const response = await fetch("/v2/web/sso/ticket", { method: "POST", headers: { "content-type": "application/json", "accept-language": language }, body: "{}" });
      return ((await response.json()) as { url: string }).url;
    }, locale);
  }

  test("a guest confirms and is signed in; a signed-in visitor keeps their account unless they confirm", async () => {
    const owner = `sso-owner-${locale}-${stamp}@example.com`;
    const visitor = `sso-visitor-${locale}-${stamp}@example.com`;
    const ownerPage = await session.newPage();
    await register(ownerPage, owner);

    // A guest opens the link: the account is named, nothing happens until they confirm.
    const guest = await session.newPage({ viewport: MOBILE });
    await guest.goto(await ticketLink(ownerPage));
    await expect.poll(() => guest.getByText(owner, { exact: true }).isVisible()).toBe(true);
    expect((await guest.context().cookies()).some((c) => c.name === "access_token")).toBe(false);
    await screenshot(guest, `sso-${locale}-guest`);
    await guest.getByRole("button", { name: t["auth.sso.confirm"] }).click();
    await guest.waitForURL(`**${prefix}/dota2/profile`);
    await expect.poll(() => guest.locator(".stat-small").innerText()).toBe(owner);

    // A signed-in visitor opens someone else's link: both accounts are named; staying keeps theirs.
    const visitorPage = await session.newPage();
    await register(visitorPage, visitor);
    await visitorPage.goto(await ticketLink(ownerPage));
    await expect.poll(() => visitorPage.getByText(owner, { exact: true }).isVisible()).toBe(true);
    const warning = t["auth.sso.switch"]!.replace("{current}", visitor);
    await expect.poll(() => visitorPage.getByRole("note").innerText()).toBe(warning);
    await screenshot(visitorPage, `sso-${locale}-signed-in`);
    await visitorPage.getByRole("link", { name: t["auth.sso.stay"]!.replace("{current}", visitor) }).click();
    await visitorPage.waitForURL(`**${prefix}/dota2/profile`);
    await expect.poll(() => visitorPage.locator(".stat-small").innerText()).toBe(visitor);
  });
});
