// The React Router build. The server bundle holds app/ only: imports of core/, server/, db/ and
// i18n/ stay imports of the source files, which the server process loads once (through tsx for
// `npm start`, Vitest in the tests, Vite's SSR graph for `npm run dev`), so a DomainError thrown by
// the core is the class the routes catch (docs/decisions/0008-one-module-graph.md). Every build
// records the files it holds in build/inputs.json, the list scripts/build-state.mjs fingerprints.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";

const root = import.meta.dirname;
/** Loaded from source by the server process, never bundled into the server build. */
export const SERVER_SOURCES = ["core", "server", "db", "i18n"];
const INPUTS_FILE = path.join(root, "build", "inputs.json");

const insideAny = (file: string, folders: string[]) => folders.some((folder) => file.startsWith(path.join(root, folder) + path.sep));

/** The server build leaves the shared sources out: their imports stay relative imports of the .ts files. */
function serverSourcesExternal(): Plugin {
  let outDir = "";
  return {
    name: "nova:server-sources-external",
    apply: "build",
    enforce: "pre",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    resolveId(source, importer, options) {
      if (!options.ssr || !importer || !(source.startsWith(".") || path.isAbsolute(source))) return null;
      const file = path.resolve(path.dirname(importer.split("?")[0]!), source);
      if (!insideAny(file, SERVER_SOURCES)) return null;
      // The bundle is one file in outDir (build/server/index.js): the import is written relative to it.
      return { id: path.relative(outDir, file).split(path.sep).join("/"), external: "absolute" };
    },
  };
}

/**
 * A route's chunk may export more than the route module: with Rollup's default a page's chunk that
 * also holds a module a non-hydrating page imports (say the plan grid, which the game page renders
 * on the server) becomes a facade file re-exporting a second one. React Router reads a route
 * module's own exports by name, which stay as they are (client build only).
 */
function routeChunksMayExportMore(): Plugin {
  let ssr = false;
  return {
    name: "nova:route-chunks-may-export-more",
    apply: "build",
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    options(options) {
      return ssr ? null : { ...options, preserveEntrySignatures: "allow-extension" };
    },
  };
}

/** Writes the repository files each bundle holds (client and server) to build/inputs.json. */
function recordInputs(): Plugin {
  let environment = "client";
  return {
    name: "nova:record-inputs",
    apply: "build",
    configResolved(config) {
      environment = config.build.ssr ? "server" : "client";
    },
    generateBundle() {
      const files = new Set<string>();
      for (const id of this.getModuleIds()) {
        const file = id.split("?")[0]!;
        if (this.getModuleInfo(id)?.isExternal || !path.isAbsolute(file) || !file.startsWith(root + path.sep)) continue;
        if (file.includes(`${path.sep}node_modules${path.sep}`)) continue;
        files.add(path.relative(root, file).split(path.sep).join("/"));
      }
      let recorded: Record<string, string[]> = {};
      try {
        recorded = JSON.parse(readFileSync(INPUTS_FILE, "utf8")) as Record<string, string[]>;
      } catch {
        // The first bundle of this build.
      }
      recorded[environment] = [...files].sort();
      mkdirSync(path.dirname(INPUTS_FILE), { recursive: true });
      writeFileSync(INPUTS_FILE, JSON.stringify(recorded, null, 1) + "\n");
    },
  };
}

/** React, React DOM (and its scheduler), React Router and the two small packages React Router imports. */
const FRAMEWORK = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/;

/**
 * The client's chunks (issue 13, point 5): fewer, larger files, since every file of a few hundred
 * bytes gzipped on its own costs about twice its share of a larger one
 * (docs/decisions/0047-hydrated-forms-without-conform.md).
 * - "framework": React, React DOM, React Router; "boot": what app/entry.client.tsx loads of ours.
 *   With the entry, the framework's floor the bench measures.
 * - "shell": the app's modules the root route and the profile's layout load (the layout, the
 *   header and its menus, formatting), which every hydrated page loads anyway, and the two small
 *   modules of pieces the profile's pages share (the card primitives; the submit button and form
 *   messages).
 * - Any other module of ours goes with the pages that run in the browser and load it: into the one
 *   page's chunk ("page-profile-balance"), or a chunk of those pages together ("shared-" and a hash
 *   of their names). A page that never hydrates (`hydrate: false` in its route module) loads no
 *   script, so what it shares with a hydrated page does not split that page's chunk; its own
 *   modules keep Rollup's splitting. Every module of ours a running page loads is named: Rollup
 *   pulls a named chunk's unnamed dependencies into it.
 */
function clientChunks(): (id: string, meta: { getModuleInfo: (id: string) => { importers: readonly string[] } | null }) => string | undefined {
  // The root and the profile's layout: every hydrated page but the payment return pages has both.
  const SHELL = [path.join(root, "app", "root.tsx"), path.join(root, "app", "routes", "layouts", "profile.tsx")];
  const SHARED_PIECES = [path.join(root, "app", "components", "ui", "primitives.tsx"), path.join(root, "app", "components", "forms.tsx")];
  const ENTRY = path.join(root, "app", "entry.client.tsx");
  const reaches = new Map<string, Set<string>>();
  /** React Router's client module of a route imports the route's file with this query. */
  const CLIENT_ROUTE = "?__react-router-build-client-route";
  const running = new Map<string, boolean>();
  /** Whether a route module's page can run in the browser: not when the module says `hydrate: false` (app/root.tsx). */
  const runsInBrowser = (file: string): boolean => {
    let runs = running.get(file);
    if (runs === undefined) running.set(file, (runs = !/\bhydrate:\s*false\b/.test(readFileSync(file, "utf8"))));
    return runs;
  };
  /** The module files among `id` and everything that imports it statically, up the graph. */
  const importedBy = (id: string, getModuleInfo: (id: string) => { importers: readonly string[] } | null): Set<string> => {
    const found = new Set<string>();
    const stack = [id];
    while (stack.length > 0) {
      const next = stack.pop()!;
      const file = next.split("?")[0]!;
      if (found.has(next)) continue;
      found.add(next);
      found.add(file);
      for (const importer of getModuleInfo(next)?.importers ?? []) stack.push(importer);
    }
    return found;
  };
  return (id, { getModuleInfo }) => {
    const file = id.split("?")[0]!;
    // The framework keeps a chunk of its own (Rollup would otherwise pull it into the shell, which imports it).
    if (FRAMEWORK.test(file)) return "framework";
    if (!path.isAbsolute(file) || file.includes(`${path.sep}node_modules${path.sep}`) || !file.startsWith(root + path.sep)) return undefined;
    let up = reaches.get(id);
    if (!up) reaches.set(id, (up = importedBy(id, getModuleInfo)));
    if (up.has(ENTRY)) return "boot";
    // The shared pieces themselves, not what imports them (every page with a form or a card).
    if (SHARED_PIECES.includes(file) || SHELL.some((file) => up.has(file))) return "shell";
    const pages = [...up]
      .filter((importer) => importer.endsWith(CLIENT_ROUTE))
      .map((route) => route.slice(0, -CLIENT_ROUTE.length))
      .filter(runsInBrowser)
      .sort();
    if (pages.length === 0) return undefined;
    const names = pages.map((page) =>
      path
        .relative(path.join(root, "app", "routes"), page)
        .replace(/\.tsx?$/, "")
        .split(path.sep)
        .join("-"),
    );
    return names.length === 1 ? `page-${names[0]}` : `shared-${createHash("sha256").update(names.join(" ")).digest("hex").slice(0, 8)}`;
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [serverSourcesExternal(), recordInputs(), reactRouter(), routeChunksMayExportMore()],
  build: {
    assetsInlineLimit: 0,
    rollupOptions: isSsrBuild ? {} : { output: { manualChunks: clientChunks() } },
  },
  // `npm run dev`: the browser's dependencies are found by scanning the routes when the server
  // starts, not on the first page view (which would have to reload the page once they are bundled).
  optimizeDeps: { entries: ["app/entry.client.tsx", "app/root.tsx", "app/routes/**/*.tsx"] },
}));
