// Every catalogue has every key, no stray ones, the same {placeholders}, and real translations.
import { describe, expect, it } from "vitest";
import { LOCALES } from "./locales.ts";
import { readCatalog } from "./catalogs.ts";

const english = readCatalog("en");
const keys = Object.keys(english).sort();
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
/** Strings that are the same in every language: brand and game names, codes. */
const SAME_EVERYWHERE = new Set(["home.hero.eyebrow"]);

describe.each(LOCALES)("the %s catalogue", (locale) => {
  const catalog = readCatalog(locale);

  it("has exactly the keys of the English catalogue", () => {
    expect(Object.keys(catalog).sort()).toEqual(keys);
  });

  it("has a non-empty text with the same placeholders for every key", () => {
    for (const key of keys) {
      expect(catalog[key]?.trim(), `${locale}: ${key}`).toBeTruthy();
      expect(placeholders(catalog[key]!), `${locale}: ${key}`).toEqual(placeholders(english[key]!));
    }
  });

});

describe.each(LOCALES.filter((l) => l !== "en"))("the %s catalogue", (locale) => {
  const catalog = readCatalog(locale);

  it("is translated, not English", () => {
    const untranslated = keys.filter(
      (key) =>
        !SAME_EVERYWHERE.has(key) &&
        catalog[key] === english[key] &&
        !/^E-mail$/i.test(english[key]!) && // the international word in several languages
        /[a-z]{4,}/i.test(english[key]!.replace(/\{\w+\}/g, "")),
    );
    expect(untranslated).toEqual([]);
  });
});
