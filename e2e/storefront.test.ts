// Storefront journeys in Chromium, in Russian (no prefix) and English (/en): the landing page, a
// game page with its plans, the language switcher, the presentation with its FAQ and the 404 screen.
// Elements are found the way a person (or a screen reader) finds them: by role and accessible name.
// The fixture fails any test whose page logs a console error or throws, so a CSP violation, a
// missing asset or a script error on any of these pages fails the run.
import { describe, expect, test } from "vitest";
import type { Locator, Page } from "playwright-core";
import { MOBILE, screenshot, useBrowser } from "./fixtures/browser.ts";

const session = useBrowser();

type Journey = {
  locale: "ru" | "en";
  prefix: string;
  acceptLanguage: string;
  heading: string;
  gamesTitle: string;
  fromPrice: RegExp;
  game: { slug: string; openLabel: string; title: string };
  plansTitle: string;
  plans: [string, string, string, string];
  price: RegExp;
  perDay: RegExp;
  best: string;
  languageLabel: string;
  other: { name: string; prefix: string; lang: string; gameTitle: string };
  nav: string;
  presentationLink: string;
  presentationTitle: string;
  faqTitle: string;
  faq: { question: string; answer: string };
  notFound: { title: string; link: string };
};

// Prices are USD (the default shop currency): "от 1,99 $" in Russian, "from $1.99" in English.
// \s also matches the (narrow) no-break space Intl puts between the number and the sign.
const JOURNEYS: Journey[] = [
  {
    locale: "ru",
    prefix: "",
    acceptLanguage: "ru-RU,ru;q=0.9",
    heading: "Играйте увереннее. Платите только за нужный срок.",
    gamesTitle: "Игры",
    fromPrice: /^от \d+,\d{2}\s\$$/,
    game: { slug: "minecraft", openLabel: "Смотреть тарифы для Minecraft", title: "Подписка на Minecraft" },
    plansTitle: "Тарифы",
    plans: ["1 день", "7 дней", "30 дней", "90 дней"],
    price: /^\d+,\d{2}\s\$$/,
    perDay: /^\d+,\d{2}\s\$ в день$/,
    best: "Выгоднее всего",
    languageLabel: "Выбрать язык",
    other: { name: "English", prefix: "/en", lang: "en", gameTitle: "Minecraft subscription" },
    nav: "Основная навигация",
    presentationLink: "Как это работает",
    presentationTitle: "Одна подписка на игру — и всё под вашим контролем",
    faqTitle: "Вопросы и ответы",
    faq: {
      question: "Можно ли держать несколько подписок?",
      answer: "Да, по одной подписке на каждую игру. Повторная покупка для той же игры добавляет к ней дни.",
    },
    notFound: { title: "Страница не найдена", link: "главную страницу" },
  },
  {
    locale: "en",
    prefix: "/en",
    acceptLanguage: "en-US,en;q=0.9",
    heading: "Play sharper. Pay only for the time you need.",
    gamesTitle: "Games",
    fromPrice: /^from \$\d+\.\d{2}$/,
    game: { slug: "dota2", openLabel: "See plans for Dota 2", title: "Dota 2 subscription" },
    plansTitle: "Plans",
    plans: ["1 day", "7 days", "30 days", "90 days"],
    price: /^\$\d+\.\d{2}$/,
    perDay: /^\$\d+\.\d{2} per day$/,
    best: "Best value",
    languageLabel: "Choose language",
    other: { name: "Русский", prefix: "", lang: "ru", gameTitle: "Подписка на Dota 2" },
    nav: "Main navigation",
    presentationLink: "How it works",
    presentationTitle: "One subscription per game, fully in your control",
    faqTitle: "Questions and answers",
    faq: {
      question: "Can I hold several subscriptions?",
      answer: "Yes: one subscription per game. Buying again for the same game adds days to it.",
    },
    notFound: { title: "Page not found", link: "main page" },
  },
];

/** The path of `path` ("/" or "/x") under a language prefix ("" or "/en"). */
function localized(prefix: string, path: string): string {
  if (!prefix) return path;
  return path === "/" ? prefix : prefix + path;
}

function url(path: string): string {
  return session.baseUrl + path;
}

async function open(page: Page, path: string, status = 200) {
  const response = await page.goto(url(path));
  expect(response?.status(), `status of ${path}`).toBe(status);
  return response!;
}

async function htmlLang(page: Page) {
  return page.locator("html").getAttribute("lang");
}

async function text(locator: Locator) {
  return ((await locator.textContent()) ?? "").trim();
}

describe.each(JOURNEYS)("storefront in $locale", (j) => {
  const home = localized(j.prefix, "/");

  test("the landing page shows the games with their starting prices and sets the visitor cookie", async () => {
    const page = await session.newPage({ locale: j.acceptLanguage.split(",")[0] });
    await open(page, home);
    expect(await htmlLang(page)).toBe(j.locale);

    const heading = page.getByRole("heading", { level: 1, name: j.heading, exact: true });
    expect(await heading.isVisible()).toBe(true);
    expect(await page.getByRole("navigation", { name: j.nav, exact: true }).isVisible()).toBe(true);

    const games = page.getByRole("region", { name: j.gamesTitle, exact: true });
    const cards = games.getByRole("listitem");
    expect(await cards.count()).toBe(3);
    for (const card of await cards.all()) {
      expect(await card.getByRole("heading", { level: 3 }).isVisible()).toBe(true);
      expect(await text(card.getByText(j.fromPrice))).toMatch(j.fromPrice);
      expect(await card.getByRole("link").count()).toBe(1);
    }

    const cookies = await session.context.cookies();
    const visitor = cookies.find((c) => c.name === "t");
    expect(visitor?.value).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(visitor?.path).toBe("/");
    expect(visitor?.sameSite).toBe("Lax");
    expect(cookies.find((c) => c.name === "locale")?.value).toBe(j.locale);

    await screenshot(page, `landing-${j.locale}`);
  });

  test("a game card leads to the game page with four plans and their prices", async () => {
    const page = await session.newPage();
    await open(page, home);
    await page.getByRole("region", { name: j.gamesTitle, exact: true }).getByRole("link", { name: j.game.openLabel, exact: true }).click();
    await page.waitForURL(url(localized(j.prefix, `/${j.game.slug}`)));

    expect(await htmlLang(page)).toBe(j.locale);
    expect(await page.getByRole("heading", { level: 1, name: j.game.title, exact: true }).isVisible()).toBe(true);

    const plans = page.getByRole("region", { name: j.plansTitle, exact: true }).getByRole("list").first().getByRole("listitem");
    expect(await plans.count()).toBe(4);
    const names: string[] = [];
    for (const plan of await plans.all()) {
      names.push(await text(plan.getByRole("heading", { level: 3 })));
      expect(await text(plan.locator(".plan-price"))).toMatch(j.price);
      expect(await text(plan.getByText(j.perDay))).toMatch(j.perDay);
      const buy = plan.getByRole("link");
      expect(await buy.getAttribute("href")).toMatch(new RegExp(`^${localized(j.prefix, `/${j.game.slug}`)}/profile/payment\\?product=\\d+$`));
    }
    expect(names).toEqual(j.plans);
    // The longest plan is the cheapest per day, and it is marked so.
    expect(await plans.last().getByText(j.best, { exact: true }).isVisible()).toBe(true);

    await screenshot(page, `game-${j.locale}-${j.game.slug}`);
  });

  test("the language switcher opens the same page in the other language", async () => {
    const page = await session.newPage();
    const gamePath = localized(j.prefix, `/${j.game.slug}`);
    await open(page, gamePath);

    const switcher = page.locator("details.lang-switcher");
    expect(await switcher.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
    // Its name holds the visible language code too (WCAG 2.5.3, label in name).
    await page.getByLabel(`${j.languageLabel}: ${j.locale.toUpperCase()}`, { exact: true }).click();
    expect(await switcher.evaluate((d: HTMLDetailsElement) => d.open)).toBe(true);

    const current = switcher.getByRole("link", { name: j.locale === "ru" ? "Русский" : "English" });
    expect(await current.getAttribute("aria-current")).toBe("true");
    const target = switcher.getByRole("link", { name: j.other.name, exact: true });
    expect(await target.isVisible()).toBe(true);
    await screenshot(page, `lang-switcher-${j.locale}`);

    await target.click();
    await page.waitForURL(url(localized(j.other.prefix, `/${j.game.slug}`)));
    expect(await htmlLang(page)).toBe(j.other.lang);
    expect(await page.getByRole("heading", { level: 1, name: j.other.gameTitle, exact: true }).isVisible()).toBe(true);
    const cookies = await session.context.cookies();
    expect(cookies.find((c) => c.name === "locale")?.value).toBe(j.other.lang);
  });

  test("the presentation page opens from the navigation and its FAQ items expand", async () => {
    const page = await session.newPage();
    await open(page, home);
    await page.getByRole("navigation", { name: j.nav, exact: true }).getByRole("link", { name: j.presentationLink, exact: true }).click();
    await page.waitForURL(url(localized(j.prefix, "/presentation")));

    expect(await htmlLang(page)).toBe(j.locale);
    expect(await page.getByRole("heading", { level: 1, name: j.presentationTitle, exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole("region", { name: j.faqTitle, exact: true }).isVisible()).toBe(true);

    const answer = page.getByText(j.faq.answer, { exact: true });
    expect(await answer.isVisible()).toBe(false);
    await page.getByText(j.faq.question, { exact: true }).click();
    await answer.waitFor({ state: "visible" });
    expect(await answer.isVisible()).toBe(true);

    await screenshot(page, `presentation-${j.locale}`);
  });

  test("an unknown page shows the 404 screen with a link to the main page", async () => {
    // Chromium reports the document's own 404 status in the console; that status is the point here.
    const page = await session.newPage({ allowConsoleErrors: [/the server responded with a status of 404/] });
    const response = await open(page, localized(j.prefix, "/no-such-page"), 404);
    expect(response.headers()["content-type"]).toMatch(/^text\/html/);
    expect(await htmlLang(page)).toBe(j.locale);
    expect(await page.getByRole("heading", { level: 1, name: j.notFound.title, exact: true }).isVisible()).toBe(true);
    await screenshot(page, `404-${j.locale}`);

    await page.getByRole("link", { name: j.notFound.link, exact: true }).click();
    await page.waitForURL(url(home));
    expect(await htmlLang(page)).toBe(j.locale);
    expect(await page.getByRole("heading", { level: 1, name: j.heading, exact: true }).isVisible()).toBe(true);
  });

  test("the landing page and a game page fit a 390 px wide phone", async () => {
    const page = await session.newPage({ viewport: MOBILE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    await open(page, home);
    expect(await page.getByRole("heading", { level: 1, name: j.heading, exact: true }).isVisible()).toBe(true);
    // Nothing may stick out sideways: no horizontal scrolling on a phone.
    const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
    expect(widths.doc).toBeLessThanOrEqual(widths.view);
    await screenshot(page, `landing-mobile-${j.locale}`);

    await page.getByRole("link", { name: j.game.openLabel, exact: true }).click();
    await page.waitForURL(url(localized(j.prefix, `/${j.game.slug}`)));
    const plans = page.getByRole("region", { name: j.plansTitle, exact: true }).getByRole("list").first().getByRole("listitem");
    expect(await plans.count()).toBe(4);
    const gameWidths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
    expect(gameWidths.doc).toBeLessThanOrEqual(gameWidths.view);
    await screenshot(page, `game-mobile-${j.locale}-${j.game.slug}`);
  });
});

describe("language of the root page", () => {
  test("a browser preferring English is sent from / to /en, and Russian stays on /", async () => {
    const english = await session.newPage({ locale: "en-US" });
    await english.goto(url("/"));
    expect(new URL(english.url()).pathname).toBe("/en");
    expect(await htmlLang(english)).toBe("en");

    const russian = await session.newPage({ locale: "ru-RU" });
    await russian.goto(url("/"));
    expect(new URL(russian.url()).pathname).toBe("/");
    expect(await htmlLang(russian)).toBe("ru");
  });
});

describe("content security policy", () => {
  const PAGES = ["/", "/en", "/minecraft", "/en/dota2", "/cs2", "/presentation", "/en/presentation"];

  test.each(PAGES)("%s is served with a strict CSP and loads without console errors", async (path) => {
    const page = await session.newPage();
    const response = await open(page, path);
    const csp = response.headers()["content-security-policy"] ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self'( 'sha256-[^']+')*;/);
    expect(csp).toContain("style-src 'self'");
    // The stylesheet really applied (a blocked or missing one would leave the default white page).
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe("rgba(0, 0, 0, 0)");
    // Console errors and page errors are checked by the fixture after the test.
  });

  test("a CSP violation shows up as a console error, so the fixture would fail the page", async () => {
    const page = await session.newPage();
    await open(page, "/");
    await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.__injected = true";
      document.body.append(script);
    });
    await page.waitForTimeout(100);
    expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
    const errors = session.takeErrors();
    expect(errors.some((e) => /Content Security Policy/.test(e))).toBe(true);
  });
});
