// No server-grade library in the browser (issue 13, point 5): every JavaScript file of the client
// build, however the browser would load it (document, modulepreload, a lazy import on a
// client-side navigation), holds no Zod, Drizzle, node-postgres, pino, ioredis, nodemailer or
// prom-client. The patterns of scripts/client-bundle.mjs are first held to the real libraries,
// bundled and minified here by Vite for the browser (the packages' browser builds where they have
// one, as the app's client build would pick them), so a pattern that stopped matching a
// new version fails this test instead of passing every build. Reads the build of this checkout
// (`npm test` builds first; ensureBuild builds it when stale).
import { build, type Rollup } from "vite";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuild } from "./ensure-build.mjs";
import { SERVER_LIBRARIES, clientChunks, serverCodeInClient, serverLibrariesIn } from "./client-bundle.mjs";
import { root } from "./build-state.mjs";

/** One use of each library, bundled and minified as Rollup would ship it. */
const USES: Record<string, string> = {
  zod: 'import { z } from "zod"; export const s = z.object({ a: z.string() });',
  "zod/mini": 'import { z } from "zod/mini"; export const s = z.object({ a: z.string() });',
  "@conform-to/zod": 'import { parseWithZod } from "@conform-to/zod/v4"; export const p = parseWithZod;',
  "drizzle-orm": 'import { pgTable, integer } from "drizzle-orm/pg-core"; export const t = pgTable("t", { id: integer() });',
  pg: 'import pg from "pg"; export const p = new pg.Pool();',
  pino: 'import pino from "pino"; export const l = pino();',
  ioredis: 'import Redis from "ioredis"; export const r = Redis;',
  nodemailer: 'import nodemailer from "nodemailer"; export const t = nodemailer.createTransport;',
  "prom-client": 'import { Registry, collectDefaultMetrics } from "prom-client"; export const r = new Registry(); collectDefaultMetrics({ register: r });',
};
const LIBRARY_OF: Record<string, string> = { "zod/mini": "zod", "@conform-to/zod": "zod" };

const FRAMEWORK = 'import { hydrateRoot } from "react-dom/client"; import { HydratedRouter } from "react-router/dom"; export { hydrateRoot, HydratedRouter };';

/**
 * Each module of `modules` as an entry of one client build, bundled and minified by Vite for the
 * browser as the app's build would ship it: name → the code a browser loads for that entry (its
 * chunk and every chunk it imports, since code two entries share goes to a chunk of its own). One
 * build for all of them: a Vite build is seconds of CPU (docs/decisions/0061-suite-speed.md).
 */
async function bundled(modules: Record<string, string>): Promise<Map<string, string>> {
  const PREFIX = "\0use:";
  const names = Object.keys(modules);
  const result = await build({
    configFile: false,
    logLevel: "silent",
    root,
    plugins: [
      {
        name: "use",
        enforce: "pre",
        resolveId: (id) => (id.startsWith("virtual:use/") ? PREFIX + id.slice("virtual:use/".length) : null),
        load: (id) => (id.startsWith(PREFIX) ? modules[decodeURIComponent(id.slice(PREFIX.length))] : null),
      },
    ],
    build: {
      write: false,
      minify: true,
      rollupOptions: { input: Object.fromEntries(names.map((name, i) => [`use${i}`, `virtual:use/${encodeURIComponent(name)}`])), preserveEntrySignatures: "strict" },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const chunks = new Map(outputs.flatMap((o) => o.output.filter((c): c is Rollup.OutputChunk => c.type === "chunk")).map((c) => [c.fileName, c]));
  const codeOf = (fileName: string, seen = new Set<string>()): string[] => {
    if (seen.has(fileName)) return [];
    seen.add(fileName);
    const chunk = chunks.get(fileName)!;
    return [chunk.code, ...[...chunk.imports, ...chunk.dynamicImports].flatMap((f) => codeOf(f, seen))];
  };
  const entries = [...chunks.values()].filter((c) => c.isEntry);
  return new Map(names.map((name, i) => [name, codeOf(entries.find((c) => c.name === `use${i}`)!.fileName).join("\n")]));
}

describe("the server-grade libraries' fingerprints", () => {
  let bundles: Map<string, string>;
  beforeAll(async () => {
    bundles = await bundled({ ...USES, framework: FRAMEWORK });
  }, 120_000);

  it("name every library of the list", () => {
    expect(new Set(Object.keys(USES).map((use) => LIBRARY_OF[use] ?? use))).toEqual(new Set(SERVER_LIBRARIES.map((lib) => lib.name)));
  });

  // Exactly the library used: its pattern matches, and no other library's matches its code.
  for (const use of Object.keys(USES)) {
    it(`find ${use}, and only it, in a minified bundle that uses it`, () => {
      expect(serverLibrariesIn(bundles.get(use)!)).toEqual([LIBRARY_OF[use] ?? use]);
    });
  }

  it("find nothing in React, React DOM and React Router", () => {
    expect(serverLibrariesIn(bundles.get("framework")!)).toEqual([]);
  });
});

describe("the client build", () => {
  beforeAll(() => ensureBuild({ quiet: true }), 300_000);

  it("has no chunk with a server-grade library", () => {
    const chunks = clientChunks();
    expect(chunks.length).toBeGreaterThan(10);
    expect(chunks.some((file) => file.includes("entry.client"))).toBe(true);
    expect(serverCodeInClient()).toEqual([]);
  });
});
