// The site's own pages that operators edit — terms, privacy, refunds, support — per language
// (docs/product/routes.md#legal-and-support-pages). Few and read by public pages, so held in
// memory like the catalogue and reloaded when they change; `version` joins the page cache's key.
import type { Db } from "../../db/client.ts";
import { sitePages, type SitePageSlug } from "../../db/schema/index.ts";
import { DEFAULT_LOCALE, type Locale } from "../../i18n/locales.ts";
import { SITE_PAGES } from "./slugs.ts";
import { createChanges } from "../shared/changes.ts";

export { SITE_PAGES } from "./slugs.ts";
export type { SitePageSlug } from "../../db/schema/index.ts";
export { parseMarkup, type Block, type Inline } from "./markup.ts";

export type SitePage = { slug: SitePageSlug; locale: Locale; title: string; summary: string; body: string; updatedAt: Date };

export function isSitePage(slug: string): slug is SitePageSlug {
  return (SITE_PAGES as readonly string[]).includes(slug);
}

export type Content = ReturnType<typeof createContent>;

export function createContent({ db }: { db: Db }) {
  let pages: Map<string, SitePage> | undefined;
  const changes = createChanges();
  const key = (slug: SitePageSlug, locale: Locale) => `${slug}|${locale}`;

  return {
    /** Reads the pages from the database; at boot and after every change of them. */
    async reload() {
      const rows = await db.select().from(sitePages);
      pages = new Map(rows.map((row) => [key(row.slug, row.locale), row]));
      changes.changed();
    },
    get version() {
      return changes.version;
    },
    onChange: changes.onChange,
    /** A page in `locale`, else in English, else in Russian; undefined when none was written. */
    page(slug: SitePageSlug, locale: Locale): SitePage | undefined {
      if (!pages) throw new Error("content not loaded: call content.reload() at boot");
      for (const l of [locale, "en", DEFAULT_LOCALE] as const) {
        const page = pages.get(key(slug, l));
        if (page) return page;
      }
      return undefined;
    },
  };
}
