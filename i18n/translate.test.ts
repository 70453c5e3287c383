// The message formatter shared by server and browser: ICU plurals by each language's CLDR rules,
// selects, exact cases, values in pieces for e-mails; and t()'s types (checked by `npm run
// typecheck`: an unused @ts-expect-error fails it).
import { describe, expect, it } from "vitest";
import { compileMessage } from "./compile.ts";
import { loadCatalogs } from "./catalogs.ts";
import type { Locale } from "./locales.ts";
import { createTranslate, createTranslatePieces, type CompiledCatalog } from "./translate.ts";

const catalogs = loadCatalogs();

describe("plurals in the shop's seven languages", () => {
  const days = (locale: Locale, count: number) => catalogs.t(locale)("plural.days", { count });

  it("Russian: one, few, many, and other for fractions", () => {
    expect([1, 2, 5, 11, 21, 22, 25, 100, 101, 1.5].map((n) => days("ru", n))).toEqual([
      "1 день",
      "2 дня",
      "5 дней",
      "11 дней",
      "21 день",
      "22 дня",
      "25 дней",
      "100 дней",
      "101 день",
      "1,5 дня",
    ]);
  });

  it("English, Hindi: one and other (Hindi's one includes 0)", () => {
    expect([0, 1, 2, 21].map((n) => days("en", n))).toEqual(["0 days", "1 day", "2 days", "21 days"]);
    expect([0, 1, 2].map((n) => catalogs.t("hi")("plural.hours", { count: n }))).toEqual(["0 घंटा", "1 घंटा", "2 घंटे"]);
  });

  it("Spanish, Portuguese: one, other, and many for millions", () => {
    expect([1, 2, 1_000_000].map((n) => days("es", n))).toEqual(["1 día", "2 días", "1.000.000 de días"]);
    expect([0, 1, 2, 1_000_000].map((n) => days("pt", n))).toEqual(["0 dia", "1 dia", "2 dias", "1.000.000 de dias"]);
  });

  it("Chinese, Indonesian: one form", () => {
    expect([1, 2].map((n) => days("cn", n))).toEqual(["1 天", "2 天"]);
    expect([1, 2].map((n) => days("id", n))).toEqual(["1 hari", "2 hari"]);
  });

  it("agree with the count inside a sentence", () => {
    const ru = catalogs.t("ru");
    expect(ru("gift.redeem.done", { days: 1, game: "Dota 2" })).toBe("Готово! К вашей подписке на Dota 2 добавлен 1 день.");
    expect(ru("gift.redeem.done", { days: 7, game: "Dota 2" })).toBe("Готово! К вашей подписке на Dota 2 добавлено 7 дней.");
    // "до" takes the genitive: до 21 дня, до 30 дней.
    expect(ru("sub.freezeRules", { max: 21, cooldown: 1 })).toContain("на срок до 21 дня; после разморозки следующая заморозка возможна через 1 день.");
    expect(ru("sub.freezeRules", { max: 30, cooldown: 7 })).toContain("до 30 дней;");
    expect(catalogs.t("en")("notification.gift_received.content", { from: "eve", days: 1, game: "CS2" })).toBe("eve gave you 1 day of CS2.");
    expect(catalogs.t("es")("gift.redeem.done", { days: 1, game: "CS2" })).toBe("¡Listo! Se ha añadido 1 día de CS2 a tu suscripción.");
    expect(catalogs.t("hi")("gift.give.sent", { recipient: "a", days: 1, game: "CS2" })).toBe("भेज दिया! a को CS2 के 1 दिन मिल गया।");
  });
});

describe("the formatter", () => {
  const catalog: CompiledCatalog = {
    plain: compileMessage("It's {name}'s turn"),
    quoted: compileMessage("Braces: '{name}'; {n, plural, other {'#' is # here}}"),
    exact: compileMessage("{n, plural, =0 {none} one {# item} other {# items}}"),
    offset: compileMessage("{n, plural, offset:1 =0 {nobody} =1 {{who}} one {{who} and # other} other {{who} and # others}}"),
    select: compileMessage("{role, select, admin {Admin {name}} other {User {name}}}"),
    ordinal: compileMessage("{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}"),
    nested: compileMessage("{kind, select, gift {{n, plural, one {# gift day} other {# gift days}}} other {{n, plural, one {# day} other {# days}}}}"),
  };
  const t = createTranslate(catalog, "en") as unknown as (key: string, params?: Record<string, string | number>) => string;

  it("fills {arguments}, keeps quoted ICU syntax and apostrophes as text", () => {
    expect(t("plain", { name: "Ann" })).toBe("It's Ann's turn");
    expect(t("quoted", { n: 2 })).toBe("Braces: {name}; # is 2 here");
  });

  it("chooses =N before the category, applies the offset to #, and selects by value", () => {
    expect([0, 1, 3].map((n) => t("exact", { n }))).toEqual(["none", "1 item", "3 items"]);
    expect([0, 1, 2, 3].map((n) => t("offset", { n, who: "Ann" }))).toEqual(["nobody", "Ann", "Ann and 1 other", "Ann and 2 others"]);
    expect(t("select", { role: "admin", name: "Bo" })).toBe("Admin Bo");
    expect(t("select", { role: "guest", name: "Bo" })).toBe("User Bo");
    expect([1, 2, 3, 4, 11, 21].map((n) => t("ordinal", { n }))).toEqual(["1st", "2nd", "3rd", "4th", "11th", "21st"]);
    expect(t("nested", { n: 1, kind: "gift" })).toBe("1 gift day");
    expect(t("nested", { n: 3, kind: "x" })).toBe("3 days");
  });

  it("shows a missing parameter as {name} and an unknown key as itself, and never throws", () => {
    expect(t("plain")).toBe("It's {name}'s turn");
    expect(t("exact")).toBe("{n}");
    expect(t("no.such.key")).toBe("no.such.key");
    // A count that arrives as text (a stored notification) still picks its form.
    expect(t("exact", { n: "3" })).toBe("3 items");
  });

  it("falls back to the English message when a language lacks the key (server only)", () => {
    const ru = createTranslate({}, "ru", { days: compileMessage("{n, plural, one {# day} other {# days}}") });
    // English's cases, chosen by Russian rules: "few" is missing there, so "other".
    expect((ru as unknown as (k: string, p: object) => string)("days", { n: 2 })).toBe("2 days");
  });

  it("gives the values apart from the text, for e-mails", () => {
    const pieces = createTranslatePieces(catalog, "en") as unknown as (key: string, params?: Record<string, string | number>) => unknown;
    expect(pieces("plain", { name: "<Ann>" })).toEqual([
      { text: "It's ", value: false },
      { text: "<Ann>", value: true },
      { text: "'s turn", value: false },
    ]);
    expect(pieces("exact", { n: 2 })).toEqual([
      { text: "2", value: true },
      { text: " items", value: false },
    ]);
  });
});

describe("compiling", () => {
  it("refuses ICU number, date and time arguments: values are formatted before they are passed", () => {
    expect(() => compileMessage("{n, number}")).toThrow(/format numbers, dates and money before/);
    expect(() => compileMessage("{d, date, short}")).toThrow(/format numbers, dates and money before/);
  });

  it("refuses a plural without `other` and broken syntax", () => {
    expect(() => compileMessage("{n, plural, one {#}}")).toThrow(/invalid ICU message/);
    expect(() => compileMessage("{n")).toThrow(/invalid ICU message/);
  });

  it("keeps text with tag-like parts as text", () => {
    expect(compileMessage("<b>{x}</b>")).toEqual(["<b>", ["x"], "</b>"]);
  });
});

describe("t()'s types", () => {
  it("accept only catalogue keys and the parameters their messages take", () => {
    const t = catalogs.t("en");
    // @ts-expect-error: not a key of the catalogue
    expect(t("no.such.key")).toBe("no.such.key");
    // @ts-expect-error: plural.days needs its count
    expect(t("plural.days")).toBe("{count}");
    // @ts-expect-error: a plural's count is a number
    expect(t("plural.days", { count: "three" })).toBe("NaN days");
    // @ts-expect-error: nav.home takes no parameters
    expect(t("nav.home", { x: 1 })).toBe("Home");
    // @ts-expect-error: product.name needs the days as well
    expect(t("product.name", { game: "CS2" })).toBe("CS2 · {days}");
    // Keys built at run time are checked too: every state has its message.
    const state = "frozen" as "active" | "frozen" | "expired";
    expect(t(`sub.state.${state}`)).toBe("Frozen");
    const unknown = "stale" as "active" | "stale";
    // @ts-expect-error: sub.state.stale is not a key
    expect(t(`sub.state.${unknown}`)).toBe("sub.state.stale");
  });
});
