// The glossary's forbidden variants (docs/product/glossary.md#forbidden-variants), read from the
// page itself so the page and the check cannot drift apart: each row of that table is a locale, a
// forbidden text (plain, matched ignoring case, or /regex/flags) and the word to use instead.
import { readFileSync } from "node:fs";
import path from "node:path";
import { isLocale, type Locale } from "./locales.ts";

export const GLOSSARY_FILE = "docs/product/glossary.md";

export type ForbiddenVariant = { locale: Locale; forbidden: string; useInstead: string; test: (text: string) => boolean };

/** The rows of the table under "## Forbidden variants" in the glossary's Markdown. */
export function parseForbiddenVariants(markdown: string): ForbiddenVariant[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith("Forbidden variants"));
  if (!section) throw new Error(`${GLOSSARY_FILE}: no "## Forbidden variants" section`);
  const rows: ForbiddenVariant[] = [];
  for (const line of section.split("\n")) {
    // Cells split at unescaped pipes; "\|" is a pipe inside a cell, as in GitHub's tables.
    const cells = line
      .match(/^\|(.*)\|\s*$/)?.[1]!
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim().replace(/\\\|/g, "|"));
    if (!cells || cells.length !== 3 || cells[0] === "locale" || /^-+$/.test(cells[0]!)) continue;
    const [locale, forbidden, useInstead] = cells as [string, string, string];
    if (!isLocale(locale)) throw new Error(`${GLOSSARY_FILE}: "${locale}" is not a locale of the shop`);
    rows.push({ locale, forbidden, useInstead, test: matcher(forbidden) });
  }
  return rows;
}

function matcher(forbidden: string): (text: string) => boolean {
  const regex = forbidden.match(/^\/(.+)\/([a-z]*)$/);
  if (regex) {
    const re = new RegExp(regex[1]!, regex[2]);
    return (text) => re.test(text);
  }
  const lower = forbidden.toLowerCase();
  return (text) => text.toLowerCase().includes(lower);
}

/** The variants of `locale` a text contains, its {placeholders} left out. */
export function forbiddenIn(locale: Locale, text: string, variants: readonly ForbiddenVariant[]): ForbiddenVariant[] {
  const words = text.replace(/\{[^{}]*\}/g, " ");
  return variants.filter((variant) => variant.locale === locale && variant.test(words));
}

export function readForbiddenVariants(root: string): ForbiddenVariant[] {
  return parseForbiddenVariants(readFileSync(path.join(root, GLOSSARY_FILE), "utf8"));
}
