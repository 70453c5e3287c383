// The text format of operator-edited pages: blocks, links, placeholders, and nothing that could
// become markup or a script.
import { describe, expect, test } from "vitest";
import { isAllowedTarget, parseMarkup } from "./markup.ts";

describe("parseMarkup", () => {
  test("headings, lists and paragraphs, line by line", () => {
    const blocks = parseMarkup("Intro line one\nline two\n\n## Heading\n- first\n- second\nAfter the list\n\n- alone");
    expect(blocks).toEqual([
      { kind: "p", content: [{ text: "Intro line one line two" }] },
      { kind: "h2", content: [{ text: "Heading" }] },
      { kind: "ul", items: [[{ text: "first" }], [{ text: "second" }]] },
      { kind: "p", content: [{ text: "After the list" }] },
      { kind: "ul", items: [[{ text: "alone" }]] },
    ]);
  });

  test("given a Russian page, a heading keeps its short words with the next one; the text and other languages are left as written", () => {
    const source = "## Что мы храним и зачем\nВ тексте на месте.";
    expect(parseMarkup(source, {}, "ru")).toEqual([
      { kind: "h2", content: [{ text: "Что мы храним и\u00a0зачем" }] },
      { kind: "p", content: [{ text: "В тексте на месте." }] },
    ]);
    expect(parseMarkup(source, {}, "en")[0]).toEqual({ kind: "h2", content: [{ text: "Что мы храним и зачем" }] });
  });

  test("links to our paths, https and mailto; any other target stays text", () => {
    const [block] = parseMarkup("See [refunds](/refunds), [docs](https://example.com/a), [mail](mailto:help@example.com), [bad](javascript:alert(1)) and [host](//evil.com).");
    expect(block).toEqual({
      kind: "p",
      content: [
        { text: "See " },
        { text: "refunds", href: "/refunds" },
        { text: ", " },
        { text: "docs", href: "https://example.com/a" },
        { text: ", " },
        { text: "mail", href: "mailto:help@example.com" },
        { text: ", " },
        { text: "bad" },
        { text: ") and " },
        { text: "host" },
        { text: "." },
      ],
    });
    expect(isAllowedTarget("/\\evil.com")).toBe(false);
    expect(isAllowedTarget("http://example.com")).toBe(false);
  });

  test("placeholders are filled, unknown ones stay, and markup is only text", () => {
    const [block] = parseMarkup("Write to {support_email} or {unknown}. <script>x</script>", { support_email: "help@example.com" });
    expect(block).toEqual({ kind: "p", content: [{ text: "Write to help@example.com or {unknown}. <script>x</script>" }] });
  });
});
