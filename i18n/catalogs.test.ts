// Every catalogue has every key, no stray ones, valid ICU messages with the arguments of English,
// plurals with exactly its language's CLDR categories, real translations, none of the glossary's
// forbidden variants and Russian headings that keep short words together
// (docs/product/glossary.md#forbidden-variants); and every message key the code carries as a plain
// string exists. (Keys passed to t() are checked by tsc.)
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LOCALES } from "./locales.ts";
import { compileCatalog, loadCatalogs, readCatalog } from "./catalogs.ts";
import { checkCatalog, unknownKeysInCode, type ProblemKind } from "./check.ts";
import { parseForbiddenVariants, readForbiddenVariants } from "./glossary.ts";

const english = readCatalog("en");
const root = path.resolve(import.meta.dirname, "..");
const forbidden = readForbiddenVariants(root);

describe.each(LOCALES)("the %s catalogue", (locale) => {
  const problems = checkCatalog(locale, readCatalog(locale), english, forbidden);
  const of = (...kinds: ProblemKind[]) => problems.filter((p) => kinds.includes(p.kind)).map((p) => `${p.key ?? ""}: ${p.message}`);

  it("has exactly the keys of the English catalogue", () => {
    expect(of("keys")).toEqual([]);
  });

  it("has a valid ICU message for every key, non-empty, with the arguments of English", () => {
    expect(of("syntax", "empty", "arguments")).toEqual([]);
  });

  it("writes every plural with exactly the language's CLDR categories", () => {
    expect(of("plural")).toEqual([]);
  });

  it("is translated, not English", () => {
    expect(of("untranslated")).toEqual([]);
  });

  it("uses the glossary's words: none of its forbidden variants", () => {
    expect(forbidden.filter((row) => row.locale === locale).length).toBeGreaterThanOrEqual(5);
    expect(of("glossary")).toEqual([]);
  });

  it("keeps a heading's or a button's short words with the next one", () => {
    expect(of("typography")).toEqual([]);
  });
});

describe("the catalogue checks", () => {
  const ru = readCatalog("ru");

  it("find a plural that lacks a category of the language, or has one it never uses", () => {
    const problems = checkCatalog("ru", { ...ru, "plural.days": "{count, plural, one {# день} other {# дней}}" }, english);
    expect(problems).toEqual([{ kind: "plural", locale: "ru", key: "plural.days", message: "{count, plural} has one/other cases; ru needs few/many/one/other" }]);
    const cn = checkCatalog("cn", { ...readCatalog("cn"), "plural.days": "{count, plural, one {# 天} other {# 天}}" }, english);
    expect(cn.map((p) => p.message)).toEqual(["{count, plural} has one/other cases; cn needs other"]);
  });

  it("find a count English writes as a plural that a language with only 'other' writes as plain text", () => {
    const problems = checkCatalog("cn", { ...readCatalog("cn"), "download.linkNote": "链接有效期 {minutes} 分钟。" }, english);
    expect(problems).toEqual([{ kind: "plural", locale: "cn", key: "download.linkNote", message: "{minutes} is a plural in English but not here" }]);
  });

  it("find broken ICU, an argument English does not have, a plural English does not have, and a missing key", () => {
    const { "nav.home": _dropped, ...rest } = ru;
    const problems = checkCatalog(
      "ru",
      {
        ...rest,
        "plural.hours": "{count, plural, one {# час}",
        "footer.rights": "© {year} {brand}",
        "game.title": "{game, plural, one {#} few {#} many {#} other {#}}",
      },
      english,
    );
    expect(problems.map((p) => [p.kind, p.key])).toEqual([
      ["keys", undefined],
      ["arguments", "footer.rights"],
      ["arguments", "game.title"],
      ["syntax", "plural.hours"],
    ]);
    expect(problems[0]!.message).toBe("missing keys: nav.home");
  });
});

describe("the glossary checks", () => {
  const ru = readCatalog("ru");

  it("read every row of the glossary's table, plain text ignoring case and /regex/flags as written", () => {
    const rows = parseForbiddenVariants(
      [
        "# G",
        "## Forbidden variants",
        "",
        "| locale | forbidden | use instead |",
        "|---|---|---|",
        "| ru | Учётн | аккаунт |",
        "| id | /\\bkamu\\b/i | Anda |",
        "| es | /congel[^.]*(a\\|b)/i | c |",
        "## Next",
        "| en | x | y |",
      ].join("\n"),
    );
    expect(rows.map((r) => [r.locale, r.forbidden, r.useInstead])).toEqual([
      ["ru", "Учётн", "аккаунт"],
      ["id", "/\\bkamu\\b/i", "Anda"],
      ["es", "/congel[^.]*(a|b)/i", "c"],
    ]);
    expect([rows[2]!.test("Congelo b"), rows[2]!.test("Congelo. b")]).toEqual([true, false]);
    expect([rows[0]!.test("ваша учётная запись"), rows[1]!.test("Kamu bisa"), rows[1]!.test("kamus")]).toEqual([true, true, false]);
    expect(() => parseForbiddenVariants("## Forbidden variants\n| xx | a | b |")).toThrow(/not a locale/);
  });

  it("find a forbidden variant in a message's text but not in its arguments, and a heading that breaks after a short word", () => {
    const problems = checkCatalog(
      "ru",
      {
        ...ru,
        "presentation.time.title": "Время складывается",
        "settings.email.pending": "Ждём подтверждения адреса {email}: откройте ссылку из письма.",
        "nav.home": "Учётная запись",
        "game.title": "Подписка на {game}",
        "presentation.title": "Одна подписка на\u00a0игру — и\u00a0всё под\u00a0вашим контролем",
      },
      english,
      forbidden,
    );
    expect(problems.map((p) => [p.kind, p.key])).toEqual([
      ["glossary", "nav.home"],
      ["typography", "presentation.title"],
      ["glossary", "presentation.time.title"],
      ["typography", "game.title"],
    ]);
    expect(problems[3]!.message).toContain('"Подписка на\\u00a0{game}"');
  });
});

describe("message keys in the code", () => {
  it("are all in the English catalogue (Zod messages, tables, template prefixes)", () => {
    expect(unknownKeysInCode(root, english)).toEqual([]);
  });
});

describe("the compiled catalogues", () => {
  it("compile every language at boot, and what the browser gets holds no ICU source to parse", () => {
    const catalogs = loadCatalogs();
    for (const locale of LOCALES) {
      const served = JSON.parse(catalogs.json(locale)) as Record<string, unknown>;
      expect(served).toEqual(compileCatalog(locale));
      // A plural arrives as its cases, never as "{count, plural, …}" text.
      expect(JSON.stringify(served["plural.days"])).not.toContain("plural,");
      expect(served["nav.home"]).toBe(readCatalog(locale)["nav.home"]);
    }
  });
});
