// Message lookup and formatting, shared by the server and the browser. Messages are ICU
// MessageFormat ({name}, {count, plural, one {# day} other {# days}}, select); the server compiles
// them once at boot (compile.ts) into the small JSON tree below, so the browser gets that tree
// and this formatter, never a message parser (docs/decisions/0007).
import { LANG_TAG, type Locale } from "./locales.ts";
import type { MessageParams } from "./generated/messages.ts";

/** A compiled message: its text when it has no arguments, else its parts. */
export type Compiled = string | Part[];
export type Part =
  /** Text. */
  | string
  /** `#` inside a plural: the plural's number, in the language's digits. */
  | 0
  /** {name}: the parameter as given. */
  | [name: string]
  /** {name, plural|selectordinal, …}: the case for the number's CLDR category (=N cases first). */
  | [name: string, kind: "plural" | "selectordinal", cases: Record<string, Compiled>, offset: number]
  /** {name, select, …}: the case named by the parameter, else `other`. */
  | [name: string, kind: "select", cases: Record<string, Compiled>];

/** A catalogue as the browser receives it: key → compiled message. */
export type CompiledCatalog = Record<string, Compiled>;

export type Params = Record<string, string | number>;

/** Every key of the English catalogue (i18n/generated/messages.ts, written by `npm run typecheck`). */
export type MessageKey = keyof MessageParams;

type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;

/**
 * The parameters `t(key, …)` takes. For a key written out, exactly the message's arguments (a
 * plural's are numbers; none means none may be passed). For a key computed at run time (a union
 * of keys, e.g. `errors.${code}`), the key is still checked, the parameters are not.
 */
export type ParamsOf<K extends MessageKey> = true extends IsUnion<K> ? [params?: Params] : [keyof MessageParams[K]] extends [never] ? [] : [params: MessageParams[K]];

export type Translate = <K extends MessageKey>(key: K, ...params: ParamsOf<K>) => string;

/** A formatted message in pieces: text of the message, and the values put into it. */
export type Piece = { text: string; value: boolean };
export type TranslatePieces = <K extends MessageKey>(key: K, ...params: ParamsOf<K>) => Piece[];

const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function rulesFor(locale: Locale, type: Intl.PluralRuleType): Intl.PluralRules {
  const key = `${locale}|${type}`;
  let rules = pluralRules.get(key);
  if (!rules) pluralRules.set(key, (rules = new Intl.PluralRules(LANG_TAG[locale], { type })));
  return rules;
}

function numberFormat(locale: Locale): Intl.NumberFormat {
  let format = numberFormats.get(locale);
  if (!format) numberFormats.set(locale, (format = new Intl.NumberFormat(LANG_TAG[locale])));
  return format;
}

/** Walks a message, handing each piece of output to `emit`. A missing parameter shows as {name}. */
function render(message: Compiled, params: Params | undefined, locale: Locale, emit: (text: string, value: boolean) => void, count?: number) {
  if (typeof message === "string") return emit(message, false);
  for (const part of message) {
    if (typeof part === "string") emit(part, false);
    else if (part === 0) emit(count === undefined ? "#" : numberFormat(locale).format(count), true);
    else {
      const value = params?.[part[0]];
      if (value === undefined) emit(`{${part[0]}}`, false);
      else if (part.length === 1) emit(String(value), true);
      else if (part[1] === "select") render(part[2][String(value)] ?? part[2].other!, params, locale, emit, count);
      else {
        const n = Number(value) - part[3];
        const category = rulesFor(locale, part[1] === "plural" ? "cardinal" : "ordinal").select(n);
        render(part[2][`=${Number(value)}`] ?? part[2][category] ?? part[2].other!, params, locale, emit, n);
      }
    }
  }
}

function lookup(catalog: CompiledCatalog, fallback: CompiledCatalog | undefined, key: string): Compiled {
  // A key the catalogue lacks (only possible for keys built from data) shows as itself.
  return catalog[key] ?? fallback?.[key] ?? key;
}

/** `t` for one language; the server passes the English catalogue as a fallback. */
export function createTranslate(catalog: CompiledCatalog, locale: Locale, fallback?: CompiledCatalog): Translate {
  return ((key: string, params?: Params) => {
    let out = "";
    render(lookup(catalog, fallback, key), params, locale, (text) => (out += text));
    return out;
  }) as Translate;
}

/** Like `t`, in pieces: for e-mails, which escape the text and set the values in bold. */
export function createTranslatePieces(catalog: CompiledCatalog, locale: Locale, fallback?: CompiledCatalog): TranslatePieces {
  return ((key: string, params?: Params) => {
    const pieces: Piece[] = [];
    render(lookup(catalog, fallback, key), params, locale, (text, value) => pieces.push({ text, value }));
    return pieces;
  }) as TranslatePieces;
}
