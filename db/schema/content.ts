// The site's own pages that operators edit: terms, privacy, refunds and support, per language
// (docs/product/routes.md#legal-and-support-pages).
import { sql } from "drizzle-orm";
import { check, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import type { Locale } from "../../i18n/locales.ts";

export const SITE_PAGES = ["terms", "privacy", "refunds", "support"] as const;
export type SitePageSlug = (typeof SITE_PAGES)[number];

export const sitePages = pgTable(
  "site_pages",
  {
    slug: text("slug").$type<SitePageSlug>().notNull(),
    locale: text("locale").$type<Locale>().notNull(),
    title: text("title").notNull(),
    /** One sentence under the title, also the page's description for search engines. */
    summary: text("summary").notNull(),
    /** Paragraphs, "## " headings, "- " lists and [links](/path) (docs/product/routes.md#legal-and-support-pages). */
    body: text("body").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.slug, t.locale] }),
    check("site_pages_slug", sql`${t.slug} in ('terms', 'privacy', 'refunds', 'support')`),
    check("site_pages_locale", sql`${t.locale} in ('ru', 'en', 'cn', 'es', 'hi', 'pt', 'id')`),
  ],
);
