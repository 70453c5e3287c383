import { LANG_TAG, type Locale } from "../../i18n/locales.ts";
import type { Translate } from "../../i18n/translate.ts";

/** "{n} days" with the language's plural rules: keys `base.one|few|many|other`. */
export function plural(t: Translate, locale: Locale, base: string, count: number): string {
  const rule = new Intl.PluralRules(LANG_TAG[locale]).select(count);
  const key = `${base}.${rule}`;
  const text = t(key, { count });
  return text === key ? t(`${base}.other`, { count }) : text;
}
