// Is the build in ./build current? A fingerprint of every input of the browser and server bundles
// is kept next to the build; a missing or different fingerprint means "build again".
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const INPUTS = ["app", "i18n", "core", "public", "vite.config.ts", "react-router.config.ts", "package-lock.json"];
/** Inputs of no bundle: the key types `npm run typecheck` writes (only tsc reads them). */
const IGNORED = new Set(["i18n/generated"]);
const STAMP = path.join(root, "build", ".fingerprint");

function* files(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full) || IGNORED.has(entry)) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) yield* files(path.join(entry, name));
  } else {
    yield entry;
  }
}

export function fingerprint() {
  const hash = createHash("sha256");
  for (const input of INPUTS) for (const file of files(input)) hash.update(file).update(readFileSync(path.join(root, file)));
  return hash.digest("hex");
}

export function buildIsCurrent() {
  return existsSync(path.join(root, "build", "server", "index.js")) && existsSync(STAMP) && readFileSync(STAMP, "utf8") === fingerprint();
}

export function markBuilt() {
  writeFileSync(STAMP, fingerprint());
}
