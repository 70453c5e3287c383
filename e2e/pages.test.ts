// Every page in Chromium (issue 9 point 1): in Russian and English, signed out and signed in, and
// the main pages (home, a game, sign-in, subscription) in the other five languages — each at 1440
// and 390 px with reCAPTCHA on (the loopback stand-in of the global setup). A page passes when it
// logs no console error (the fixture fails the test on any), axe finds no serious or critical
// violation (at 1440 px, and at 390 px in Russian: AXE_PHONE_LOCALE), and no visible element is wider inside than its box (e2e/fixtures/axe.ts). Every
// problem of every page is collected first and reported together, so one run names them all.
//
// One browser for the file; per survey (a language, signed out then in) one context per size, reused
// from page to page, and three surveys at a time.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import type { Page } from "playwright-core";
import { DEMO } from "../db/seed.ts";
import { LANG_TAG, LOCALES, localePath, type Locale } from "../i18n/locales.ts";
import { compileCatalog } from "../i18n/catalogs.ts";
import { createTranslate } from "../i18n/translate.ts";
import { settle, useBrowser, type PageOptions } from "./fixtures/browser.ts";
import { tickRecaptcha } from "./fixtures/recaptcha.ts";
import { overflowingElements, seriousViolations } from "./fixtures/axe.ts";

const session = useBrowser();
/** Nearly two hundred page loads, most with axe: a busy CI machine needs minutes, not the project's 90 s. */
const LONG = 600_000;
const REPORTS = path.resolve(import.meta.dirname, "../test-results/pages");

/** Fails with every problem listed, and keeps the list in test-results/pages/ (the diff may be cut short). */
function expectNone(problems: string[], name: string) {
  if (problems.length) {
    mkdirSync(REPORTS, { recursive: true });
    writeFileSync(path.join(REPORTS, `${name}.txt`), problems.join("\n") + "\n");
  }
  expect(problems).toEqual([]);
}

const SIZES = [
  { name: "1440", options: { viewport: { width: 1440, height: 900 } } },
  { name: "390", options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
] as const satisfies readonly { name: string; options: PageOptions }[];

/**
 * axe checks every page at desktop size in every language, and the phone layout (its menu, bottom
 * bar and game switcher, shown where the desktop's are hidden) in Russian: its rules read roles,
 * names, labels and colours, which a language does not change, and an axe run is about half of a
 * visit (docs/decisions/0061-suite-speed.md). Overflow, which text length does change, is checked
 * at both sizes everywhere.
 */
const AXE_PHONE_LOCALE: Locale = "ru";

const GAME = DEMO.games.dota2;
const PRODUCT = DEMO.products.dota2.days30;

/** A page to open (unprefixed path) and the status its document answers. */
type Visit = { path: string; status?: number };

const PUBLIC_PAGES: Visit[] = [
  { path: "/" },
  { path: "/presentation" },
  { path: `/${GAME.slug}` },
  { path: "/minecraft" },
  { path: "/cs2" },
  { path: "/terms" },
  { path: "/privacy" },
  { path: "/refunds" },
  { path: "/support" },
  { path: "/no-such-page", status: 404 },
];

const GUEST_PAGES: Visit[] = [
  ...PUBLIC_PAGES,
  { path: "/auth" },
  { path: "/auth/register" },
  { path: "/auth/restore-password" },
  { path: "/auth/sso" },
  { path: "/auth/verify-email" },
  { path: "/auth/confirm-email" },
  { path: "/auth/undo-email" },
  // A guest's profile link: the sign-in page with the way back.
  { path: `/${GAME.slug}/profile/balance` },
];

const USER_PAGES: Visit[] = [
  ...PUBLIC_PAGES,
  { path: `/${GAME.slug}/profile` },
  { path: `/${GAME.slug}/profile/subscription` },
  { path: `/${GAME.slug}/profile/balance` },
  { path: `/${GAME.slug}/profile/referral` },
  { path: `/${GAME.slug}/profile/settings` },
  { path: `/${GAME.slug}/profile/payment?product=${PRODUCT.id}` },
  { path: `/give/subscription?game=${GAME.slug}` },
  { path: "/payment/paypal?cancel=1" },
  { path: "/payment/paypal?token=none" },
  // A signed-in visitor's sign-in link: their profile.
  { path: "/auth" },
];

const MAIN_GUEST: Visit[] = [{ path: "/" }, { path: `/${GAME.slug}` }, { path: "/auth" }];
const MAIN_USER: Visit[] = [{ path: `/${GAME.slug}/profile/subscription` }];

function withLocale(locale: Locale, path: string): string {
  const [p, q] = path.split("?");
  return localePath(locale, p!) + (q ? `?${q}` : "");
}

async function signIn(page: Page, locale: Locale) {
  const t = createTranslate(compileCatalog(locale), locale);
  await page.goto(withLocale(locale, "/auth"));
  await page.getByLabel(t("auth.field.login")).fill(DEMO.user.email);
  await page.getByLabel(t("auth.field.password"), { exact: true }).fill(DEMO.user.password);
  await tickRecaptcha(page);
  await page.getByRole("button", { name: t("auth.login.submit"), exact: true }).click();
  await page.waitForURL((u) => u.pathname.endsWith("/profile"));
}

/** A page of one size in a survey, with the 4xx console lines its visits expect. */
type SurveyPage = { size: (typeof SIZES)[number]; page: Page; allowConsoleErrors: RegExp[] };

/**
 * A language's survey: its pages signed out, then signed in, at both sizes, and what is wrong with
 * them. One context per size for the whole survey, signed in half-way through by the sign-in form
 * at 1440 px (its cookies then given to the phone's context): a new context is a new renderer whose
 * first page and first axe run pay for cold code, two to three seconds of CPU
 * (docs/decisions/0061-suite-speed.md). The two sizes are surveyed at the same time: most of a visit
 * is waiting, which the other page's visit fills.
 */
async function survey(locale: Locale, guestVisits: Visit[], userVisits: Visit[]): Promise<string[]> {
  const pages: SurveyPage[] = [];
  for (const size of SIZES) {
    const allowConsoleErrors: RegExp[] = [];
    pages.push({ size, page: await session.newPage({ ...size.options, locale: LANG_TAG[locale], allowConsoleErrors }), allowConsoleErrors });
  }
  const found = await Promise.all(pages.map((p) => surveyAt(p, locale, guestVisits, false)));
  const [desktop, ...others] = pages;
  await signIn(desktop!.page, locale);
  const cookies = await desktop!.page.context().cookies();
  for (const other of others) await other.page.context().addCookies(cookies);
  found.push(...(await Promise.all(pages.map((p) => surveyAt(p, locale, userVisits, true)))));
  // Closed as soon as done (the fixture's own close after the test is then a no-op): each holds a
  // renderer, and the surveys of a run add up.
  for (const { page } of pages) await page.context().close();
  return found.flat();
}

/** Opens each page on `page` and returns what is wrong with them. */
async function surveyAt({ size, page, allowConsoleErrors }: SurveyPage, locale: Locale, visits: Visit[], signedIn: boolean): Promise<string[]> {
  const problems: string[] = [];
  for (const visit of visits) {
    const url = withLocale(locale, visit.path);
    const where = `${url} at ${size.name} px${signedIn ? ", signed in" : ""}`;
    const expected = visit.status ?? 200;
    if (expected >= 400) allowConsoleErrors.push(new RegExp(`status of ${expected} .*\\(${(session.baseUrl + url).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\)$`));
    const response = await page.goto(url);
    // Loaded (goto waits for the load event), hydrated and idle: hydration errors would be out by now.
    await settle(page);
    if (response?.status() !== expected) problems.push(`${where}: status ${response?.status()}, expected ${expected}`);
    const lang = await page.locator("html").getAttribute("lang");
    if (lang !== LANG_TAG[locale]) problems.push(`${where}: <html lang="${lang}">`);
    for (const o of await overflowingElements(page)) problems.push(`${where}: overflow: ${o}`);
    if (size.name === "1440" || locale === AXE_PHONE_LOCALE) for (const v of await seriousViolations(page)) problems.push(`${where}: axe: ${v}`);
  }
  return problems;
}

type Survey = { locale: Locale; guest: Visit[]; user: Visit[] };

/**
 * Runs the surveys, at most `atOnce` at a time, and returns every problem they found. A visit is
 * mostly waiting (the document, the assets, hydration, the idle callback), which other surveys'
 * visits fill (docs/decisions/0061-suite-speed.md).
 */
async function surveyAll(surveys: Survey[], atOnce: number): Promise<string[]> {
  const queue = [...surveys];
  const found: string[][] = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) found.push(await survey(next.locale, next.guest, next.user));
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, surveys.length) }, worker));
  return found.flat();
}

/** Surveys (languages) running at the same time, two pages each: 1440 and 390 px. */
const SURVEYS_AT_ONCE = 3;

const OTHER_LOCALES = LOCALES.filter((l) => l !== "ru" && l !== "en");

test(
  `every page in ru and en, signed out and in, and the main pages (home, a game, sign-in, the subscription) in ${OTHER_LOCALES.join(", ")}: ` +
    "no console error, no serious axe violation, nothing overflowing at 1440 and 390 px",
  async () => {
    // The longest first, so that the last ones to finish are short.
    const surveys: Survey[] = [
      ...(["ru", "en"] as const).map((locale) => ({ locale, guest: GUEST_PAGES, user: USER_PAGES })),
      ...OTHER_LOCALES.map((locale) => ({ locale, guest: MAIN_GUEST, user: MAIN_USER })),
    ];
    expectNone(await surveyAll(surveys, SURVEYS_AT_ONCE), "every-page");
  },
  LONG,
);
