// The React Router build. The server bundle holds app/ only: imports of core/, server/, db/ and
// i18n/ stay imports of the source files, which the server process loads once (through tsx for
// `npm start`, Vitest in the tests, Vite's SSR graph for `npm run dev`), so a DomainError thrown by
// the core is the class the routes catch (docs/decisions/0008-one-module-graph.md). Every build
// records the files it holds in build/inputs.json, the list scripts/build-state.mjs fingerprints.
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

export default defineConfig({
  plugins: [serverSourcesExternal(), recordInputs(), reactRouter()],
  build: { assetsInlineLimit: 0 },
  // `npm run dev`: the browser's dependencies are found by scanning the routes when the server
  // starts, not on the first page view (which would have to reload the page once they are bundled).
  optimizeDeps: { entries: ["app/entry.client.tsx", "app/root.tsx", "app/routes/**/*.tsx"] },
});
