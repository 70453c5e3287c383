// Localised links: every internal link is written as an unprefixed path and localised here.
import { localePath } from "../../i18n/locales.ts";
import { useLocale } from "./i18n.tsx";

export function useHref(): (path: string) => string {
  const locale = useLocale();
  return (path) => localePath(locale, path);
}
