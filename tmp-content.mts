import { DEMO_GAME_TEXTS, DEFAULT_SITE_PAGES } from "./db/content/index.ts";
import { readForbiddenVariants } from "./i18n/glossary.ts";
import { LOCALES } from "./i18n/locales.ts";
const f = readForbiddenVariants(".");
const strings = (v: unknown, path: string, out: [string, string][]) => { if (typeof v === "string") out.push([path, v]); else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) strings(x, `${path}.${k}`, out); return out; };
for (const l of LOCALES) {
  const all = [...strings(DEMO_GAME_TEXTS[l], "games", []), ...strings(DEFAULT_SITE_PAGES[l], "pages", [])];
  for (const [p, s] of all) for (const r of f) if (r.locale === l && r.test(s)) console.log(l, p, JSON.stringify(r.forbidden), "|", s.slice(0, 140).replace(/\n/g, " "));
}
