// The buyer's side in Chromium (issue 9): the language switcher keeps the page's query
// (`?redirectTo=` on sign-in, `?product=` at checkout) and sets the `locale` cookie, which "/"
// then follows; an anti-bot 403 on a call of the page reloads it, but not twice within 10 s; the
// likely next pages are prefetched, at most 4 at once, and not at all on a data-saving connection.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import type { Page, Route } from "playwright-core";
import { DEMO } from "../db/seed.ts";
import { screenshot, settle, useBrowser, MOBILE } from "./fixtures/browser.ts";
import { tickRecaptcha } from "./fixtures/recaptcha.ts";

const session = useBrowser();
const root = path.resolve(import.meta.dirname, "..");
const catalog = (locale: string) => JSON.parse(readFileSync(path.join(root, "i18n/messages", `${locale}.json`), "utf8")) as Record<string, string>;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const url = (pathAndQuery: string) => new RegExp(`^https?://[^/]+${escape(pathAndQuery)}$`);

async function switchTo(page: Page, current: string, name: string) {
  const label = `${catalog(current)["lang.label"]}: ${current.toUpperCase()}`;
  await page.getByLabel(label, { exact: true }).first().click();
  await page.locator("details.lang-switcher[open]").getByRole("link", { name, exact: true }).click();
}

async function localeCookie(): Promise<string | undefined> {
  return (await session.context.cookies()).find((c) => c.name === "locale")?.value;
}

async function signInAsDemo(page: Page, locale: string) {
  const t = catalog(locale);
  await page.getByLabel(t["auth.field.login"]!).fill(DEMO.user.email);
  await page.getByLabel(t["auth.field.password"]!, { exact: true }).fill(DEMO.user.password);
  await tickRecaptcha(page);
  await page.getByRole("button", { name: t["auth.login.submit"], exact: true }).click();
}

describe("the language switcher", () => {
  test("keeps ?redirectTo= on sign-in and ?product= at checkout, and sets the cookie that / follows", async () => {
    // A browser that prefers English.
    const page = await session.newPage({ locale: "en-US", allowConsoleErrors: [/status of 4\d\d/] });
    await page.goto("/en/dota2");
    const buy = page.locator('a[href*="/profile/payment?product="]').first();
    const checkout = (await buy.getAttribute("href"))!;
    const product = /product=(\d+)/.exec(checkout)![1]!;
    await buy.click();
    const redirectTo = encodeURIComponent(checkout);
    await page.waitForURL(url(`/en/auth?redirectTo=${redirectTo}`));

    // On the sign-in page: to Русский, with the place to return to kept.
    await switchTo(page, "en", "Русский");
    await page.waitForURL(url(`/auth?redirectTo=${redirectTo}`));
    await expect.poll(() => page.locator("html").getAttribute("lang")).toBe("ru");
    expect(await localeCookie()).toBe("ru");
    await screenshot(page, "buyer-switcher-signin-ru");

    // Signing in goes on to the checkout of the product chosen.
    await signInAsDemo(page, "ru");
    await page.waitForURL(url(checkout));

    // At checkout: to 中文, the product kept.
    await switchTo(page, "en", "中文");
    await page.waitForURL(url(`/cn/dota2/profile/payment?product=${product}`));
    await expect.poll(() => page.locator("html").getAttribute("lang")).toBe("zh-CN");
    expect(await localeCookie()).toBe("cn");
    await screenshot(page, "buyer-switcher-checkout-cn");

    // "/" follows the cookie, not the browser's English.
    await page.goto("/");
    await page.waitForURL(url("/cn"));
    // Choosing Русский there sticks at "/".
    await switchTo(page, "cn", "Русский");
    await page.waitForURL(url("/"));
    expect(await localeCookie()).toBe("ru");
    await page.goto("/");
    await page.waitForURL(url("/"));
    expect(await page.locator("html").getAttribute("lang")).toBe("ru");
  });
});

describe("an anti-bot challenge on a call of the page", () => {
  test("reloads the page once, and not again within 10 s", async () => {
    const page = await session.newPage({ locale: "en-US", allowConsoleErrors: [/status of 4\d\d/, /403/] });
    await page.goto("/en/auth");
    await signInAsDemo(page, "en");
    await page.waitForURL(/\/en\/[a-z0-9]+\/profile$/);
    const profile = new URL(page.url()).pathname;
    // The overview hydrates; its section links navigate in the page, fetching "<page>.data".
    await page.goto(profile);
    await page.waitForFunction(() => {
      const link = document.querySelector(".profile-nav a");
      return link !== null && Object.keys(link).some((key) => key.startsWith("__react"));
    });

    // The CDN starts challenging every data request.
    let challenged = 0;
    await page.route(/\.data(\?|$)/, async (route: Route) => {
      challenged++;
      await route.fulfill({ status: 403, headers: { "cf-mitigated": "challenge", "content-type": "text/html" }, body: "<!doctype html><title>Just a moment…</title>" });
    });
    const loads: number[] = [];
    page.on("load", () => loads.push(Date.now()));
    const subscriptionLink = () =>
      page.getByRole("navigation", { name: catalog("en")["profile.sections"]!, exact: true }).getByRole("link", { name: catalog("en")["profile.nav.subscription"]!, exact: true });

    await subscriptionLink().click();
    await expect.poll(() => loads.length).toBe(1);
    expect(challenged).toBe(1);
    expect(new URL(page.url()).pathname).toBe(profile);
    const stamp = await page.evaluate(() => sessionStorage.getItem("nova.challengeReloadAt"));
    expect(Number(stamp)).toBeGreaterThan(0);

    // Challenged again right after the reload: the guard holds; the navigation fails in place instead.
    await subscriptionLink().click();
    await expect.poll(() => challenged).toBe(2);
    await expect.poll(() => page.locator(".error-screen").count()).toBe(1);
    expect(loads).toHaveLength(1);
  });
});

describe("prefetch of the likely next pages", () => {
  test("fetches the marked links ahead, at most 4 at once, each once", async () => {
    const page = await session.newPage({ locale: "en-US" });
    const held: Route[] = [];
    const asked: string[] = [];
    let inFlight = 0;
    let most = 0;
    await page.route("**/*", async (route) => {
      const purpose = (await route.request().allHeaders())["sec-purpose"] ?? "";
      if (!purpose.includes("prefetch")) return route.continue();
      asked.push(new URL(route.request().url()).pathname);
      inFlight++;
      most = Math.max(most, inFlight);
      held.push(route);
    });
    // The home page marks four other pages (the header's, its call to action, its game cards);
    // a fifth likely page is added to it here, so that one has to wait for a free slot.
    await page.addInitScript(() =>
      document.addEventListener("DOMContentLoaded", () => {
        const link = Object.assign(document.createElement("a"), { href: "/en/auth/register", textContent: "Create an account" });
        link.setAttribute("data-prefetch", "");
        document.querySelector("main")?.prepend(link);
      }),
    );
    await page.goto("/en");
    await settle(page);
    await expect.poll(() => held.length).toBe(4);
    expect(most).toBe(4);
    // As one answers, the next goes.
    inFlight--;
    await held.shift()!.continue();
    await expect.poll(() => asked.length).toBe(5);
    expect([...asked].sort()).toEqual(["/en/auth/register", "/en/cs2", "/en/dota2", "/en/minecraft", "/en/presentation"]);
    expect(most).toBe(4);
    for (const route of held.splice(0)) await route.continue();
    // A link already fetched is not fetched again when a pointer rests on it.
    await page
      .getByRole("navigation", { name: catalog("en")["nav.label"]!, exact: true })
      .getByRole("link", { name: "CS2", exact: true })
      .hover();
    await settle(page);
    expect(asked).toHaveLength(5);
  });

  test("fetches nothing ahead on a data-saving connection", async () => {
    const page = await session.newPage({ locale: "en-US", viewport: MOBILE });
    await page.addInitScript(() => Object.defineProperty(navigator, "connection", { value: { saveData: true, effectiveType: "4g" }, configurable: true }));
    const asked: string[] = [];
    page.on("request", (request) => {
      if ((request.headers()["sec-purpose"] ?? "").includes("prefetch")) asked.push(request.url());
    });
    await page.goto("/en");
    await settle(page);
    // Nor when a finger touches a marked link (the game cards are on screen at phone size too).
    await page.locator("a[data-prefetch]").filter({ visible: true }).first().hover();
    await settle(page);
    expect(await page.locator('link[rel="prefetch"]').count()).toBe(0);
    expect(asked).toEqual([]);
  });
});
