// /sitemap.xml and /{lang}/sitemap.xml: the public pages of that language, each with its
// alternates in every language (hreflang, cn written zh-CN).
import { LANG_TAG, LOCALES, localePath, type Locale } from "../i18n/locales.ts";
import type { Services } from "./services.ts";
import { SITE_PAGES } from "../core/content/index.ts";

function escapeXml(value: string): string {
  return value.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The public pages: home, presentation, the site pages (docs/product/routes.md#legal-and-support-pages) and each listed game. */
export function publicPaths(services: Services): string[] {
  const games = services.catalog.cheats().filter((c) => c.visible);
  return ["/", "/presentation", ...SITE_PAGES.map((slug) => `/${slug}`), ...games.map((c) => `/${c.slug}`)];
}

export function sitemapXml(services: Services, locale: Locale): string {
  const base = services.settings.PUBLIC_URL;
  const urls = publicPaths(services).map((path) => {
    const alternates = LOCALES.map((l) => `    <xhtml:link rel="alternate" hreflang="${LANG_TAG[l]}" href="${escapeXml(base + localePath(l, path))}"/>`).join("\n");
    return `  <url>\n    <loc>${escapeXml(base + localePath(locale, path))}</loc>\n${alternates}\n  </url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join("\n")}\n</urlset>\n`;
}
