// The document: language attributes, alternates and canonical link, the message catalogue
// preload, and the error screens (docs/product/routes.md#not-found-and-error-screens).
import { isRouteErrorResponse, UNSAFE_FrameworkContext, Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useNavigation, useRouteError, useRouteLoaderData } from "react-router";
import { useContext, type ReactNode } from "react";
import { LANG_TAG, LOCALES, localePath } from "../i18n/locales.ts";
import { isTimeZone } from "../i18n/format.ts";
import { PAGE_SCRIPTS } from "../server/http/page-scripts.ts";
import { readCookie } from "./lib/guards.server.ts";
import { useLangTag, useLocale, useT } from "./lib/i18n.tsx";
import { NotFoundScreen, ErrorScreen } from "./components/error-screens.tsx";
import stylesheet from "./styles/app.css?url";
import type { Route } from "./+types/root.ts";

export function links() {
  return [
    { rel: "stylesheet", href: stylesheet },
    { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  ];
}

export async function loader({ context, request, url }: Route.LoaderArgs) {
  const { locale, path, services, auth, t } = context;
  // Times in the visitor's zone (docs/product/routes.md#dates-and-amounts): the `tz` cookie, else
  // the one stored on the account; UTC until known. A guest's page is the same for every guest (the
  // page cache), so it speaks UTC.
  const tz = readCookie(request, "tz");
  const timeZone = auth ? (isTimeZone(tz) ? tz : (auth.user.timeZone ?? "UTC")) : "UTC";
  // The header's inbox (docs/product/accounts.md#notifications): never fails the page.
  const inbox = auth ? await services.notifications.inbox(auth.user.id, t).catch((err: unknown) => (services.logger.error({ err }, "inbox failed"), null)) : null;
  // The account menu's game (balance, referral, settings are per game) and the 404's suggestions.
  // Visible games only: a hidden one has no page (docs/product/back-office.md#catalogue).
  const games = services.catalog
    .cheats()
    .filter((cheat) => cheat.visible)
    .map(({ slug, name }) => ({ slug, name }));
  const stored = readCookie(request, "game");
  const game = games.find((g) => g.slug === stored)?.slug ?? games[0]?.slug ?? "dota2";
  return {
    timeZone,
    inbox,
    games,
    game,
    locale,
    path,
    /** The page's query ("?product=3"), which the language switcher keeps; "" for none. */
    search: url.search,
    signedIn: Boolean(auth),
    publicUrl: services.settings.PUBLIC_URL,
    i18nUrl: services.catalogs.url(locale),
  };
}

/** The root's data, for the layout and the site chrome; undefined on an error screen before it loaded. */
export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

/** A route whose page needs no client code sets `handle = { hydrate: false }` (docs/decisions). */
export type RouteHandle = { hydrate?: boolean };

/** Whether a page hydrates: no route of its chain (their handles, root first) says `hydrate: false`. */
export function chainHydrates(handles: readonly unknown[]): boolean {
  return !handles.some((handle) => (handle as RouteHandle | undefined)?.hydrate === false);
}

function useHydrate(): boolean {
  return chainHydrates(useMatches().map((m) => m.handle));
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRootData();
  const locale = useLocale();
  const langTag = useLangTag();
  const hydrate = useHydrate();
  const t = useT();
  const error = useRouteError();
  return (
    // A signed-in page names the zone its times are drawn in, which the time zone's script compares
    // with the browser's (docs/decisions/0031-the-zone-before-the-cookie.md); a guest's page, the
    // same for every guest (the page cache), names none.
    <html lang={langTag} data-locale={locale} data-tz={data?.signedIn ? data.timeZone : undefined} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="dark" />
        <Meta />
        <PageScript name="timeZone" />
        {/* An error screen (a 404 included) is no page to index: no canonical, no alternates. */}
        {data && !error && <Alternates path={data.path} publicUrl={data.publicUrl} />}
        {data && <meta property="og:image" content={`${data.publicUrl}/og.png`} />}
        {data && hydrate && <link rel="preload" as="fetch" crossOrigin="anonymous" href={data.i18nUrl} id="i18n-messages" />}
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          {t("nav.skip")}
        </a>
        {children}
        {hydrate && <ScrollRestoration />}
        {hydrate && <Scripts />}
        <PageScript name="prefetch" />
      </body>
    </html>
  );
}

/**
 * The inline scripts' text, on the server only. The browser hydrates over the scripts the document
 * already holds and ran: React neither compares nor rewrites a hydrated element's inner HTML, so
 * the client bundle leaves server/http/page-scripts.ts out (Vite makes `import.meta.env.SSR` false
 * there, and the import goes unused) — about 0.9 KiB gzip off every hydrated page (issue 13).
 */
const SCRIPT_TEXTS: Partial<typeof PAGE_SCRIPTS> = import.meta.env.SSR ? PAGE_SCRIPTS : {};

/**
 * One of the inline scripts every page carries (server/http/page-scripts.ts), with this render's
 * marker so that its hash goes into the page's CSP (docs/decisions/0002-csp-by-hash.md).
 */
function PageScript({ name }: { name: keyof typeof PAGE_SCRIPTS }) {
  const nonce = useContext(UNSAFE_FrameworkContext)?.nonce;
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: SCRIPT_TEXTS[name] ?? "" }} />;
}

function Alternates({ path, publicUrl }: { path: string; publicUrl: string }) {
  const locale = useLocale();
  return (
    <>
      <link rel="canonical" href={publicUrl + localePath(locale, path)} />
      {LOCALES.map((l) => (
        <link key={l} rel="alternate" hrefLang={LANG_TAG[l]} href={publicUrl + localePath(l, path)} />
      ))}
      <link rel="alternate" hrefLang="x-default" href={publicUrl + path} />
    </>
  );
}

export default function App() {
  // A thin bar at the top while a client-side navigation or form post is under way (pages that
  // run no script load as documents, with the browser's own indicator).
  const busy = useNavigation().state !== "idle";
  return (
    <>
      {busy && <div className="nav-progress" aria-hidden="true" />}
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const t = useT();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <NotFoundScreen message={typeof error.data === "string" ? error.data : undefined} />;
  }
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return <ErrorScreen status={status} title={t(status >= 500 ? "error.server.title" : "error.generic.title")} />;
}
