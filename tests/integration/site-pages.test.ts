// The pages that earn a buyer's trust (docs/product/routes.md#legal-and-support-pages, issue 9
// point 7): terms, privacy, refunds and support in every language, from texts operators can edit
// (a default ships), with the support contacts; linked from the footer, the sitemap and every mail.
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sitePages } from "../../db/schema/index.ts";
import { DEFAULT_SITE_PAGES } from "../../db/content/index.ts";
import { LANG_TAG, LOCALES, localePath, type Locale } from "../../i18n/locales.ts";
import { MAIL_TEMPLATE_IDS } from "../../core/mail/index.ts";
import { SITE_PAGES } from "../../core/content/index.ts";
import { TEST_ORIGIN, useTestApp } from "../kit/app.ts";
import { pageText } from "../kit/html.ts";

const SUPPORT = { email: "help@nova.example", telegram: "nova_help", discord: "https://discord.gg/nova-help" };
const shop = useTestApp({ env: { SUPPORT_EMAIL: SUPPORT.email, SUPPORT_TELEGRAM: `@${SUPPORT.telegram}`, SUPPORT_DISCORD: SUPPORT.discord } });
const t = (locale: Locale) => shop.services.catalogs.t(locale);

async function open(pathname: string) {
  const res = await shop.request(pathname);
  const html = await res.text();
  return { status: res.status, html, text: pageText(html) };
}

describe("the site pages", () => {
  it.each(LOCALES)("exist in %s, each with its text, the support address filled in and links kept in the language", async (locale) => {
    for (const slug of SITE_PAGES) {
      const page = await open(localePath(locale, `/${slug}`));
      expect(page.status, `${slug} ${locale}`).toBe(200);
      const stored = shop.services.content.page(slug, locale)!;
      expect(stored.locale).toBe(locale);
      expect(page.html).toContain(`<html lang="${LANG_TAG[locale]}"`);
      expect(page.html).toMatch(new RegExp(`<h1 id="page-title">${stored.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}</h1>`));
      expect(page.text).toContain(stored.summary);
      expect(page.html).not.toContain("{support_email}");
      expect(page.html).not.toMatch(/\[[^\]]+\]\(\//); // no link left in its source form
      // The other pages are linked in the page's language, from the text and from the top of the page.
      for (const other of SITE_PAGES) expect(page.html).toContain(`href="${localePath(locale, `/${other}`)}"`);
      // And from the site's footer.
      expect(page.html).toContain(`>${t(locale)(`legal.nav.${slug}`)}</a>`);
    }
    const refunds = await open(localePath(locale, "/refunds"));
    expect(refunds.text).toContain(SUPPORT.email);
  });

  it("are written for each language, not copied from English", () => {
    for (const locale of LOCALES.filter((l) => l !== "en")) {
      for (const slug of SITE_PAGES) expect(DEFAULT_SITE_PAGES[locale][slug].body, `${slug} ${locale}`).not.toBe(DEFAULT_SITE_PAGES.en[slug].body);
    }
  });

  it("the support page lists every contact the settings name", async () => {
    const page = await open("/en/support");
    expect(page.html).toContain(`href="mailto:${SUPPORT.email}"`);
    expect(page.html).toContain(`href="https://t.me/${SUPPORT.telegram}"`);
    expect(page.text).toContain(`@${SUPPORT.telegram}`);
    expect(page.html).toContain(`href="${SUPPORT.discord}"`);
  });

  it("are public pages: in every sitemap, cached for guests, and only under the language prefixes", async () => {
    for (const locale of LOCALES) {
      const xml = await (await shop.request(localePath(locale, "/sitemap.xml"))).text();
      for (const slug of SITE_PAGES) expect(xml).toContain(`<loc>${TEST_ORIGIN}${localePath(locale, `/${slug}`)}</loc>`);
    }
    expect((await open("/ru/terms")).status).toBe(404);
    expect((await open("/en/terms/more")).status).toBe(404);
  });

  it("show an operator's edit at once, as text: nothing an operator types becomes markup", async () => {
    const { db, content } = shop.services;
    expect((await open("/en/privacy")).status).toBe(200); // cached now
    const where = and(eq(sitePages.slug, "privacy"), eq(sitePages.locale, "en"));
    const [before] = await db.select().from(sitePages).where(where);
    await db.update(sitePages).set({ body: "## New heading\n- first point\n<script>alert(1)</script> and [a trap](javascript:alert(1)) and [refunds](/refunds)" }).where(where);
    await content.reload();
    try {
      const page = await open("/en/privacy");
      expect(page.html).toContain("<h2>New heading</h2>");
      expect(page.html).toContain("<li>first point</li>");
      expect(page.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
      expect(page.html).not.toContain("<script>alert");
      expect(page.html).not.toContain('href="javascript:');
      expect(page.html).toContain('<a href="/en/refunds">refunds</a>');
    } finally {
      await db.update(sitePages).set({ body: before!.body }).where(where);
      await content.reload();
    }
  });

  it("fall back to English, then Russian, for a language an operator has not written yet", async () => {
    const { db, content } = shop.services;
    const where = and(eq(sitePages.slug, "terms"), eq(sitePages.locale, "hi"));
    const [hindi] = await db.select().from(sitePages).where(where);
    await db.delete(sitePages).where(where);
    await content.reload();
    try {
      const page = await open("/hi/terms");
      expect(page.status).toBe(200);
      expect(page.text).toContain(DEFAULT_SITE_PAGES.en.terms.title);
      // The page around it still speaks Hindi.
      expect(page.html).toContain('<html lang="hi"');
    } finally {
      await db.insert(sitePages).values(hindi!);
      await content.reload();
    }
  });
});

describe("every mail", () => {
  it.each(LOCALES)("in %s links support, terms, privacy and refunds in its footer", (locale) => {
    const links = SITE_PAGES.map((slug) => `${TEST_ORIGIN}${localePath(locale, `/${slug}`)}`);
    for (const template of MAIL_TEMPLATE_IDS) {
      // The parameters of every template at once, the receipt's and the refund claim's included.
      const params = {
        code: "123456",
        link: `${TEST_ORIGIN}/x`,
        newEmail: "a@example.com",
        game: "Dota 2",
        days: 7,
        from: null,
        date: new Date(),
        number: "R-1",
        orderRef: "INV-1",
        sale: { kind: "purchase", method: "balance", items: [{ game: "Dota 2", days: 7, price: 499 }], total: 499, currency: "USD" },
        seller: { name: "NOVA", supportEmail: "help@example.com" },
        refund: { amount: 499, currency: "USD" },
      };
      const mail = shop.services.mailer.render({ to: "someone@example.com", locale, template, params } as never);
      for (const link of links) {
        expect(mail.text, `${template} ${locale}`).toContain(link);
        expect(mail.html).toContain(`href="${link}"`);
      }
      for (const slug of SITE_PAGES) expect(mail.html).toContain(`>${t(locale)(`legal.nav.${slug}`)}</a>`);
    }
  });
});
