// The catalogue checks, shared by `npm test` (i18n/catalogs.test.ts) and `npm run i18n:check`:
// every language has the keys of English, valid ICU messages with the same arguments, plurals with
// exactly its CLDR categories, and real translations, none of the glossary's forbidden variants and
// headings that keep their short words together (docs/product/glossary.md#forbidden-variants); and
// every message key the code writes as a plain string (Zod messages, tables) exists. Keys passed to
// t() are checked by tsc.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { argumentsOf, compileMessage, pluralsOf, textOf } from "./compile.ts";
import { LANG_TAG, type Locale } from "./locales.ts";
import type { SourceCatalog } from "./catalogs.ts";
import { forbiddenIn, type ForbiddenVariant } from "./glossary.ts";
import { bindShortWords, HEADING_KEY } from "./typography.ts";
import type { Compiled } from "./translate.ts";

export type ProblemKind = "keys" | "syntax" | "arguments" | "plural" | "empty" | "untranslated" | "glossary" | "typography";
export type Problem = { kind: ProblemKind; locale: Locale; key?: string; message: string };

/** Strings that are the same in every language: brand and game names, codes, a payment provider's name. */
const SAME_EVERYWHERE = new Set(["home.hero.eyebrow", "receipt.method.paypal", "nav.menu"]);

function compiledOrProblem(locale: Locale, key: string, text: string, problems: Problem[]): Compiled | undefined {
  try {
    return compileMessage(text);
  } catch (error) {
    problems.push({ kind: "syntax", locale, key, message: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}

/** The problems of one language's catalogue, measured against the English one and the glossary's forbidden variants. */
export function checkCatalog(locale: Locale, catalog: SourceCatalog, english: SourceCatalog, forbidden: readonly ForbiddenVariant[] = []): Problem[] {
  const problems: Problem[] = [];
  const add = (kind: ProblemKind, key: string | undefined, message: string) => problems.push({ kind, locale, key, message });

  const missing = Object.keys(english).filter((key) => !(key in catalog));
  const extra = Object.keys(catalog).filter((key) => !(key in english));
  if (missing.length) add("keys", undefined, `missing keys: ${missing.join(", ")}`);
  if (extra.length) add("keys", undefined, `keys English does not have: ${extra.join(", ")}`);

  const categories = {
    plural: new Intl.PluralRules(LANG_TAG[locale]).resolvedOptions().pluralCategories as string[],
    selectordinal: new Intl.PluralRules(LANG_TAG[locale], { type: "ordinal" }).resolvedOptions().pluralCategories as string[],
  };

  for (const [key, text] of Object.entries(catalog)) {
    if (!(key in english)) continue;
    if (typeof text !== "string" || !text.trim()) {
      add("empty", key, "empty message");
      continue;
    }
    const message = compiledOrProblem(locale, key, text, problems);
    const source = compiledOrProblem("en", key, english[key]!, []);
    if (message === undefined || source === undefined) continue;

    // The same arguments as English; a plural or select only where English has one too, since
    // the parameter's type (a number for a plural) comes from the English message.
    const mine = argumentsOf(message);
    const theirs = argumentsOf(source);
    const names = (args: Map<string, unknown>) => [...args.keys()].sort().join(", ");
    if (names(mine) !== names(theirs)) add("arguments", key, `arguments {${names(mine)}}, English has {${names(theirs)}}`);
    for (const [name, kind] of mine) {
      if (kind !== "text" && theirs.has(name) && theirs.get(name) !== kind) add("arguments", key, `{${name}} is a ${kind} here, but not in English`);
    }

    // A count English writes as a plural is a plural in every language, even one with only the
    // category "other": "#" writes the number in the language's digits and grouping, as a
    // plain {count} would not (docs/product/glossary.md#headings-and-buttons).
    const mineCounted = new Set(pluralsOf(message).map((p) => p.argument));
    for (const plural of pluralsOf(source)) {
      if (!mineCounted.has(plural.argument)) add("plural", key, `{${plural.argument}} is a plural in English but not here`);
    }

    // Each plural names exactly the categories of this language (CLDR, as Intl knows them): a
    // missing one would print another form, an extra one is never chosen. =N cases may be added.
    for (const plural of pluralsOf(message)) {
      const want = [...categories[plural.kind]].sort();
      const have = plural.selectors.filter((s) => !s.startsWith("=")).sort();
      if (want.join() !== have.join()) {
        add("plural", key, `{${plural.argument}, ${plural.kind}} has ${have.join("/") || "no"} cases; ${locale} needs ${want.join("/")}`);
      }
    }

    if (
      locale !== "en" &&
      !SAME_EVERYWHERE.has(key) &&
      text === english[key] &&
      !/^E-mail$/i.test(english[key]!) && // the international word in several languages
      /[a-z]{4,}/i.test(textOf(source))
    ) {
      add("untranslated", key, "same text as English");
    }

    for (const variant of forbiddenIn(locale, textOf(message), forbidden)) add("glossary", key, `"${variant.forbidden}" is not our word: use ${variant.useInstead}`);
    if (HEADING_KEY.test(key) && bindShortWords(text, locale) !== text) {
      add("typography", key, `a heading or button must not break after a short word or before a dash: ${JSON.stringify(bindShortWords(text, locale)).replace(/\u00a0/g, "\\u00a0")}`);
    }
  }
  return problems;
}

const SOURCE_DIRS = ["app", "core", "server"];

function sourceFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(full);
    }
  };
  for (const dir of SOURCE_DIRS) walk(path.join(root, dir));
  return files;
}

/**
 * Message keys the code writes as plain strings that English lacks: every quoted string shaped
 * like a key ("validation.too_long") whose first segment is one of the catalogue's ("validation"),
 * and every template prefix (`errors.${…}`) that starts no key. tsc checks t()'s own arguments;
 * this catches keys that travel as data, like the messages of Zod schemas.
 */
export function unknownKeysInCode(root: string, english: SourceCatalog): { file: string; key: string }[] {
  const keys = Object.keys(english);
  const namespaces = new Set(keys.map((key) => key.split(".")[0]));
  const found: { file: string; key: string }[] = [];
  for (const file of sourceFiles(root)) {
    const text = readFileSync(file, "utf8");
    const relative = path.relative(root, file);
    for (const m of text.matchAll(/(["'`])([a-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+)\1/g)) {
      const key = m[2]!;
      if (namespaces.has(key.split(".")[0]) && !(key in english)) found.push({ file: relative, key });
    }
    for (const m of text.matchAll(/`([a-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*\.)\$\{/g)) {
      const prefix = m[1]!;
      if (namespaces.has(prefix.split(".")[0]) && !keys.some((key) => key.startsWith(prefix))) found.push({ file: relative, key: `${prefix}…` });
    }
  }
  return found;
}
