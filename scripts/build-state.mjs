// Is the build in ./build current? Every build records the repository files its two bundles hold
// (build/inputs.json, written by vite.config.ts); a fingerprint of those files, of the folders any
// of whose files may join a bundle (app/: the route table names its files; public/: copied as
// is) and of the build's configuration is kept next to the build. A missing or different
// fingerprint means "build again".
//
// The server bundle holds app/ only: core/, server/, db/ and i18n/ are loaded from source by the
// server process (docs/decisions/0008-one-module-graph.md). So an edit there needs no build,
// unless the browser bundle holds the file (i18n/format.ts, say): then it is in the list.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Folders whose every file counts, whether or not the last build took it. */
const FOLDERS = ["app", "public"];
/** The build's configuration (package-lock.json: the versions of everything bundled). */
export const CONFIG = ["vite.config.ts", "react-router.config.ts", "tsconfig.json", "package-lock.json"];
const stamp = (dir) => path.join(dir, "build", ".fingerprint");
const inputsFile = (dir) => path.join(dir, "build", "inputs.json");

function* files(dir, entry) {
  const full = path.join(dir, entry);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) yield* files(dir, path.posix.join(entry, name));
  } else {
    yield entry;
  }
}

/** What each bundle of the last build held, as recorded by it: { client: [...], server: [...] }, or null. */
export function recordedInputs(dir = root) {
  try {
    const recorded = JSON.parse(readFileSync(inputsFile(dir), "utf8"));
    return Array.isArray(recorded.client) && Array.isArray(recorded.server) ? recorded : null;
  } catch {
    return null;
  }
}

/** Every file the build depends on (repository paths), or null when the build recorded none. */
export function buildInputs(dir = root) {
  const recorded = recordedInputs(dir);
  if (!recorded) return null;
  const all = new Set([...CONFIG, ...recorded.client, ...recorded.server]);
  for (const folder of FOLDERS) for (const file of files(dir, folder)) all.add(file);
  return [...all].sort();
}

export function fingerprint(dir = root) {
  const inputs = buildInputs(dir);
  if (!inputs) return null;
  const hash = createHash("sha256");
  for (const file of inputs) {
    const full = path.join(dir, file);
    // A file the build held that is gone now differs from any content.
    hash
      .update(file)
      .update("\0")
      .update(existsSync(full) ? readFileSync(full) : "\0gone\0");
  }
  return hash.digest("hex");
}

export function buildIsCurrent(dir = root) {
  if (!existsSync(path.join(dir, "build", "server", "index.js")) || !existsSync(stamp(dir))) return false;
  const current = fingerprint(dir);
  return current !== null && readFileSync(stamp(dir), "utf8") === current;
}

export function markBuilt(dir = root) {
  const current = fingerprint(dir);
  if (current === null) throw new Error("the build recorded no inputs (build/inputs.json): is vite.config.ts's recordInputs plugin on?");
  writeFileSync(stamp(dir), current);
}
