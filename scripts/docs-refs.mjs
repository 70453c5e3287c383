// References from the code to the product's documentation in docs/.
//
//   node scripts/docs-refs.mjs            check (npm run docs:refs): every reference names a page
//                                         and a heading that exist, and no old "§N" is left
//   node scripts/docs-refs.mjs --fix      rewrite references in the old numbering, in place
//   node scripts/docs-refs.mjs --dry-run  show what --fix would write, change nothing
//
// The scheme (docs/README.md#references-in-the-code): a comment names a heading as a path from
// the repository root plus the heading's anchor as GitHub makes it, `docs/product/money.md#owed`;
// Markdown pages link headings relatively, `[owed](../product/money.md#owed)`.
//
// The old numbering cited two documents that lived outside the repository, "spec" and
// "decisions", by section number. --fix maps every such citation to the heading that now states
// the rule: by the file and the words around it (RULES), else by the section (DEFAULTS). It is
// idempotent, so it can run again after merging a branch written against the old numbers; then
// check the result with --dry-run before, and the check after.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const page = (name, anchor) => `docs/product/${name}.md${anchor ? `#${anchor}` : ""}`;

/** Where each old section went when nothing more precise applies. */
export const DEFAULTS = {
  spec: {
    1: "docs/README.md#the-product",
    2: page("routes", "pages"),
    3: page("data"),
    4: page("data", "subscription-states"),
    5: page("api", "input"),
    6: page("routes", "guards-and-redirects"),
    7: page("api"),
    8: page("api", "error-codes"),
    9: page("routes", "cookies"),
  },
  decisions: {
    1: page("operations", "settings"),
    2: page("api", "conventions"),
    3: page("api", "account-calls"),
    4: page("data"),
    5: page("routes", "cookies"),
    6: page("money", "refunds-and-reversals"),
    7: page("later", "back-office"),
    8: page("later", "delivery"),
    9: page("money", "paying-through-a-provider"),
    10: page("later", "running-at-scale"),
    11: page("later", "more-pages-and-account-features"),
  },
};

/**
 * Precise targets, first match wins. `file`: the path from the root (the whole file cites one
 * subject); `doc` and `sections`: which old citations the rule is for; `near`: words of the
 * citing sentence (its line, and the line before when the citation opens its line).
 */
export const RULES = [
  // Files whose one subject decides every citation in them.
  { file: "server/api/accounts.ts", to: page("api", "account-calls") },
  { file: "server/api/commerce.ts", to: page("api", "commerce-calls") },
  { file: "core/statistics/index.ts", to: page("api", "commerce-calls") },
  { file: "core/mail/index.ts", to: page("operations", "mail-delivery") },
  { file: "core/suspensions/index.ts", to: page("accounts", "suspension") },
  { file: "server/dev-mail.ts", to: page("operations", "development-conveniences") },
  { file: "server/middleware/visitor.ts", to: page("routes", "cookies") },
  { file: "app/lib/recaptcha.server.ts", to: page("accounts", "recaptcha") },
  { file: "app/components/recaptcha.tsx", to: page("accounts", "recaptcha") },
  { file: "app/routes/auth/register.tsx", to: page("accounts", "registration") },
  { file: "app/routes/payment/demo.tsx", to: page("money", "the-demo-provider") },
  { file: "app/routes/payment/paypal.tsx", to: page("money", "paying-through-a-provider") },
  { file: "tests/kit/recaptcha.ts", to: page("accounts", "recaptcha") },
  { file: "tests/integration/accounts-2fa.test.ts", to: page("accounts", "two-factor-authentication") },
  { file: "tests/integration/accounts-edge.test.ts", to: page("api", "input") },
  { file: "tests/integration/accounts-login.test.ts", to: page("accounts", "sign-in") },
  { file: "tests/integration/accounts-profile.test.ts", to: page("api", "account-calls") },
  { file: "tests/integration/accounts-recaptcha.test.ts", to: page("accounts", "recaptcha") },
  { file: "tests/integration/accounts-redis.test.ts", to: page("api", "rate-limits") },
  { file: "tests/integration/accounts-register.test.ts", to: page("accounts", "registration") },
  { file: "tests/integration/accounts-reset.test.ts", to: page("accounts", "password-reset") },
  { file: "tests/integration/page-csp.test.ts", to: page("accounts", "recaptcha") },
  { file: "tests/integration/sso-page.test.ts", to: page("accounts", "single-sign-on") },
  // Files that cite several subjects.
  { file: "core/catalog/index.ts", near: /The catalogue:/, to: page("data", "catalogue") },
  { file: "core/subscriptions/index.ts", near: /one per user and cheat/, to: page("data", "subscriptions") },
  { file: "app/routes/profile/balance.tsx", near: /pages of 10/, to: page("data", "ledger") },
  { file: "core/accounts/index.ts", near: /must not tell whether/, to: page("accounts", "password-reset") },

  // By subject, for any file.
  { doc: "spec", sections: [2], near: /guard|redirect/i, to: page("routes", "guards-and-redirects") },
  { doc: "spec", sections: [2], near: /404|not.found|error/i, to: page("routes", "not-found-and-error-screens") },
  { doc: "spec", sections: [2], near: /layout/i, to: page("routes", "layouts") },
  { doc: "spec", sections: [3], near: /area|fallback|price|global ones/i, to: page("data", "shopping-areas") },
  { doc: "spec", sections: [3], near: /notification/i, to: page("routes", "failed-calls-in-the-browser") },
  { doc: "spec", sections: [3], near: /catalog|product|game/i, to: page("data", "catalogue") },
  { doc: "spec", sections: [3], near: /subscription/i, to: page("data", "subscriptions") },
  { doc: "spec", sections: [4], near: /dd\.MM|\bdates?\b|formatDate/, to: page("routes", "dates-and-amounts") },
  { doc: "spec", sections: [4], near: /active|frozen|expired|\bstates?\b(?!-)/i, to: page("data", "subscription-states") },
  { doc: "spec", sections: [4], near: /session|token/i, to: page("accounts", "sessions") },
  { doc: "spec", sections: [4], near: /cookie|visitor/i, to: page("routes", "cookies") },
  { doc: "spec", sections: [4, 5, 9], near: /transaction|pages? of/i, to: page("data", "ledger") },
  { doc: "spec", sections: [5], near: /recaptcha/i, to: page("accounts", "recaptcha") },
  { doc: "spec", sections: [7], near: /transaction|\bskip\b|offset/i, to: page("api", "commerce-calls") },
  { doc: "spec", sections: [7], near: /icon/i, to: page("api", "other-paths") },
  { doc: "spec", sections: [8], near: /crawler|\bbots?\b/i, to: page("routes", "not-found-and-error-screens") },
  { doc: "spec", sections: [8], near: /notification|status/i, to: page("routes", "failed-calls-in-the-browser") },
  { doc: "spec", sections: [8], near: /error screen|404/i, to: page("routes", "not-found-and-error-screens") },

  { doc: "decisions", sections: [1, 11], near: /recaptcha|captcha|widget/i, to: page("accounts", "recaptcha") },
  {
    doc: "decisions",
    sections: [11],
    near: /production|loopback|convenience|demo|dev\/mail|development|others can reach|nobody else|\blog(s|ger)?\b|mail bod/i,
    to: page("operations", "production-safety"),
  },
  { doc: "decisions", sections: [1], near: /\bmail/i, to: page("operations", "mail-delivery") },
  { doc: "decisions", sections: [1], near: /demo|dev\/mail|development/i, to: page("operations", "development-conveniences") },
  { doc: "decisions", sections: [1], near: /NODE_ENV|\bmode\b/, to: page("operations", "running") },
  { doc: "decisions", sections: [1, 2], near: /redis|\brate\b|\blimits?\b/i, to: page("api", "rate-limits") },
  { doc: "decisions", sections: [2], near: /idempot/i, to: page("api", "idempotency") },
  { doc: "decisions", sections: [2], near: /\b429\b|counter|state-changing calls|failed sign-ins|per account|client address/i, to: page("api", "rate-limits") },
  { doc: "decisions", sections: [2], near: /cach|no-store/i, to: page("api", "caching") },
  { doc: "decisions", sections: [2], near: /origin|cross-site/i, to: page("api", "origin-check") },
  { doc: "decisions", sections: [2], near: /bearer|authenticat|token|session|cookie/i, to: page("api", "authentication") },
  { doc: "decisions", sections: [2], near: /envelope|stack trace/i, to: page("api", "envelope") },
  { doc: "decisions", sections: [2], near: /\bcodes?\b|error/i, to: page("api", "error-codes") },
  { doc: "decisions", sections: [2], near: /malformed|\b413\b|\bbod(y|ies)\b|\bfields?\b/i, to: page("api", "input") },
  { doc: "decisions", sections: [3], near: /e-?mail change|changeEmail|\bundo/i, to: page("accounts", "e-mail-change") },
  { doc: "decisions", sections: [3], near: /gift/i, to: page("money", "gifts") },
  { doc: "decisions", sections: [3], near: /payment|paypal|provider/i, to: page("money", "paying-through-a-provider") },
  { doc: "decisions", sections: [3], near: /purchas|balance/i, to: page("money", "buying-from-the-balance") },
  { doc: "decisions", sections: [3], near: /two-factor|2fa|totp/i, to: page("accounts", "two-factor-authentication") },
  { doc: "decisions", sections: [3, 5], near: /\bsso\b|ticket|sign-in link/i, to: page("accounts", "single-sign-on") },
  { doc: "decisions", sections: [3, 5], near: /reset/i, to: page("accounts", "password-reset") },
  { doc: "decisions", sections: [3], near: /regist/i, to: page("accounts", "registration") },
  { doc: "decisions", sections: [3], near: /login|sign-in|sign in/i, to: page("accounts", "sign-in") },
  { doc: "decisions", sections: [3], near: /statistic|transaction/i, to: page("api", "commerce-calls") },
  { doc: "decisions", sections: [6], near: /\bowed?\b|\bowes\b|uncovered|pays? (it )?off|paid off/i, to: page("money", "owed") },
  { doc: "decisions", sections: [4, 6], near: /referr|reward|self-referral|one person/i, to: page("money", "referrals") },
  { doc: "decisions", sections: [4], near: /gift|redeem|by e-mail/i, to: page("money", "gifts") },
  { doc: "decisions", sections: [4], near: /access_token|bearer|frontend\/data/i, to: page("api", "front-end-data") },
  { doc: "decisions", sections: [4], near: /shopping area|country/i, to: page("data", "shopping-areas") },
  { doc: "decisions", sections: [4, 8], near: /entitle|\bplay\b|active|frozen|expired|\bstates?\b(?!-)/i, to: page("data", "subscription-states") },
  { doc: "decisions", sections: [4], near: /subscription|\bpass(es)?\b/i, to: page("data", "subscriptions") },
  { doc: "decisions", sections: [4], near: /demo|seed/i, to: page("data", "demo-data") },
  { doc: "decisions", sections: [4], near: /product|catalog/i, to: page("data", "catalogue") },
  { doc: "decisions", sections: [4], near: /\busers?\b/i, to: page("data", "users") },
  { doc: "decisions", sections: [4], near: /balance|ledger|transaction/i, to: page("data", "ledger") },
  { doc: "decisions", sections: [5], near: /root|detect/i, to: page("routes", "language-detection") },
  { doc: "decisions", sections: [5], near: /cookie/i, to: page("routes", "cookies") },
  { doc: "decisions", sections: [5], near: /return page|paypal|provider/i, to: page("money", "paying-through-a-provider") },
  { doc: "decisions", sections: [5], near: /unknown game|\b404\b|\bgame\b|profile|redirect|guard|payment/i, to: page("routes", "guards-and-redirects") },
  { doc: "decisions", sections: [5], near: /\bmails?\b|e-mail/i, to: page("accounts", "mails") },
  { doc: "decisions", sections: [5], near: /locale|language|zh-CN/i, to: page("routes", "languages-and-urls") },
  { doc: "decisions", sections: [6], near: /disput/i, to: page("money", "disputes") },
  { doc: "decisions", sections: [6, 7], near: /suspen/i, to: page("accounts", "suspension") },
  { doc: "decisions", sections: [6], near: /top-up|unredeemed|void/i, to: page("money", "a-top-up") },
  { doc: "decisions", sections: [6], near: /direct purchase|not touched/i, to: page("money", "a-direct-purchase") },
  { doc: "decisions", sections: [9], near: /btcpay|split|use_balance|receipt/i, to: page("later", "more-payment-providers") },
  { doc: "decisions", sections: [10], near: /healthz|readyz|\bready\b/i, to: page("operations", "health") },
  { doc: "decisions", sections: [10], near: /timeout|statement|\bquer(y|ies)\b/i, to: page("operations", "database") },
  { doc: "decisions", sections: [11], near: /production|loopback/i, to: page("operations", "production-safety") },
];

/**
 * Whole phrases rewritten by hand where a mechanical replacement would read badly: the sentence
 * names the old document itself, or a citation is split over two lines.
 */
export const PHRASES = [
  {
    file: "server/api/index.ts",
    from: "The JSON API of the spec (\u00a77) and decisions \u00a73:",
    to: "The JSON API (docs/product/api.md):",
  },
  {
    file: "app/components/ui/icons.tsx",
    from: "no icon service at run time (spec \u00a77 mentions one; we\n// bundle instead).",
    to: "no icon service at run time\n// (docs/product/api.md#other-paths).",
  },
  {
    file: "app/lib/guards.server.ts",
    from: "Route guards and redirects of spec \u00a72 (server side: loaders and actions).",
    to: "Route guards and redirects, server side: loaders and actions\n// (docs/product/routes.md#guards-and-redirects).",
  },
  {
    file: "app/routes/profile/balance.tsx",
    from: "a failure carries the status that spec \u00a78 reacts to.",
    to: "a failure carries the status the page reacts to\n * (docs/product/routes.md#failed-calls-in-the-browser).",
  },
  {
    file: "server/middleware/security-headers.ts",
    from: "RECAPTCHA_SCRIPT_URL (decisions\n * \u00a711): the script's folder (e.g. https://www.google.com/recaptcha/) for",
    to: "RECAPTCHA_SCRIPT_URL\n * (docs/product/accounts.md#recaptcha): the script's folder (e.g.\n * https://www.google.com/recaptcha/) for",
  },
  {
    file: "docs/decisions/0003-locale-routes.md",
    from: "Root detection (decisions \u00a75)",
    to: "Root detection ([routes.md › Language detection](../product/routes.md#language-detection))",
  },
  {
    file: "docs/decisions/0004-pages-sign-in-by-cookie.md",
    from: "**Context.** Decisions \u00a72 lets a request authenticate",
    to: "**Context.** The API ([api.md › Authentication](../product/api.md#authentication)) lets a request authenticate",
  },
  {
    file: "docs/decisions/0005-money-after-the-fact.md",
    from: "**Context.** decisions \u00a76 gives the worked rules",
    to: "**Context.** [money.md › Refunds and reversals](../product/money.md#refunds-and-reversals) gives the worked rules",
  },
];

// One citation: "spec §N", "decisions §N–M", "decisions §N §M", "decisions §N, §M", also split
// over a comment's line break. A run: citations joined by ", " or " and ", cited together.
const NUMBER = String.raw`§\s*\d+(?:\s*[–-]\s*\d+)?`;
const CITE = String.raw`\b(?:spec|decisions)(?:[ \t]*\n[ \t]*(?:\/\/|\*|#)?)?[ \t]*${NUMBER}(?:(?:[ \t]*,[ \t]*|[ \t]+)${NUMBER})*`;
const RUN = new RegExp(String.raw`${CITE}(?:(?:[ \t]*[,;][ \t]*|[ \t]+and[ \t]+)${CITE})*`, "gi");
/** A run after "of" or "of the", not inside parentheses: the "of" goes, the references are bracketed. */
const OF_RUN = new RegExp(String.raw`(?<!\([^()\n]*)\bof (?:the )?${RUN.source}`, "gi");
const OLD = /§\s*\d/g;

/** The sections a run cites, in order: [["decisions", 2], ["decisions", 3], ["spec", 7]]. */
export function citedSections(run) {
  const items = [];
  let doc = "spec";
  for (const m of run.matchAll(/\b(spec|decisions)\b|§\s*(\d+)(?:\s*[–-]\s*(\d+))?/gi)) {
    if (m[1]) {
      doc = m[1].toLowerCase();
      continue;
    }
    const from = Number(m[2]);
    const to = m[3] === undefined ? from : Number(m[3]);
    for (let n = from; n <= to; n++) items.push([doc, n]);
  }
  return items;
}

/** The page and heading a cited section means in `file`, given the words around the citation. */
export function targetOf(file, doc, section, context) {
  for (const rule of RULES) {
    if (rule.file !== undefined && rule.file !== file) continue;
    if (rule.doc !== undefined && rule.doc !== doc) continue;
    if (rule.sections !== undefined && !rule.sections.includes(section)) continue;
    if (rule.near !== undefined && !rule.near.test(context)) continue;
    return rule.to;
  }
  return DEFAULTS[doc]?.[section] ?? "docs/README.md#old-section-numbers";
}

/** The citing sentence's words: the lines of the citation, and the line before when it opens its line. */
function contextOf(text, start, end) {
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const lineEnd = text.indexOf("\n", end);
  let context = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd);
  if (/^\s*(?:\/\/|\*|#|\/\*\*?)?\s*\(?\s*$/.test(text.slice(lineStart, start)) && lineStart > 0) {
    context = text.slice(text.lastIndexOf("\n", lineStart - 2) + 1, lineStart) + context;
  }
  return context;
}

/** "docs/product/money.md#owed" as a Markdown link from `file`. */
function markdownLink(file, target, headingTitle) {
  const [targetPath, anchor] = target.split("#");
  const relative = path.posix.relative(path.posix.dirname(file), targetPath) || path.posix.basename(targetPath);
  const name = path.posix.basename(targetPath);
  const title = anchor ? `${name} › ${headingTitle(targetPath, anchor) ?? anchor}` : name;
  return `[${title}](${relative}${anchor ? `#${anchor}` : ""})`;
}

/**
 * The text with every old citation replaced: the phrases first, then each run by the targets of
 * its sections (deduplicated), as plain references in code and as links in Markdown.
 */
export function rewrite(file, text, headingTitle = () => undefined) {
  let out = text;
  for (const phrase of PHRASES) if (phrase.file === file) out = out.split(phrase.from).join(phrase.to);
  const changes = [];
  const replaceRuns = (pattern, bracket) => {
    out = out.replace(pattern, (match, offset, whole) => {
      const run = match.replace(/^of (the )?/i, "");
      const context = contextOf(whole, offset, offset + match.length);
      const targets = [...new Set(citedSections(run).map(([doc, n]) => targetOf(file, doc, n, context)))];
      const written = (file.endsWith(".md") ? targets.map((t) => markdownLink(file, t, headingTitle)) : targets).join(", ");
      const replacement = bracket ? `(${written})` : written;
      changes.push({ line: whole.slice(0, offset).split("\n").length, from: match, to: replacement });
      return replacement;
    });
  };
  // "the envelope of decisions §N:" reads "the envelope (docs/product/api.md#envelope):".
  replaceRuns(OF_RUN, true);
  replaceRuns(RUN, false);
  changes.sort((a, b) => a.line - b.line);
  return { text: out, changes };
}

// ---- Headings and references ----

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** Lines outside fenced code blocks, with their numbers. */
function* proseLines(markdown) {
  let fence = null;
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      continue;
    }
    if (fence === null) yield { line, number: i + 1 };
  }
}

/** The anchors of a Markdown text's headings, with their titles (repeats get -1, -2, … as on GitHub). */
export function headings(markdown) {
  const anchors = new Map();
  const seen = new Map();
  for (const { line } of proseLines(markdown)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const title = m[1].replace(/`([^`]*)`/g, "$1").replace(/\*\*?([^*]+)\*\*?/g, "$1");
    const base = slug(title);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.set(count === 0 ? base : `${base}-${count}`, title.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1"));
  }
  return anchors;
}

const CODE_REF = /(?<![\w./-])docs\/[\w./-]*?\.md(?:#[\w-]+)?/g;
const MARKDOWN_LINK = /\[(?:[^\]\\\n]|\\.)*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;

/**
 * The references in one file: `docs/….md#anchor` anywhere (from the root), and in Markdown the
 * links to files of the repository (relative to the file).
 */
export function references(file, text) {
  const found = [];
  const lines = file.endsWith(".md") ? [...proseLines(text)] : text.split("\n").map((line, i) => ({ line, number: i + 1 }));
  for (const { line, number } of lines) {
    for (const m of line.matchAll(CODE_REF)) {
      const [target, anchor] = m[0].split("#");
      found.push({ line: number, raw: m[0], path: target, anchor });
    }
    if (!file.endsWith(".md")) continue;
    for (const m of line.replace(/`[^`]*`/g, "").matchAll(MARKDOWN_LINK)) {
      const href = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("//")) continue;
      const [target, anchor] = href.split("#");
      const resolved = target === "" ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
      found.push({ line: number, raw: href, path: resolved, anchor: anchor || undefined });
    }
  }
  return found;
}

/** Old "§N" citations left in a text: [{ line, raw }]. */
export function oldCitations(text) {
  const found = [];
  for (const m of text.matchAll(OLD)) {
    const line = text.slice(0, m.index).split("\n").length;
    const lineText = text.split("\n")[line - 1] ?? "";
    found.push({ line, raw: lineText.trim() });
  }
  return found;
}

/**
 * Problems in a set of files: old citations, references to a missing file or heading. `files` are
 * { path, text } with paths from the root; `read(path)` gives another file's text, or undefined.
 */
export function problems(files, read) {
  const out = [];
  const anchorsOf = new Map();
  const anchors = (p) => {
    if (!anchorsOf.has(p)) {
      const text = read(p);
      anchorsOf.set(p, text === undefined ? undefined : headings(text));
    }
    return anchorsOf.get(p);
  };
  for (const { path: file, text } of files) {
    for (const old of oldCitations(text)) {
      out.push(`${file}:${old.line}: old numbering, run \`npm run docs:refs -- --fix\`: ${old.raw}`);
    }
    for (const ref of references(file, text)) {
      const target = ref.path.replace(/\/$/, "");
      if (ref.anchor === undefined) {
        if (read(target) === undefined && !isDirectory(target)) out.push(`${file}:${ref.line}: ${ref.raw}: no such file`);
        continue;
      }
      const found = anchors(target);
      if (found === undefined) out.push(`${file}:${ref.line}: ${ref.raw}: no such file`);
      else if (!found.has(ref.anchor)) out.push(`${file}:${ref.line}: ${ref.raw}: no heading "#${ref.anchor}" in ${target}`);
    }
  }
  return out;
}

// ---- The tree ----

const SKIP = /^(node_modules|build|\.react-router|test-results|\.data|db\/migrations|i18n\/messages)\/|^package-lock\.json$|common-passwords\.txt$/;
const TEXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|md|css|json|ya?ml|sh)$|^\.ci\/run$/;

function isDirectory(relative) {
  try {
    return statSync(path.join(ROOT, relative)).isDirectory();
  } catch {
    return false;
  }
}

/** The repository's own text files (tracked or new, not ignored), paths from the root. */
export function treeFiles(root = ROOT) {
  let list;
  try {
    list = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" }).split("\n");
  } catch {
    list = [];
    const walk = (dir) => {
      for (const name of readdirSync(path.join(root, dir))) {
        const relative = dir ? `${dir}/${name}` : name;
        if (name === ".git" || SKIP.test(`${relative}/`)) continue;
        if (statSync(path.join(root, relative)).isDirectory()) walk(relative);
        else list.push(relative);
      }
    };
    walk("");
  }
  return list.filter((f) => f && TEXT.test(f) && !SKIP.test(f) && existsSync(path.join(root, f))).sort();
}

export function readTree(relative, root = ROOT) {
  try {
    return readFileSync(path.join(root, relative), "utf8");
  } catch {
    return undefined;
  }
}

/** The check over the whole tree: a list of problems, empty when every reference resolves. */
export function checkTree(root = ROOT) {
  const files = treeFiles(root).map((p) => ({ path: p, text: readTree(p, root) ?? "" }));
  return problems(files, (p) => readTree(p, root));
}

function main(argv) {
  const fix = argv.includes("--fix");
  const dryRun = argv.includes("--dry-run");
  if (fix || dryRun) {
    const titles = new Map();
    const headingTitle = (p, anchor) => {
      if (!titles.has(p)) titles.set(p, headings(readTree(p) ?? ""));
      return titles.get(p).get(anchor);
    };
    let count = 0;
    for (const file of treeFiles()) {
      const text = readTree(file) ?? "";
      const { text: out, changes } = rewrite(file, text, headingTitle);
      if (out === text) continue;
      for (const change of changes) console.log(`${file}:${change.line}: ${change.from.replace(/\s+/g, " ")} → ${change.to}`);
      if (changes.length === 0) console.log(`${file}: phrases rewritten`);
      count += 1;
      if (fix) writeFileSync(path.join(ROOT, file), out);
    }
    console.log(`${fix ? "rewrote" : "would rewrite"} ${count} file(s)`);
  }
  const found = checkTree();
  for (const problem of found) console.error(problem);
  if (found.length > 0) {
    console.error(`${found.length} reference problem(s); the scheme is in docs/README.md#references-in-the-code`);
    process.exit(1);
  }
  if (!fix && !dryRun) console.log("docs references: all resolve");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
