// Lists message keys used in the code (t("…") with a literal key) that the English catalogue lacks.
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
const root = path.resolve(import.meta.dirname, "..");
const en = JSON.parse(readFileSync(path.join(root, "i18n/messages/en.json"), "utf8"));
const used = new Set();
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith(".test.ts")) {
      const text = readFileSync(full, "utf8");
      for (const m of text.matchAll(/\bt\(\s*"([a-zA-Z0-9_.]+)"/g)) used.add(m[1]);
      for (const m of text.matchAll(/"((?:errors|validation|notification|account|subscription)\.[a-zA-Z0-9_.]+)"/g)) used.add(m[1]);
    }
  }
}
for (const dir of ["app", "core", "server"]) walk(path.join(root, dir));
const missing = [...used].filter((k) => !(k in en)).sort();
console.log(missing.join("\n"));
