// Operator-written text (core/content/markup.ts) as React elements: paragraphs, headings, lists
// and links. Never HTML from the text itself: whatever an operator types is shown as text.
import type { Block, Inline } from "../../core/content/markup.ts";
import { useHref } from "../lib/paths.ts";

function Runs({ runs }: { runs: Inline[] }) {
  const href = useHref();
  return runs.map((run, i) =>
    run.href === undefined ? (
      run.text
    ) : (
      <a key={i} href={run.href.startsWith("/") ? href(run.href) : run.href} rel={run.href.startsWith("https:") ? "noopener" : undefined}>
        {run.text}
      </a>
    ),
  );
}

export function Markup({ blocks }: { blocks: Block[] }) {
  return blocks.map((block, i) =>
    block.kind === "ul" ? (
      <ul key={i}>
        {block.items.map((item, j) => (
          <li key={j}>
            <Runs runs={item} />
          </li>
        ))}
      </ul>
    ) : block.kind === "h2" ? (
      <h2 key={i}>
        <Runs runs={block.content} />
      </h2>
    ) : (
      <p key={i}>
        <Runs runs={block.content} />
      </p>
    ),
  );
}
