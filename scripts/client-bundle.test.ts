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

/** `contents` as a module of a client build: bundled and minified by Vite for the browser, as the app's build would ship it. */
async function bundled(contents: string): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: "silent",
    root,
    plugins: [{ name: "use", enforce: "pre", resolveId: (id) => (id.endsWith("virtual:use") ? "\0use" : null), load: (id) => (id === "\0use" ? contents : null) }],
    build: { write: false, minify: true, rollupOptions: { input: "virtual:use", preserveEntrySignatures: "strict" } },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  return outputs.flatMap((o) => o.output.map((chunk) => (chunk.type === "chunk" ? chunk.code : ""))).join("\n");
}

describe("the server-grade libraries' fingerprints", () => {
  it("name every library of the list", () => {
    expect(new Set(Object.keys(USES).map((use) => LIBRARY_OF[use] ?? use))).toEqual(new Set(SERVER_LIBRARIES.map((lib) => lib.name)));
  });

  for (const [use, contents] of Object.entries(USES)) {
    it(`find ${use} in a minified bundle that uses it`, async () => {
      expect(serverLibrariesIn(await bundled(contents))).toContain(LIBRARY_OF[use] ?? use);
    });
  }

  it("find nothing in React, React DOM and React Router", async () => {
    const text = await bundled('import { hydrateRoot } from "react-dom/client"; import { HydratedRouter } from "react-router/dom"; export { hydrateRoot, HydratedRouter };');
    expect(serverLibrariesIn(text)).toEqual([]);
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
