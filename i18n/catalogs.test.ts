// Every catalogue has every key, no stray ones, valid ICU messages with the arguments of English,
// plurals with exactly its language's CLDR categories, and real translations; and every message
// key the code carries as a plain string exists. (Keys passed to t() are checked by tsc.)
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LOCALES } from "./locales.ts";
import { compileCatalog, loadCatalogs, readCatalog } from "./catalogs.ts";
import { checkCatalog, unknownKeysInCode, type ProblemKind } from "./check.ts";

const english = readCatalog("en");
const root = path.resolve(import.meta.dirname, "..");

describe.each(LOCALES)("the %s catalogue", (locale) => {
  const problems = checkCatalog(locale, readCatalog(locale), english);
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
});

describe("the catalogue checks", () => {
  const ru = readCatalog("ru");

  it("find a plural that lacks a category of the language, or has one it never uses", () => {
    const problems = checkCatalog("ru", { ...ru, "plural.days": "{count, plural, one {# день} other {# дней}}" }, english);
    expect(problems).toEqual([{ kind: "plural", locale: "ru", key: "plural.days", message: "{count, plural} has one/other cases; ru needs few/many/one/other" }]);
    const cn = checkCatalog("cn", { ...readCatalog("cn"), "plural.days": "{count, plural, one {# 天} other {# 天}}" }, english);
    expect(cn.map((p) => p.message)).toEqual(["{count, plural} has one/other cases; cn needs other"]);
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
