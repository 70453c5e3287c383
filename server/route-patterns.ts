// The route pattern of a page path, for metrics (docs/product/operations.md#metrics): "/:game/profile/balance" rather
// than "/dota2/profile/balance". Every page exists once per language with the same patterns, so
// the paths are matched without their locale prefix against the default language's routes.
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { DEFAULT_LOCALE } from "../i18n/locales.ts";

/** Distinct paths remembered; beyond it a pattern is matched again (a bot's random paths cannot grow memory). */
const REMEMBERED = 2000;

export function pagePatterns(build: ServerBuild): (pathWithoutLocale: string) => string {
  type Node = RouteObject & { children: Node[] };
  const nodes = new Map<string, Node>();
  const own = Object.values(build.routes).filter((r) => r && (r.id === "root" || r.id.startsWith(`${DEFAULT_LOCALE}/`)));
  for (const r of own) nodes.set(r!.id, { id: r!.id, path: r!.path, index: r!.index as false | undefined, caseSensitive: r!.caseSensitive, children: [] });
  const roots: Node[] = [];
  for (const r of own) {
    const node = nodes.get(r!.id)!;
    const parent = r!.parentId ? nodes.get(r!.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  const known = new Map<string, string>();
  return (path) => {
    const hit = known.get(path);
    if (hit !== undefined) return hit;
    const matches = matchRoutes(roots, path) ?? [];
    const pattern =
      "/" +
      matches
        .map((m) => (m.route.path ?? "").replace(/^\/|\/$/g, ""))
        .filter(Boolean)
        .join("/");
    if (known.size < REMEMBERED) known.set(path, pattern);
    return pattern;
  };
}
