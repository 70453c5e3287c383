// `npm run i18n:check`: the catalogue checks of `npm test`, as a list a translator can work
// through (exit 1 when there is any). `tsx scripts/i18n.ts types` writes the key and parameter
// types of t() from the English catalogue; `npm run typecheck` runs it first.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { compileCatalog, readCatalog } from "../i18n/catalogs.ts";
import { checkCatalog, unknownKeysInCode } from "../i18n/check.ts";
import { readForbiddenVariants } from "../i18n/glossary.ts";
import { argumentsOf, type ArgumentKind } from "../i18n/compile.ts";
import { LOCALES } from "../i18n/locales.ts";

const root = path.resolve(import.meta.dirname, "..");
const TYPES_FILE = path.join(root, "i18n/generated/messages.ts");

const TS_TYPE: Record<ArgumentKind, string> = { text: "string | number", number: "number", choice: "string" };

/** The source of i18n/generated/messages.ts: each English key with the parameters it takes. */
function typesSource(): string {
  const lines = Object.entries(compileCatalog("en")).map(([key, message]) => {
    const args = [...argumentsOf(message)].map(([name, kind]) => `${JSON.stringify(name)}: ${TS_TYPE[kind]}`);
    return `  ${JSON.stringify(key)}: {${args.length ? ` ${args.join("; ")} ` : ""}};`;
  });
  return [
    "// Generated from i18n/messages/en.json by scripts/i18n.ts (`npm run typecheck` runs it): do not",
    "// edit, and do not commit. Each key of the catalogue with the parameters its message takes.",
    "export type MessageParams = {",
    ...lines,
    "};",
    "",
  ].join("\n");
}

function writeTypes() {
  const source = typesSource();
  let current = "";
  try {
    current = readFileSync(TYPES_FILE, "utf8");
  } catch {
    /* not written yet */
  }
  if (current === source) return;
  mkdirSync(path.dirname(TYPES_FILE), { recursive: true });
  writeFileSync(TYPES_FILE, source);
}

function check(): number {
  const english = readCatalog("en");
  const forbidden = readForbiddenVariants(root);
  const lines: string[] = [];
  for (const locale of LOCALES) {
    for (const p of checkCatalog(locale, readCatalog(locale), english, forbidden)) {
      lines.push(`i18n/messages/${locale}.json${p.key ? ` "${p.key}"` : ""}: ${p.kind}: ${p.message}`);
    }
  }
  for (const { file, key } of unknownKeysInCode(root, english)) lines.push(`${file}: "${key}" is not in i18n/messages/en.json`);
  console.log(lines.length ? lines.join("\n") : `The ${LOCALES.length} catalogues have ${Object.keys(english).length} keys each and no problems.`);
  return lines.length ? 1 : 0;
}

const command = process.argv[2];
if (command === "types") writeTypes();
else if (command === "check") process.exitCode = check();
else {
  console.error("usage: tsx scripts/i18n.ts types|check");
  process.exitCode = 2;
}
