// Page titles and descriptions come translated from the loader (it has the request's language);
// the stylesheets a layout adds to the page.
import type { LinkDescriptor, MetaDescriptor } from "react-router";

export type PageMeta = { title: string; description: string };

export function pageMeta(data: { meta: PageMeta } | undefined): MetaDescriptor[] {
  if (!data) return [];
  return [
    { title: `${data.meta.title} · NOVA` },
    { name: "description", content: data.meta.description },
    { property: "og:title", content: data.meta.title },
    { property: "og:description", content: data.meta.description },
  ];
}

/** A layout's `links`: its stylesheets (Vite `?url` imports), after the root's. */
export function stylesheets(...hrefs: string[]): () => LinkDescriptor[] {
  return () => hrefs.map((href) => ({ rel: "stylesheet", href }));
}

/**
 * The path the browser asked for: a client-side navigation fetches "<path>.data", which is React
 * Router's business, not the visitor's.
 */
export function selfPath(request: Request, withSearch = true): string {
  const url = new URL(request.url);
  return url.pathname.replace(/\.data$/, "") + (withSearch ? url.search : "");
}

/** Throws the 404 (docs/product/routes.md#not-found-and-error-screens) with its message "Page Not Found: {path}". */
export function notFound(request: Request): never {
  throw new Response(`Page Not Found: ${selfPath(request, false)}`, { status: 404 });
}
