// Any path no other route matches: the 404 (docs/product/routes.md#not-found-and-error-screens).
import type { RouteHandle } from "../../root.tsx";

import { notFound } from "../../lib/meta.ts";
import type { Route } from "./+types/not-found.ts";

export function loader({ url }: Route.LoaderArgs) {
  notFound(url);
}

/** Static page: served without client code (docs/decisions/0001-static-storefront.md). */
export const handle: RouteHandle = { hydrate: false };

export default function NotFound() {
  return null;
}
