// The account journey in Chromium, in Russian and English: register → sign out → sign in →
// turn 2FA on → sign in with a code → reset the password with the mailed code → sign in with the
// new password (second factor: a recovery code). Labels come from the message catalogues, so the
// test reads the page the way a person in that language does.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "vitest";
import type { Page } from "playwright-core";
import { totpAt } from "../core/accounts/totp.ts";
import { screenshot, useBrowser } from "./fixtures/browser.ts";
import { tickRecaptcha } from "./fixtures/recaptcha.ts";

const session = useBrowser();
const root = path.resolve(import.meta.dirname, "..");
const catalog = (locale: string) => JSON.parse(readFileSync(path.join(root, "i18n/messages", `${locale}.json`), "utf8")) as Record<string, string>;

/** The latest mail to `to` in the developer outbox (/dev/mail), as plain text. */
async function latestMail(page: Page, to: string): Promise<string> {
  const viewer = await page.context().newPage();
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      await viewer.goto("/dev/mail");
      const article = viewer.locator("article", { hasText: `To: ${to}` }).first();
      if ((await article.count()) > 0) return await article.locator("pre").innerText();
      await viewer.waitForTimeout(200);
    }
    throw new Error(`no mail to ${to}`);
  } finally {
    await viewer.close();
  }
}

// The two languages' journeys run at the same time (their own users; the fixture checks the
// console when both are done): a journey is mostly waiting for pages and mails.
describe.concurrent.each([
  { locale: "ru", prefix: "" },
  { locale: "en", prefix: "/en" },
])("account journey ($locale)", ({ locale, prefix }) => {
  const t = catalog(locale);
  const email = `journey-${locale}-${Date.now()}@example.com`;
  const password = "violet tangerine orbit 42";
  const newPassword = "copper lantern meadow 17";

  async function signIn(page: Page, pass: string) {
    await page.goto(`${prefix}/auth`);
    await page.getByLabel(t["auth.field.login"]!).fill(email);
    await page.getByLabel(t["auth.field.password"]!, { exact: true }).fill(pass);
    await tickRecaptcha(page);
    await page.getByRole("button", { name: t["auth.login.submit"], exact: true }).click();
  }

  async function signOut(page: Page) {
    await page.goto(`${prefix}/dota2/profile/settings`);
    await page.getByRole("button", { name: t["settings.sessions.signOut"], exact: true }).click();
    await page.waitForURL(`**${prefix}/auth`);
  }

  // The test's own `expect`: with two tests at once, the file's `expect.poll` would not know its test.
  test("register, sign out and in, 2FA, reset by mailed code, sign in with the new password", async ({ expect }) => {
    const page = await session.newPage({ allowConsoleErrors: [/status of 4\d\d/] });

    // Register.
    await page.goto(`${prefix}/auth/register`);
    await expect.poll(() => page.locator("html").getAttribute("lang")).toBe(locale);
    await page.getByLabel(t["auth.field.email"]!, { exact: true }).fill(email);
    await page.getByLabel(t["auth.field.password"]!).fill("password1");
    await tickRecaptcha(page);
    await page.getByRole("button", { name: t["auth.register.submit"] }).click();
    await expect.poll(() => page.getByText(t["validation.password_common"]!).isVisible()).toBe(true);
    await screenshot(page, `accounts-${locale}-register-error`);
    await page.getByLabel(t["auth.field.password"]!).fill(password);
    // A token is good once: the widget asks again after the refused try.
    await tickRecaptcha(page);
    await page.getByRole("button", { name: t["auth.register.submit"] }).click();
    await page.waitForURL(`**${prefix}/dota2/profile`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(t["profile.overview.title"]!.replace("{game}", "Dota 2"));
    await screenshot(page, `accounts-${locale}-profile`);

    // A signed-in user on an auth page goes to the profile.
    await page.goto(`${prefix}/auth`);
    await page.waitForURL(`**${prefix}/dota2/profile`);

    // Sign out, then a guest on a profile page is sent to sign in with redirectTo.
    await signOut(page);
    await page.goto(`${prefix}/cs2/profile/settings`);
    await page.waitForURL(`**${prefix}/auth?redirectTo=${encodeURIComponent(`${prefix}/cs2/profile/settings`)}`);

    // Sign in: back to where the guard sent us from.
    await page.getByLabel(t["auth.field.login"]!).fill(email);
    await page.getByLabel(t["auth.field.password"]!, { exact: true }).fill(password);
    await tickRecaptcha(page);
    await page.getByRole("button", { name: t["auth.login.submit"], exact: true }).click();
    await page.waitForURL(`**${prefix}/cs2/profile/settings`);

    // Turn 2FA on with a code computed from the shown key.
    await page.getByRole("button", { name: t["settings.twoFa.enable"], exact: true }).click();
    const secret = (await page.locator("code.secret").innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expect.poll(() => page.getByRole("img", { name: t["settings.twoFa.qrAlt"] }).isVisible()).toBe(true);
    await screenshot(page, `accounts-${locale}-2fa-setup`);
    await page.getByLabel(t["auth.twoFa.code"]!).fill(totpAt(secret, new Date()));
    await page.getByRole("button", { name: t["settings.twoFa.confirm"], exact: true }).click();
    const codes = page.getByRole("list", { name: t["settings.twoFa.recoveryTitle"] }).getByRole("listitem");
    await expect.poll(() => codes.count()).toBe(10);
    const recovery = (await codes.allInnerTexts()).map((c) => c.trim());
    await screenshot(page, `accounts-${locale}-2fa-recovery`);

    // Sign in again: the code step follows on the same page. The code of the next 30-second step
    // is accepted (one step of drift) and differs from the one just used. Without redirectTo the
    // sign-in leads to the last game visited (the settings page used to sign out was dota2's).
    await signOut(page);
    await signIn(page, password);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(t["auth.twoFa.title"]);
    await screenshot(page, `accounts-${locale}-2fa-step`);
    await page.getByLabel(t["auth.twoFa.code"]!).fill(totpAt(secret, new Date(Date.now() + 30_000)));
    await page.getByRole("button", { name: t["auth.twoFa.submit"] }).click();
    await page.waitForURL(`**${prefix}/dota2/profile`);

    // Forgot the password: request a code, read it from the mail, set a new password.
    await signOut(page);
    await page.getByRole("link", { name: t["auth.login.forgot"] }).click();
    // Wait for the restore page: the sign-in page's "E-mail or username" would match a loose label.
    await page.waitForURL(`**${prefix}/auth/restore-password`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(t["auth.reset.title"]);
    await page.getByLabel(t["auth.field.email"]!, { exact: true }).fill(email);
    await tickRecaptcha(page);
    await page.getByRole("button", { name: t["auth.reset.requestSubmit"] }).click();
    await expect.poll(() => page.getByText(t["auth.reset.sent"]!.replace("{email}", email)).isVisible()).toBe(true);
    const mail = await latestMail(page, email);
    const code = /^(\d{6})$/m.exec(mail)?.[1];
    expect(code).toBeDefined();
    await page.getByLabel(t["auth.reset.code"]!).fill(code!);
    await page.getByRole("button", { name: t["auth.reset.verify"] }).click();
    await page.getByLabel(t["auth.field.newPassword"]!).fill(newPassword);
    await screenshot(page, `accounts-${locale}-reset-password`);
    await page.getByRole("button", { name: t["auth.reset.submit"] }).click();
    await page.waitForURL(`**${prefix}/auth?notice=password_reset`);
    await expect.poll(() => page.getByText(t["auth.notice.passwordReset"]!).isVisible()).toBe(true);

    // The old password no longer works; the new one does, with a recovery code as second factor.
    await signIn(page, password);
    await expect.poll(() => page.getByText(t["errors.invalid_credentials"]!).isVisible()).toBe(true);
    await signIn(page, newPassword);
    await page.getByLabel(t["auth.twoFa.code"]!).fill(recovery[0]!);
    await page.getByRole("button", { name: t["auth.twoFa.submit"] }).click();
    await page.waitForURL(`**${prefix}/dota2/profile`);
    await screenshot(page, `accounts-${locale}-signed-in`);
  });
});
