// The JavaScript budget of hydrated pages (issue 13, point 5): every page that hydrates may load
// at most the framework's own floor + 10 KiB gzip. The floor is measured in the same build: the
// router's entry module and the chunks it imports statically (build.assets.entry — React DOM,
// React, the JSX runtime, React Router and app/entry.client.tsx's few lines), the JavaScript any
// React Router app in framework mode loads before its first route module. Which pages hydrate is
// read from the server build too: a page (a leaf route of the default language) hydrates unless a
// route of its chain has `handle = { hydrate: false }` (app/root.tsx). Every such page must be
// weighed (HYDRATED_PAGES of ./targets.mjs) or named with a reason (NOT_WEIGHED), else the bench
// says which one it missed.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { tsImport } from "tsx/esm/api";
import { root } from "../build-state.mjs";

/** What the framework's floor may be exceeded by, per page (gzip KiB). */
export const BUDGET_OVER_FLOOR_KIB = 10;

/** The server build (it imports core/ and server/ from source: loaded through tsx). */
export async function loadServerBuild() {
  return tsImport(pathToFileURL(path.join(root, "build", "server", "index.js")).href, import.meta.url);
}

/** The asset paths of the framework floor: the entry module and its static imports. */
export function floorFiles(build) {
  const { entry } = build.assets;
  return [entry.module, ...(entry.imports ?? [])];
}

/** Ids of the pages of `prefix` (e.g. "ru/") that hydrate: leaf routes with no `hydrate: false` up their chain. */
export function hydratingPages(build, prefix) {
  const routes = build.routes;
  const parents = new Set(Object.values(routes).map((r) => r.parentId));
  const hydrates = (id) => {
    for (let route = routes[id]; route; route = routes[route.parentId]) if (route.module?.handle?.hydrate === false) return false;
    return true;
  };
  return Object.keys(routes)
    .filter((id) => id.startsWith(prefix) && !parents.has(id) && hydrates(id))
    .sort();
}
