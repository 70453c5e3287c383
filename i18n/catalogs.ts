// Loads the seven message catalogues (server side), compiles their ICU messages once, and gives
// each compiled catalogue a content hash, used in the URL /_i18n/{hash}/{locale}/messages.json so
// browsers may cache it. A message that does not compile stops the boot, naming it.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compileMessage } from "./compile.ts";
import { LOCALES, type Locale } from "./locales.ts";
import { createTranslate, createTranslatePieces, type CompiledCatalog, type Translate, type TranslatePieces } from "./translate.ts";

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "messages");

/** A catalogue as written: key → ICU MessageFormat text. */
export type SourceCatalog = Record<string, string>;

export type Catalogs = {
  hash: string;
  messages(locale: Locale): CompiledCatalog;
  json(locale: Locale): string;
  t(locale: Locale): Translate;
  /** `t` in pieces, for e-mails. */
  pieces(locale: Locale): TranslatePieces;
  url(locale: Locale): string;
};

/** A catalogue's file as written. */
function catalogText(locale: Locale): string {
  return readFileSync(path.join(dir, `${locale}.json`), "utf8");
}

export function readCatalog(locale: Locale): SourceCatalog {
  return JSON.parse(catalogText(locale)) as SourceCatalog;
}

export function compileCatalog(locale: Locale, source: SourceCatalog = readCatalog(locale)): CompiledCatalog {
  const compiled: CompiledCatalog = {};
  for (const [key, text] of Object.entries(source)) {
    try {
      compiled[key] = compileMessage(text);
    } catch (error) {
      throw new Error(`i18n/messages/${locale}.json, "${key}": ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return compiled;
}

/** The last catalogues compiled, by the digest of their sources: a boot with unchanged files reuses them. */
let lastLoaded: { sources: string; catalogs: Catalogs } | undefined;

/**
 * The compiled catalogues. Compiling every ICU message of seven languages is most of the CPU of
 * loading them; the shop boots again on the same files (`npm run dev` after an edit of code, each
 * test file of a worker), so the result is kept while the files' text is the same.
 */
export function loadCatalogs(): Catalogs {
  const texts = LOCALES.map(catalogText);
  const sources = createHash("sha256").update(texts.join("\0")).digest("hex");
  if (lastLoaded?.sources !== sources) lastLoaded = { sources, catalogs: compileCatalogs(texts) };
  return lastLoaded.catalogs;
}

function compileCatalogs(texts: string[]): Catalogs {
  const json = new Map<Locale, string>();
  const messages = new Map<Locale, CompiledCatalog>();
  const hasher = createHash("sha256");
  for (const [i, locale] of LOCALES.entries()) {
    const catalog = compileCatalog(locale, JSON.parse(texts[i]!) as SourceCatalog);
    messages.set(locale, catalog);
    const text = JSON.stringify(catalog);
    json.set(locale, text);
    hasher.update(locale).update(text);
  }
  const english = messages.get("en");
  const translators = new Map(LOCALES.map((locale) => [locale, createTranslate(messages.get(locale)!, locale, english)]));
  const pieces = new Map(LOCALES.map((locale) => [locale, createTranslatePieces(messages.get(locale)!, locale, english)]));
  const hash = hasher.digest("hex").slice(0, 12);
  return {
    hash,
    messages: (locale) => messages.get(locale)!,
    json: (locale) => json.get(locale)!,
    t: (locale) => translators.get(locale)!,
    pieces: (locale) => pieces.get(locale)!,
    url: (locale) => `/_i18n/${hash}/${locale}/messages.json`,
  };
}
