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
 * The path the browser asked for, from a loader's or action's `url` argument: React Router's
 * normalized URL, without what is its business, not the visitor's (a client-side navigation's
 * "<path>.data", its `_routes` and `index` parameters). The request itself comes as it came
 * (`future.v8_passThroughRequests`, decision 0070): never read the page from `request.url`.
 */
export function selfPath(url: URL, withSearch = true): string {
  return url.pathname + (withSearch ? url.search : "");
}

/** Throws the 404 (docs/product/routes.md#not-found-and-error-screens) with its message "Page Not Found: {path}". */
export function notFound(url: URL): never {
  throw new Response(`Page Not Found: ${selfPath(url, false)}`, { status: 404 });
}
