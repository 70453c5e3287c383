// Each language's pages see their part of the one route table (server/pages.ts, localeBuild;
// issue 13, point 4): a path matches in its language's part exactly the route it matches in the
// whole table, for every route of every language; React Router's route discovery (/__manifest)
// still answers paths of any language; and a page that does not hydrate is rendered in one pass,
// without the hydration data a hydrating page still streams (app/entry.server.tsx).
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { LOCALES, splitLocale } from "../../i18n/locales.ts";
import { loadBuild } from "../../server/main.ts";
import { localeBuild } from "../../server/pages.ts";
import { registerUser, useShop } from "../kit/shop.ts";

const shop = useShop({ pages: true });

/** The build's routes as React Router's route objects (ids, paths, index flags, nesting). */
function routeTree(routes: ServerBuild["routes"], parentId?: string): RouteObject[] {
  return Object.values(routes)
    .filter((route) => route!.parentId === parentId)
    .map((route) => {
      const children = routeTree(routes, route!.id);
      return route!.index ? { id: route!.id, index: true as const } : { id: route!.id, path: route!.path, ...(children.length ? { children } : {}) };
    });
}

/** A concrete path of every leaf route: params filled in, a splat given two segments. */
function samplePaths(routes: ServerBuild["routes"]): string[] {
  const parents = new Set(Object.values(routes).map((r) => r!.parentId));
  const pathOf = (id: string): string => {
    const route = routes[id]!;
    const own = (route.path ?? "").replace(/:game/g, "dota2").replace(/:id/g, "7").replace(/\*/g, "no/such-page");
    const above = route.parentId ? pathOf(route.parentId) : "";
    return [above, own].filter(Boolean).join("/").replace(/\/+/g, "/");
  };
  return Object.keys(routes)
    .filter((id) => !parents.has(id) && id !== "root")
    .map((id) => "/" + pathOf(id).replace(/^\//, ""));
}

describe("a language's part of the route table", () => {
  let build: ServerBuild;
  beforeAll(async () => {
    build = await loadBuild();
  });

  it("matches every path of every language as the whole table does", () => {
    const whole = routeTree(build.routes);
    const paths = samplePaths(build.routes);
    const parts = new Map<string, RouteObject[]>();
    expect(paths.length).toBeGreaterThan(LOCALES.length * 30);
    for (const path of [...paths, "/", "/en", "/en/", "/nope/deeper", "/en/nope", "/profile", "/en/profile"]) {
      const locale = splitLocale(path).locale;
      if (!parts.has(locale)) parts.set(locale, routeTree(localeBuild(build, locale).routes));
      const part = parts.get(locale)!;
      const leafOf = (tree: RouteObject[]) => matchRoutes(tree, path)?.map((m) => m.route.id);
      expect(leafOf(part), path).toEqual(leafOf(whole));
    }
  });

  it("holds the root and that language's routes only, in the server's routes and the browser's manifest alike", () => {
    for (const locale of LOCALES) {
      const part = localeBuild(build, locale);
      const ids = Object.keys(part.routes);
      expect(ids).toContain("root");
      expect(ids.filter((id) => id !== "root").every((id) => id.startsWith(`${locale}/`))).toBe(true);
      expect(Object.keys(part.assets.routes).sort()).toEqual(ids.sort());
    }
  });
});

describe("the pages", () => {
  it("discover routes of any language (/__manifest)", async () => {
    const build = await loadBuild();
    const res = await shop.request(`/__manifest?version=${build.assets.version}&paths=${encodeURIComponent("/en/dota2/profile,/dota2/profile/balance,/hi/dota2")}`);
    expect(res.status).toBe(200);
    const ids = Object.keys((await res.json()) as Record<string, unknown>);
    expect(ids).toEqual(expect.arrayContaining(["root", "en/layout-profile", "en/profile", "ru/layout-profile", "ru/balance", "hi/game"]));
  });

  it("that do not hydrate carry no hydration data; a page that hydrates does", async () => {
    const landing = await (await shop.request("/en", { headers: { cookie: "locale=en" } })).text();
    expect(landing).toMatch(/^<!DOCTYPE html><html lang="en"/);
    expect(landing).not.toContain("__reactRouterContext");
    expect(landing).not.toContain("<!--$-->");
    const user = await registerUser(shop, { tag: "locales" });
    const profile = await shop.request("/en/dota2/profile", { headers: { cookie: `access_token=${user.token}` } });
    expect(profile.status).toBe(200);
    const html = await profile.text();
    expect(html).toMatch(/^<!DOCTYPE html><html lang="en"/);
    expect(html).toContain("window.__reactRouterContext.streamController.enqueue(");
    expect(html).toContain('rel="modulepreload"');
  });
});
