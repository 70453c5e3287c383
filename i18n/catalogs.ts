// Loads the seven message catalogues (server side) and gives each a content hash, used in the
// URL /_i18n/{hash}/{locale}/messages.json so browsers may cache it.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LOCALES, type Locale } from "./locales.ts";
import { createTranslate, type Messages, type Translate } from "./translate.ts";

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "messages");

export type Catalogs = {
  hash: string;
  messages(locale: Locale): Messages;
  json(locale: Locale): string;
  t(locale: Locale): Translate;
  url(locale: Locale): string;
};

export function readCatalog(locale: Locale): Messages {
  return JSON.parse(readFileSync(path.join(dir, `${locale}.json`), "utf8")) as Messages;
}

export function loadCatalogs(): Catalogs {
  const json = new Map<Locale, string>();
  const messages = new Map<Locale, Messages>();
  const translators = new Map<Locale, Translate>();
  const hasher = createHash("sha256");
  for (const locale of LOCALES) {
    const catalog = readCatalog(locale);
    messages.set(locale, catalog);
    const text = JSON.stringify(catalog);
    json.set(locale, text);
    hasher.update(locale).update(text);
  }
  const english = messages.get("en");
  for (const locale of LOCALES) translators.set(locale, createTranslate(messages.get(locale)!, english));
  const hash = hasher.digest("hex").slice(0, 12);
  return {
    hash,
    messages: (locale) => messages.get(locale)!,
    json: (locale) => json.get(locale)!,
    t: (locale) => translators.get(locale)!,
    url: (locale) => `/_i18n/${hash}/${locale}/messages.json`,
  };
}
