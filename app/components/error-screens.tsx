// The not-found screen (docs/product/routes.md#not-found-and-error-screens) and the error page for other statuses.
import { useT } from "../lib/i18n.tsx";
import { useHref } from "../lib/paths.ts";
import { Logo } from "./brand.tsx";

export function NotFoundScreen({ message }: { message?: string }) {
  const t = useT();
  const href = useHref();
  return (
    // The error's message ("Page Not Found: {path}", docs/product/routes.md#not-found-and-error-screens) is for tools and logs, not for reading.
    <main className="error-screen" data-error-message={message}>
      <Logo />
      <p className="error-code" aria-hidden="true">
        404
      </p>
      <h1>{t("notFound.title")}</h1>
      <p className="muted">
        {t("notFound.subtitle")} <a href={href("/")}>{t("notFound.link")}</a>.
      </p>
    </main>
  );
}

export function ErrorScreen({ status, title }: { status: number; title: string }) {
  const t = useT();
  const href = useHref();
  return (
    <main className="error-screen">
      <Logo />
      <p className="error-code" aria-hidden="true">
        {status}
      </p>
      <h1>{title}</h1>
      <p className="muted">
        {t("error.subtitle")} <a href={href("/")}>{t("notFound.link")}</a>.
      </p>
    </main>
  );
}
