// The demo games' pages and the default site pages speak the glossary's words too
// (docs/product/glossary.md#forbidden-variants): what a buyer reads on a game's page or in the terms
// names things as the interface and the mails do, and their headings follow the same typography.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { forbiddenIn, readForbiddenVariants } from "../../i18n/glossary.ts";
import { LOCALES } from "../../i18n/locales.ts";
import { bindShortWords } from "../../i18n/typography.ts";
import { DEFAULT_SITE_PAGES, DEMO_GAME_TEXTS } from "./index.ts";

const forbidden = readForbiddenVariants(path.resolve(import.meta.dirname, "../.."));

/** Every string in a value, with the path that leads to it. */
function strings(value: unknown, at: string): [string, string][] {
  if (typeof value === "string") return [[at, value]];
  if (value && typeof value === "object") return Object.entries(value).flatMap(([key, inner]) => strings(inner, `${at}.${key}`));
  return [];
}

describe.each(LOCALES)("the %s demo content", (locale) => {
  it("has none of the glossary's forbidden variants", () => {
    const texts = [...strings(DEMO_GAME_TEXTS[locale], "games"), ...strings(DEFAULT_SITE_PAGES[locale], "pages")];
    expect(texts.length).toBeGreaterThan(50);
    const found = texts.flatMap(([at, text]) => forbiddenIn(locale, text, forbidden).map((variant) => `${at}: "${variant.forbidden}", use ${variant.useInstead}`));
    expect(found).toEqual([]);
  });

  it("keeps the short words of its headings with the next one (feature titles, questions, modes, page titles)", () => {
    const headings = [
      ...Object.values(DEMO_GAME_TEXTS[locale]).flatMap((game) => [...game.features.map((f) => f.title), ...game.faq.map((q) => q.question), ...game.modes.map((m) => m.name)]),
      ...Object.values(DEFAULT_SITE_PAGES[locale]).map((page) => page.title),
    ];
    expect(headings.length).toBeGreaterThan(20);
    expect(headings.filter((heading) => bindShortWords(heading, locale) !== heading)).toEqual([]);
  });
});
