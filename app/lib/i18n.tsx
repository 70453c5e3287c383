// The interface's translations: a provider filled by the server entry (from memory) and by the
// browser entry (from /_i18n/{hash}/{locale}/messages.json), both with the catalogue the server
// compiled, and the hooks that read it.
import { createContext, useContext, useMemo, type ReactNode } from "react";
import { LANG_TAG, type Locale } from "../../i18n/locales.ts";
import { createTranslate, type CompiledCatalog, type Translate } from "../../i18n/translate.ts";

type I18n = { locale: Locale; t: Translate };

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ locale, messages, children }: { locale: Locale; messages: CompiledCatalog; children: ReactNode }) {
  const value = useMemo(() => ({ locale, t: createTranslate(messages, locale) }), [locale, messages]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

function useI18n(): I18n {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error("I18nProvider is missing");
  return i18n;
}

export function useT(): Translate {
  return useI18n().t;
}

export function useLocale(): Locale {
  return useI18n().locale;
}

export function useLangTag(): string {
  return LANG_TAG[useI18n().locale];
}
