// The text format of operator-edited pages (docs/product/routes.md#legal-and-support-pages): a
// few plain-text conventions rather than HTML, so an operator cannot put markup or script into a
// page. Blank lines separate blocks; "## " starts a heading, "- " a list item; [text](target)
// is a link, whose target is a path of the site ("/support", localised when rendered), an https
// URL or a mailto: address. Anything else is text.

import type { Locale } from "../../i18n/locales.ts";
import { bindShortWords } from "../../i18n/typography.ts";

/** A run of a paragraph, heading or list item: text, or a link. */
export type Inline = { text: string; href?: string };
export type Block = { kind: "p" | "h2"; content: Inline[] } | { kind: "ul"; items: Inline[][] };

const LINK = /\[([^\]\n]+)\]\(([^)\s]+)\)/g;

/** Whether a link target is one we render: a path of the site, https, or mailto. */
export function isAllowedTarget(target: string): boolean {
  return /^\/(?![/\\])[^\s]*$/.test(target) || /^https:\/\/[^\s]+$/.test(target) || /^mailto:[^\s@]+@[^\s@]+$/.test(target);
}

function inline(text: string): Inline[] {
  const runs: Inline[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const [whole, label, target] = match as unknown as [string, string, string];
    const at = match.index ?? 0;
    if (at > last) runs.push({ text: text.slice(last, at) });
    // A link to anywhere else stays its words: nothing of an operator's typo becomes a script.
    runs.push(isAllowedTarget(target) ? { text: label, href: target } : { text: label });
    last = at + whole.length;
  }
  if (last < text.length) runs.push({ text: text.slice(last) });
  return runs;
}

/**
 * The blocks of a page's text, read line by line: a "## " line is a heading, consecutive "- "
 * lines a list, other consecutive lines a paragraph; a blank line ends a paragraph or a list.
 * `values` fills in `{name}` placeholders (e.g. the support address). Given the page's `locale`,
 * a heading keeps its short words with the next one as the language wants
 * (docs/product/glossary.md#headings-and-buttons): operators type plain spaces.
 */
export function parseMarkup(source: string, values: Record<string, string> = {}, locale?: Locale): Block[] {
  const filled = source.replace(/\{([a-z_]+)\}/g, (whole, name: string) => values[name] ?? whole);
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: Inline[][] | undefined;
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: "p", content: inline(paragraph.join(" ")) });
    if (list) blocks.push({ kind: "ul", items: list });
    paragraph = [];
    list = undefined;
  };
  for (const raw of filled.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trim();
    if (!line) {
      flush();
    } else if (line.startsWith("## ")) {
      flush();
      const heading = line.slice(3).trim();
      blocks.push({ kind: "h2", content: inline(locale ? bindShortWords(heading, locale) : heading) });
    } else if (line.startsWith("- ")) {
      if (paragraph.length) flush();
      (list ??= []).push(inline(line.slice(2).trim()));
    } else {
      if (list) flush();
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}
