// The not-found screen (docs/product/routes.md#not-found-and-error-screens) and the error page for other statuses.
import { useT } from "../lib/i18n.tsx";
import { useHref } from "../lib/paths.ts";
import { useRootData } from "../root.tsx";
import { Logo } from "./brand.tsx";

export function NotFoundScreen({ message }: { message?: string }) {
  const t = useT();
  const href = useHref();
  const games = useRootData()?.games ?? [];
  return (
    // The error's message ("Page Not Found: {path}", docs/product/routes.md#not-found-and-error-screens) is for tools and logs, not for reading.
    <main id="main" className="error-screen" data-error-message={message}>
      <Logo />
      <p className="error-code" aria-hidden="true">
        404
      </p>
      {/* React puts the title into the head; the page has no canonical or alternates (root.tsx). */}
      <title>{`${t("notFound.title")} · NOVA`}</title>
      <h1>{t("notFound.title")}</h1>
      <p className="muted">
        {t("notFound.subtitle")} <a href={href("/")}>{t("notFound.link")}</a>
        {t("error.linkEnd")}
      </p>
      {games.length > 0 && (
        <nav className="error-games" aria-label={t("nav.games")}>
          <p>{t("notFound.games")}</p>
          <ul>
            {games.map((g) => (
              <li key={g.slug}>
                <a className="btn btn-secondary btn-small" href={href(`/${g.slug}`)}>
                  {g.name}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </main>
  );
}

export function ErrorScreen({ status, title }: { status: number; title: string }) {
  const t = useT();
  const href = useHref();
  return (
    <main id="main" className="error-screen">
      <Logo />
      <p className="error-code" aria-hidden="true">
        {status}
      </p>
      <title>{`${title} · NOVA`}</title>
      <h1>{title}</h1>
      <p className="muted">
        {t("error.subtitle")} <a href={href("/")}>{t("notFound.link")}</a>
        {t("error.linkEnd")}
      </p>
    </main>
  );
}
