// The build is never stale, and the server bundle holds no copy of what the server loads from
// source (docs/decisions/0008-one-module-graph.md). Reads the build of this checkout: `npm test`
// builds first (`node scripts/ensure-build.mjs` does the same).
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildInputs, buildIsCurrent, CONFIG, markBuilt, recordedInputs, root } from "./build-state.mjs";

/** Loaded by the server process from source; the server bundle only names them. */
const SERVER_SOURCES = ["core", "server", "db", "i18n"];

function recorded() {
  const inputs = recordedInputs();
  if (!inputs) throw new Error("build/inputs.json is missing: run `node scripts/ensure-build.mjs` first");
  return inputs;
}

describe("the build's inputs", () => {
  const temp = mkdtempSync(path.join(os.tmpdir(), "build-state-"));
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it("a change in any file the build holds, in each of its folders, makes it stale; sources loaded at run time do not", () => {
    recorded();
    // A copy of what the build reads, the build's record of it, and a stand-in bundle.
    const inputs = buildInputs()!;
    for (const file of inputs) {
      mkdirSync(path.dirname(path.join(temp, file)), { recursive: true });
      cpSync(path.join(root, file), path.join(temp, file));
    }
    mkdirSync(path.join(temp, "build", "server"), { recursive: true });
    cpSync(path.join(root, "build", "inputs.json"), path.join(temp, "build", "inputs.json"));
    writeFileSync(path.join(temp, "build", "server", "index.js"), "export {};\n");
    const notHeld = ["server/main.ts", "server/app.ts", "db/client.ts", "core/accounts/index.ts", "i18n/catalogs.ts"];
    for (const file of notHeld) {
      expect(inputs).not.toContain(file);
      mkdirSync(path.dirname(path.join(temp, file)), { recursive: true });
      cpSync(path.join(root, file), path.join(temp, file));
    }
    markBuilt(temp);
    expect(buildIsCurrent(temp)).toBe(true);

    // One file of each folder the build holds (and each configuration file).
    const folders = [...new Set(inputs.map((file) => (file.includes("/") ? file.slice(0, file.indexOf("/")) : file)))];
    expect(folders).toEqual(expect.arrayContaining(["app", "public", "i18n", ...CONFIG]));
    const edited: string[] = [];
    for (const folder of folders) {
      const file = inputs.find((f) => f === folder || f.startsWith(folder + "/"))!;
      const full = path.join(temp, file);
      const before = readFileSync(full);
      appendFileSync(full, "\n");
      expect(buildIsCurrent(temp), `after an edit of ${file}`).toBe(false);
      writeFileSync(full, before);
      expect(buildIsCurrent(temp), `after undoing the edit of ${file}`).toBe(true);
      edited.push(file);
    }
    expect(edited.length).toBe(folders.length);

    // A new file in app/ (a route the table will name) counts too; a held file that is gone as well.
    writeFileSync(path.join(temp, "app", "new-route.tsx"), "export default function New() { return null; }\n");
    expect(buildIsCurrent(temp)).toBe(false);
    rmSync(path.join(temp, "app", "new-route.tsx"));
    expect(buildIsCurrent(temp)).toBe(true);
    const i18nFile = inputs.find((f) => f.startsWith("i18n/"))!;
    const kept = readFileSync(path.join(temp, i18nFile));
    rmSync(path.join(temp, i18nFile));
    expect(buildIsCurrent(temp)).toBe(false);
    writeFileSync(path.join(temp, i18nFile), kept);

    // Sources the server process loads itself: an edit needs no build.
    for (const file of notHeld) {
      appendFileSync(path.join(temp, file), "\n");
      expect(buildIsCurrent(temp), `after an edit of ${file}`).toBe(true);
    }

    // No record (a build by another configuration): build again.
    rmSync(path.join(temp, "build", "inputs.json"));
    expect(buildIsCurrent(temp)).toBe(false);
  });

  it("the server bundle holds app/ only, and names the shared sources by their path", () => {
    const { server, client } = recorded();
    expect(server.length).toBeGreaterThan(10);
    expect(server.filter((file) => !file.startsWith("app/"))).toEqual([]);
    // The browser bundle has its own copies of what it needs, which is why they are inputs.
    expect(client).toContain("i18n/locales.ts");

    const bundle = readFileSync(path.join(root, "build", "server", "index.js"), "utf8");
    // Core-only code is not in the bundle: its classes and tables are the sources' own.
    expect(bundle).not.toMatch(/class DomainError\b/);
    expect(bundle).not.toContain("STATUS_OF");
    const imports = [...bundle.matchAll(/^import [^"]*"(\.[^"]+)";$/gm)].map((m) => m[1]!);
    expect(imports).toContain("../../core/shared/errors.ts");
    for (const specifier of imports) {
      const file = path.resolve(root, "build", "server", specifier);
      expect(
        SERVER_SOURCES.some((folder) => file.startsWith(path.join(root, folder) + path.sep)),
        specifier,
      ).toBe(true);
      expect(existsSync(file), specifier).toBe(true);
    }
  });
});
