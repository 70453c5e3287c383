// The back office's layout (docs/product/back-office.md#pages): operators only (the entry refuses
// buyers, and operators without two-factor codes with the way to turn them on), the sections' nav,
// who is signed in with which role, and whether the step-up window is open. The sections are
// children of this route (app/routes.ts's adminPages); the nav lists them all, in ADMIN_SECTIONS.
// No page of the back office runs a script: everything is a link or a form post.
import { isRouteErrorResponse, Link, NavLink, useOutlet, useRouteError } from "react-router";
import { Logo } from "../../components/brand.tsx";
import { ErrorScreen, NotFoundScreen } from "../../components/error-screens.tsx";
import { LanguageSwitcher } from "../../components/site-chrome.tsx";
import { Badge, ButtonLink, Card } from "../../components/ui/primitives.tsx";
import { Icon, type IconName } from "../../components/ui/icons.tsx";
import { requireOperatorPage, stepUpState, type AdminRefusal } from "../../lib/admin.server.ts";
import { useFormatDate } from "../../lib/dates.ts";
import { useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { pageMeta, stylesheets } from "../../lib/meta.ts";
import type { RouteHandle } from "../../root.tsx";
import accountStylesheet from "../../styles/account.css?url";
import adminStylesheet from "../../styles/admin.css?url";
import catalogueStylesheet from "../../styles/admin-catalogue.css?url";
import type { Route } from "./+types/layout.ts";

export const handle: RouteHandle = { hydrate: false };

export const links = stylesheets(accountStylesheet, adminStylesheet, catalogueStylesheet);

export function loader({ context, request, url }: Route.LoaderArgs) {
  const operator = requireOperatorPage(context, request, url);
  return {
    operator: { email: operator.email, role: operator.role },
    stepUpUntil: stepUpState(context, operator),
    meta: { title: context.t("admin.title"), description: context.t("admin.title") },
  };
}

/** The refusal of the entry, when that is the error a page of the back office ended in. */
function refusalOf(error: unknown): AdminRefusal | undefined {
  return isRouteErrorResponse(error) && error.data && typeof error.data === "object" && "refusal" in error.data ? (error.data as AdminRefusal) : undefined;
}

/** The page's title: the section's (its loader's), or the refusal's. */
export const meta = ({ data, error }: Route.MetaArgs) => {
  const refusal = refusalOf(error);
  return refusal ? [{ title: `${refusal.title} · NOVA` }] : pageMeta(data);
};

/**
 * The sections, in the nav's order. The dashboard (the index), the catalogue and delivery are
 * their own engineers' pages; a section's path is under /admin.
 */
export const ADMIN_SECTIONS: readonly { path: string; key: AdminSection; icon: IconName }[] = [
  { path: "", key: "dashboard", icon: "bolt" },
  { path: "/customers", key: "customers", icon: "user" },
  { path: "/payments", key: "payments", icon: "download" },
  { path: "/catalogue", key: "catalogue", icon: "gamepad" },
  { path: "/compensation", key: "compensation", icon: "gift" },
  { path: "/delivery", key: "delivery", icon: "globe" },
  { path: "/audit", key: "audit", icon: "shield" },
];

type AdminSection = "dashboard" | "customers" | "payments" | "catalogue" | "compensation" | "delivery" | "audit";

export default function AdminLayout({ loaderData: { operator, stepUpUntil } }: Route.ComponentProps) {
  const t = useT();
  const href = useHref();
  const date = useFormatDate();
  const outlet = useOutlet();
  return (
    <div className="layout layout-admin">
      <header className="admin-header">
        <Logo />
        <span className="admin-title">{t("admin.title")}</span>
        <div className="admin-who">
          <span className="admin-email" title={operator.email}>
            {operator.email}
          </span>
          <Badge tone={operator.role === "owner" ? "accent" : "muted"}>{t(`admin.role.${operator.role}`)}</Badge>
          <Badge tone={stepUpUntil ? "success" : "muted"}>{stepUpUntil ? t("admin.stepUp.badgeOpen", { until: date(stepUpUntil, { time: true }) }) : t("admin.stepUp.badgeClosed")}</Badge>
        </div>
        <LanguageSwitcher />
      </header>
      <div className="admin-shell">
        <nav aria-label={t("admin.nav.label")} className="admin-nav">
          {ADMIN_SECTIONS.map((s) => (
            <NavLink key={s.key} to={href(`/admin${s.path}`)} end={s.path === ""}>
              <Icon name={s.icon} size={16} /> {t(`admin.nav.${s.key}`)}
            </NavLink>
          ))}
          <Link to={href("/")} className="admin-shop-link">
            {t("admin.nav.shop")}
          </Link>
        </nav>
        <main id="main" className="admin-main">
          {outlet ?? <Welcome />}
        </main>
      </div>
    </div>
  );
}

/** /admin before the dashboard exists: the sections, each a card. */
function Welcome() {
  const t = useT();
  const href = useHref();
  return (
    <section aria-labelledby="admin-welcome">
      <h1 id="admin-welcome">{t("admin.welcome.title")}</h1>
      <ul className="admin-cards">
        {ADMIN_SECTIONS.filter((s) => s.path !== "").map((s) => (
          <li key={s.key}>
            <Link to={href(`/admin${s.path}`)} className="card admin-card">
              <Icon name={s.icon} size={20} /> {t(`admin.nav.${s.key}`)}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The entry's refusals (docs/product/back-office.md#entry), and any other error of a back-office page. */
export function ErrorBoundary() {
  const error = useRouteError();
  const t = useT();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundScreen message={typeof error.data === "string" ? error.data : undefined} />;
  const refusal = refusalOf(error);
  if (!refusal) {
    const status = isRouteErrorResponse(error) ? error.status : 500;
    return <ErrorScreen status={status} title={t(status >= 500 ? "error.server.title" : "error.generic.title")} />;
  }
  return (
    <main id="main" className="error-screen admin-refusal">
      <Logo />
      <Card className="admin-refusal-card">
        <h1 className="h3">{t("admin.entry.title")}</h1>
        <p role="alert">{refusal.message}</p>
        {refusal.refusal === "two_fa_required" && <p className="muted">{t("admin.entry.twoFaLead")}</p>}
        {refusal.refusal !== "operators_only" && (
          <ButtonLink to={refusal.settings}>{refusal.refusal === "two_fa_required" ? t("admin.entry.twoFaLink") : t("admin.entry.settingsLink")}</ButtonLink>
        )}
      </Card>
    </main>
  );
}
