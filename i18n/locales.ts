// The seven interface languages, their URL prefixes and negotiation. Shared by server and browser.

export const LOCALES = ["ru", "en", "cn", "es", "hi", "pt", "id"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "ru";

/** BCP 47 tag for `<html lang>`, hreflang and the sitemap: the `cn` prefix is written zh-CN. */
export const LANG_TAG: Record<Locale, string> = {
  ru: "ru",
  en: "en",
  cn: "zh-CN",
  es: "es",
  hi: "hi",
  pt: "pt",
  id: "id",
};

/** Name of each language in itself, for the language switcher. */
export const LOCALE_NAMES: Record<Locale, string> = {
  ru: "Русский",
  en: "English",
  cn: "中文",
  es: "Español",
  hi: "हिन्दी",
  pt: "Português",
  id: "Bahasa Indonesia",
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** Splits a pathname into its locale and the unprefixed path ("/en/minecraft" → en, "/minecraft"). */
export function splitLocale(pathname: string): { locale: Locale; path: string } {
  const match = /^\/([a-z]{2})(?=\/|$)/.exec(pathname);
  if (match && isLocale(match[1]) && match[1] !== DEFAULT_LOCALE) {
    return { locale: match[1], path: pathname.slice(3) || "/" };
  }
  return { locale: DEFAULT_LOCALE, path: pathname || "/" };
}

/** The path of `path` (unprefixed, starting with "/") in `locale`. */
export function localePath(locale: Locale, path: string): string {
  if (locale === DEFAULT_LOCALE) return path;
  return path === "/" ? `/${locale}` : `/${locale}${path}`;
}

/** Maps a browser language tag to our locale: zh* → cn, pt-BR → pt, in → id (old code for Indonesian). */
function tagToLocale(tag: string): Locale | undefined {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? "";
  if (primary === "zh") return "cn";
  if (primary === "in") return "id";
  return isLocale(primary) ? primary : undefined;
}

/** The best supported locale for an Accept-Language header, by q-value, or undefined. */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale | undefined {
  if (!acceptLanguage) return undefined;
  const ranked = acceptLanguage
    .split(",")
    .slice(0, 20)
    .map((part, index) => {
      const [tag = "", ...params] = part.split(";");
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag, q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0 && !Number.isNaN(entry.q))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const entry of ranked) {
    const locale = tagToLocale(entry.tag);
    if (locale) return locale;
  }
  return undefined;
}

/**
 * The language of a visit to "/" (docs/product/routes.md#language-detection): the `locale` cookie
 * (set by the switcher and by every page view) wins, then the host (`LOCALE_HOSTS`), then the
 * browser's languages; Russian when none says otherwise. A cookie that names no language of ours
 * counts as absent.
 */
export function rootLocale(visit: { cookie?: string; host?: string; acceptLanguage?: string | null }, hosts: ReadonlyMap<string, Locale> = new Map()): Locale {
  if (isLocale(visit.cookie)) return visit.cookie;
  const byHost = visit.host ? hosts.get(visit.host.toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "")) : undefined;
  if (byHost) return byHost;
  return negotiateLocale(visit.acceptLanguage) ?? DEFAULT_LOCALE;
}
