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
import { clientChunks, serverCodeInClient } from "../client-bundle.mjs";
import { assetsWeight, kib, pageWeight } from "./page-weight.mjs";
import { HYDRATED_PAGES, NOT_WEIGHED, registerBenchUser } from "./targets.mjs";

/* global fetch */

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

/**
 * Issue 13's JavaScript budget: the framework's floor of this build (above),
 * then every hydrated page against floor + BUDGET_OVER_FLOOR_KIB, one PASS/FAIL line each with
 * what it loads beyond the floor; a hydrating route the bench does not know fails. Then the
 * client chunks: none may hold a server-grade library. Prints with `out`; true when all pass.
 */
export async function hydratedBudget(out, serverUrl) {
  let ok = true;
  const build = await loadServerBuild();
  const floorPaths = floorFiles(build);
  const floor = await assetsWeight(serverUrl, floorPaths);
  const floorKiB = kib(floor.gzipBytes);
  const budget = floorKiB + BUDGET_OVER_FLOOR_KIB;
  out(
    `framework floor of this build (React DOM + React + React Router + the JSX runtime, with app/entry.client.tsx and the I18nProvider it imports): ` +
      `${floorKiB.toFixed(1)} KiB gzip — ${floor.files.map((f) => `${f.url} ${kib(f.gzipBytes).toFixed(1)}`).join(", ")}`,
  );
  out(`every hydrated page: JS ≤ floor + ${BUDGET_OVER_FLOOR_KIB} KiB = ${budget.toFixed(1)} KiB gzip`);
  const hydrating = hydratingPages(build, "ru/");
  const known = new Set([...HYDRATED_PAGES.map((p) => p.route), ...Object.keys(NOT_WEIGHED)]);
  for (const route of hydrating.filter((id) => !known.has(id))) {
    ok = false;
    out(`  FAIL  route ${route} hydrates but is not weighed: add it to HYDRATED_PAGES (scripts/bench/targets.mjs)`);
  }
  for (const [route, why] of Object.entries(NOT_WEIGHED)) if (hydrating.includes(route)) out(`  ----  ${route} not weighed: ${why}`);
  const pages = HYDRATED_PAGES.filter((p) => hydrating.includes(p.route));
  for (const page of HYDRATED_PAGES.filter((p) => !hydrating.includes(p.route))) out(`  INFO  ${page.path} (${page.route}) no longer hydrates: not weighed`);
  let cookie = "";
  if (pages.some((p) => p.signedIn)) {
    const { token } = await registerBenchUser({ urls: { server: serverUrl }, fetch });
    cookie = `; access_token=${token}`;
  }
  const floorSet = new Set(floorPaths);
  for (const page of pages) {
    const headers = { Accept: "text/html", Cookie: `locale=ru; t=AAAAAAAAAAAAAAAA${page.signedIn ? cookie : ""}` };
    const response = await fetch(new URL(page.path, serverUrl), { headers, redirect: "manual" });
    await response.arrayBuffer();
    if (response.status === 404 && page.optional) {
      out(`  ----  ${page.path} (${page.route}) not weighed: 404, ${page.optional}`);
      continue;
    }
    const weight = await pageWeight(serverUrl, page.path, headers);
    const js = kib(weight.js.gzipBytes);
    const limit = budget + (page.extraKiB ?? 0);
    const pass = js <= limit && weight.js.files.length > 0;
    ok &&= pass;
    const beyond = weight.js.files.filter((f) => !floorSet.has(f.url));
    out(
      `  ${pass ? "PASS" : "FAIL"}  ${page.path} (${page.route}${page.signedIn ? ", signed in" : ""}): JS ${js.toFixed(1)} KiB gzip = floor ${floorKiB.toFixed(1)} + ${(js - floorKiB).toFixed(1)} ` +
        `(≤ +${BUDGET_OVER_FLOOR_KIB}${page.extraKiB ? ` + ${page.extraKiB} allowed` : ""})${weight.js.files.length ? "" : " — loads no JS, yet its route hydrates?"}; ` +
        `CSS ${kib(weight.css.gzipBytes).toFixed(1)} KiB`,
    );
    out(`        beyond the floor: ${beyond.map((f) => `${f.url.replace(/^\/assets\//, "")} ${kib(f.gzipBytes).toFixed(1)}`).join(", ")}`);
  }
  const serverCode = serverCodeInClient();
  ok &&= serverCode.length === 0;
  out(
    `  ${serverCode.length ? "FAIL" : "PASS"}  no Zod or other server-grade library in the ${clientChunks().length} client chunks` +
      (serverCode.length ? `: ${serverCode.map((c) => `${c.file} (${c.libraries.join(", ")})`).join("; ")}` : ""),
  );
  return ok;
}
