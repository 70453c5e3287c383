import { formatMoney } from "../../core/shared/money.ts";
import { LANG_TAG, type Locale } from "../../i18n/locales.ts";
import type { Translate } from "../../i18n/translate.ts";

export function formatPrice(minor: number, currency: string, locale: Locale): string {
  return formatMoney(minor, currency, LANG_TAG[locale]);
}

/** "{n} days" with the language's plural rules: keys `base.one|few|many|other`. */
export function plural(t: Translate, locale: Locale, base: string, count: number): string {
  const rule = new Intl.PluralRules(LANG_TAG[locale]).select(count);
  const key = `${base}.${rule}`;
  const text = t(key, { count });
  return text === key ? t(`${base}.other`, { count }) : text;
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * Dates as the spec shows them: dd.MM.yyyy HH:mm (or dd.MM.yyyy). In UTC, so that the server's
 * render and the browser's hydration agree.
 */
export function formatDate(iso: string | Date, withTime = true): string {
  const d = typeof iso === "string" ? new Date(iso) : iso;
  const date = `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()}`;
  return withTime ? `${date} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}` : date;
}
