// References from the code to the product's documentation (docs/README.md#references-in-the-code):
// every one in the tree names a page and a heading of docs/ that exist, no citation in the old
// numbering is left, and `npm run docs:refs -- --fix` maps the old forms precisely and only once.
import { describe, expect, it } from "vitest";
import { DEFAULTS, PHRASES, RULES, checkTree, headings, problems, readTree, rewrite, slug } from "./docs-refs.mjs";

/** The section sign, spelled so that this file holds no old citation itself. */
const S = "\u00a7";
/** Broken references below are spelled in two parts, so the tree's own check does not see them. */
const DOCS = "docs/";
const D = `${DOCS}product/`;

describe("references to docs/", () => {
  it("every reference in the tree names a page and a heading that exist, and no old number is left", () => {
    expect(checkTree()).toEqual([]);
  });

  it("reports a missing heading, a missing page, a broken Markdown link and an old number", () => {
    const files = [
      {
        path: "core/example.ts",
        text: ["// (docs/product/money.md#owed)", `// ${D}money.md#no-such-heading`, `// ${D}nothing.md#owed`, `// decisions ${S}6`].join("\n"),
      },
      { path: `${D}example.md`, text: "[fine](money.md#owed), [gone](money.md#gone), [page](../README.md), [none](none.md)" },
    ];
    expect(problems(files, readTree)).toEqual([
      "core/example.ts:4: old numbering, run `npm run docs:refs -- --fix`: // decisions \u00a76",
      `core/example.ts:2: ${D}money.md#no-such-heading: no heading "#no-such-heading" in docs/product/money.md`,
      `core/example.ts:3: ${D}nothing.md#owed: no such file`,
      `${D}example.md:1: money.md#gone: no heading "#gone" in docs/product/money.md`,
      `${D}example.md:1: none.md: no such file`,
    ]);
  });

  it("every target --fix can write exists", () => {
    const targets = [...RULES.map((rule) => rule.to), ...Object.values(DEFAULTS).flatMap((sections) => Object.values(sections))];
    const files = targets.map((target, i) => ({ path: `scripts/target-${i}.ts`, text: `// ${target}` }));
    files.push(...PHRASES.map((phrase) => ({ path: phrase.file, text: phrase.to })));
    expect(problems(files, readTree)).toEqual([]);
  });

  it("the index's table of old section numbers lists every section --fix knows", () => {
    const index = readTree("docs/README.md") ?? "";
    const listed = [...index.matchAll(/^\| (spec|decisions) (\d+) \|/gm)].map((m) => `${m[1]} ${m[2]}`);
    const known = Object.entries(DEFAULTS).flatMap(([doc, sections]) => Object.keys(sections).map((n) => `${doc} ${n}`));
    expect(listed).toEqual(known);
  });

  it("makes anchors as GitHub does", () => {
    expect(slug("Refunds and reversals")).toBe("refunds-and-reversals");
    expect(slug("E-mail change")).toBe("e-mail-change");
    expect(slug("Data: entities, states and the ledger")).toBe("data-entities-states-and-the-ledger");
    expect(slug("NOVA — how the shop works")).toBe("nova--how-the-shop-works");
    const markdown = ["# Title", "## `owed` and **money**", "## Not built yet", "```", "## not a heading", "```", "## Not built yet"].join("\n");
    expect([...headings(markdown).keys()]).toEqual(["title", "owed-and-money", "not-built-yet", "not-built-yet-1"]);
  });
});

describe("npm run docs:refs -- --fix", () => {
  const fix = (file: string, text: string) => rewrite(file, text).text;

  it("maps a citation by its section", () => {
    expect(fix("core/example.ts", `// Read once at boot (decisions ${S}1).`)).toBe("// Read once at boot (docs/product/operations.md#settings).");
  });

  it("tells apart the pages one old section covered by the subject of the sentence", () => {
    expect(fix("core/example.ts", `// The first answer of an Idempotency-Key (decisions ${S}2).`)).toBe("// The first answer of an Idempotency-Key (docs/product/api.md#idempotency).");
    expect(fix("core/example.ts", `// Never cached (decisions ${S}2).`)).toBe("// Never cached (docs/product/api.md#caching).");
    expect(fix("core/example.ts", `// What the buyer owes (decisions ${S}6).`)).toBe("// What the buyer owes (docs/product/money.md#owed).");
    expect(fix("core/example.ts", `// A refund or reversal (decisions ${S}6).`)).toBe("// A refund or reversal (docs/product/money.md#refunds-and-reversals).");
    expect(fix("core/example.ts", `// Dates as dd.MM.yyyy HH:mm (spec ${S}4).`)).toBe("// Dates as dd.MM.yyyy HH:mm (docs/product/routes.md#dates-and-amounts).");
    expect(fix("core/example.ts", `// Frozen never reads as expired (spec ${S}4).`)).toBe("// Frozen never reads as expired (docs/product/data.md#subscription-states).");
    // The words of the line before count when the citation opens its line.
    expect(fix("core/example.ts", `// The cookie of a page view\n// (decisions ${S}5).`)).toBe("// The cookie of a page view\n// (docs/product/routes.md#cookies).");
  });

  it("follows a file's own subject, expands ranges and lists, and names each heading once", () => {
    expect(fix("server/api/accounts.ts", `// Accounts API (spec ${S}7, decisions ${S}2–3): register.`)).toBe("// Accounts API (docs/product/api.md#account-calls): register.");
    expect(fix("core/example.ts", `// and the error screens (spec ${S}2, ${S}8).`)).toBe("// and the error screens (docs/product/routes.md#not-found-and-error-screens).");
  });

  it('brackets a citation after "of", and joins one split over a comment\'s line break', () => {
    expect(fix("core/example.ts", `// The response envelope of decisions ${S}2: every body`)).toBe("// The response envelope (docs/product/api.md#envelope): every body");
    expect(fix("core/example.ts", `// the widget's script (decisions\n// ${S}11) loads`)).toBe("// the widget's script (docs/product/accounts.md#recaptcha) loads");
  });

  it("writes Markdown links in Markdown", () => {
    expect(fix(`${DOCS}decisions/0099-example.md`, `The rules of decisions ${S}6 decide.`)).toBe(
      "The rules ([money.md › refunds-and-reversals](../product/money.md#refunds-and-reversals)) decide.",
    );
  });

  it("changes nothing the second time", () => {
    const text = `// Read once (decisions ${S}1); the envelope of decisions ${S}2; (spec ${S}3–4, decisions ${S}4)\n`;
    const once = fix("core/subscriptions/index.ts", text);
    expect(once).not.toContain(S);
    expect(fix("core/subscriptions/index.ts", once)).toBe(once);
    for (const phrase of PHRASES) expect(fix(phrase.file, fix(phrase.file, phrase.from))).toBe(phrase.to);
  });
});
