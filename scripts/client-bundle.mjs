// What the browser may never load (issue 13, point 5; docs/decisions/0009-forms-on-the-server.md):
// the code of a server-grade library in a client chunk of the build. Each library is told by
// strings its minified code keeps (class and error names, symbol keys), not by file names, so a
// chunk that inlined it is caught whatever Rollup called the chunk. Used by
// scripts/client-bundle.test.ts (every file under build/client) and by `npm run bench`.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { root } from "./build-state.mjs";

/** Libraries that belong on the server, each with a pattern its bundled code cannot lose. */
export const SERVER_LIBRARIES = [
  // Zod 4 (classic and mini): every schema class is made by $constructor("$ZodType…"), and ZodError names its errors.
  { name: "zod", pattern: /\$ZodType|\$ZodError|ZodError/ },
  // Drizzle ORM: every entity carries Symbol.for("drizzle:entityKind").
  { name: "drizzle-orm", pattern: /drizzle:entityKind/ },
  // node-postgres, pino (its Node and its browser build), ioredis, nodemailer, prom-client: names their code spells out.
  { name: "pg", pattern: /SCRAM-SHA-256-PLUS|pg-pool|pg-protocol/ },
  { name: "pino", pattern: /PINO_CONFIG|pino-raw-err-ref|pino\.logFuncs/ },
  { name: "ioredis", pattern: /ioredis/ },
  { name: "nodemailer", pattern: /nodemailer/i },
  { name: "prom-client", pattern: /prom-client|process_cpu_user_seconds_total/ },
];

/** The server-grade libraries found in one chunk's text. */
export function serverLibrariesIn(text) {
  return SERVER_LIBRARIES.filter((lib) => lib.pattern.test(text)).map((lib) => lib.name);
}

/** Every JavaScript file of the client build (relative to build/client), however it is loaded. */
export function clientChunks(buildDir = path.join(root, "build")) {
  const dir = path.join(buildDir, "client");
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((file) => /\.m?js$/.test(file))
    .map((file) => file.split(path.sep).join("/"))
    .sort();
}

/** The client chunks that hold a server-grade library: [{ file, libraries }]; none is the rule. */
export function serverCodeInClient(buildDir = path.join(root, "build")) {
  const found = [];
  for (const file of clientChunks(buildDir)) {
    const libraries = serverLibrariesIn(readFileSync(path.join(buildDir, "client", file), "utf8"));
    if (libraries.length) found.push({ file, libraries });
  }
  return found;
}
