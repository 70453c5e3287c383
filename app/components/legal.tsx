// The site pages' own pieces (docs/product/routes.md#legal-and-support-pages): the links between
// them, the support contacts, and the line of links checkout and payment pages show.
import type { SitePageSlug } from "../../core/content/index.ts";
import { SITE_PAGES } from "../../core/content/slugs.ts";
import { useT } from "../lib/i18n.tsx";
import { useHref } from "../lib/paths.ts";

export type SupportContact = { kind: "email" | "telegram" | "discord"; label: string; href: string };

/** The messengers' own names, the same in every language. */
const NAMES = { telegram: "Telegram", discord: "Discord" } as const;

/** The four pages, the current one marked: at the top of each. */
export function LegalNav({ current }: { current?: SitePageSlug }) {
  const t = useT();
  const href = useHref();
  return (
    <nav aria-label={t("legal.nav.label")}>
      <ul className="legal-nav">
        {SITE_PAGES.map((slug) => (
          <li key={slug}>
            <a href={href(`/${slug}`)} aria-current={slug === current ? "page" : undefined}>
              {t(`legal.nav.${slug}`)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function SupportContacts({ contacts }: { contacts: SupportContact[] }) {
  const t = useT();
  return (
    <ul className="contacts" aria-label={t("legal.contacts.label")}>
      {contacts.map((c) => (
        <li key={c.kind}>
          <span className="muted small">{c.kind === "email" ? t("legal.contacts.email") : NAMES[c.kind]}</span>
          <a href={c.href} rel={c.kind === "email" ? undefined : "noopener"}>
            {c.label}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** "Terms · Refunds · Support": the line under a checkout or a payment's result. */
export function LegalLinks({ pages = ["terms", "refunds", "support"] }: { pages?: SitePageSlug[] }) {
  const t = useT();
  const href = useHref();
  return (
    <p className="legal-links small">
      {pages.map((slug, i) => (
        <span key={slug}>
          {i > 0 && " · "}
          <a href={href(`/${slug}`)}>{t(`legal.nav.${slug}`)}</a>
        </span>
      ))}
    </p>
  );
}
