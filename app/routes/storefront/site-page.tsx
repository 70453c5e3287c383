// /terms, /privacy, /refunds and /support (docs/product/routes.md#legal-and-support-pages): the
// operator's text of the page in the visitor's language (a default ships with the shop), with
// the support contacts on the support page. Static: no client code, cached for guests.
import type { RouteHandle } from "../../root.tsx";
import { Markup } from "../../components/markup.tsx";
import { LegalNav, SupportContacts } from "../../components/legal.tsx";
import { useT } from "../../lib/i18n.tsx";
import { formatDate } from "../../../i18n/format.ts";
import { notFound, pageMeta, stylesheets } from "../../lib/meta.ts";
import { supportContacts } from "../../lib/support.server.ts";
import { isSitePage, parseMarkup } from "../../../core/content/index.ts";
import contentStylesheet from "../../styles/content.css?url";
import type { Route } from "./+types/site-page.ts";

export const links = stylesheets(contentStylesheet);

export function loader({ context, url }: Route.LoaderArgs) {
  const { services, locale, path } = context;
  const slug = path.slice(1);
  const page = isSitePage(slug) ? services.content.page(slug, locale) : undefined;
  if (!page) notFound(url);
  return {
    slug: page.slug,
    title: page.title,
    summary: page.summary,
    blocks: parseMarkup(page.body, { support_email: services.settings.SUPPORT_EMAIL }, page.locale),
    updatedAt: page.updatedAt,
    contacts: page.slug === "support" ? supportContacts(services.settings) : [],
    meta: { title: page.title, description: page.summary },
  };
}

/** Static page: served without client code (docs/decisions/0001-static-storefront.md). */
export const handle: RouteHandle = { hydrate: false };

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export default function SitePage({ loaderData: { slug, title, summary, blocks, updatedAt, contacts } }: Route.ComponentProps) {
  const t = useT();
  return (
    <main id="main" className="section container">
      <article className="site-page" aria-labelledby="page-title">
        <LegalNav current={slug} />
        <h1 id="page-title">{title}</h1>
        <p className="lead">{summary}</p>
        {contacts.length > 0 && <SupportContacts contacts={contacts} />}
        <Markup blocks={blocks} />
        <p className="muted small updated">{t("legal.updated", { date: formatDate(updatedAt, { time: false }) })}</p>
      </article>
    </main>
  );
}
