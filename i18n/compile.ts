// Compiles ICU MessageFormat text into the small tree of translate.ts, on the server only (at
// boot, in tests and in scripts/i18n.ts): the parser is FormatJS's, and it never reaches the
// browser (docs/decisions/0007). Also describes a message's arguments, for the generated key types
// and the catalogue checks.
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import type { Compiled, Part } from "./translate.ts";

export class MessageSyntaxError extends Error {}

/**
 * Numbers, dates and money are formatted before they are passed (i18n/format.ts), so a message
 * holds only text, {arguments}, plurals, selectordinals and selects; anything else is refused.
 * Tags (`<b>`) are plain text.
 */
export function compileMessage(source: string): Compiled {
  let elements: MessageFormatElement[];
  try {
    elements = parse(source, { ignoreTag: true, requiresOtherClause: true });
  } catch (error) {
    throw new MessageSyntaxError(`invalid ICU message (${error instanceof Error ? error.message : String(error)}): ${source}`);
  }
  const parts = convert(elements, source);
  return parts.length === 0 ? "" : parts.length === 1 && typeof parts[0] === "string" ? parts[0] : parts;
}

function convert(elements: MessageFormatElement[], source: string): Part[] {
  const parts: Part[] = [];
  for (const element of elements) {
    switch (element.type) {
      case TYPE.literal: {
        // Adjacent text (the parser splits around quotes) is joined.
        const last = parts.length - 1;
        if (typeof parts[last] === "string") parts[last] += element.value;
        else parts.push(element.value);
        break;
      }
      case TYPE.argument:
        parts.push([element.value]);
        break;
      case TYPE.pound:
        parts.push(0);
        break;
      case TYPE.plural:
        parts.push([element.value, element.pluralType === "ordinal" ? "selectordinal" : "plural", cases(element.options, source), element.offset]);
        break;
      case TYPE.select:
        parts.push([element.value, "select", cases(element.options, source)]);
        break;
      default:
        throw new MessageSyntaxError(`only {name}, plural, selectordinal and select are supported; format numbers, dates and money before passing them: ${source}`);
    }
  }
  return parts;
}

function cases(options: Record<string, { value: MessageFormatElement[] }>, source: string): Record<string, Compiled> {
  return Object.fromEntries(
    Object.entries(options).map(([selector, option]) => {
      const parts = convert(option.value, source);
      return [selector, parts.length === 0 ? "" : parts.length === 1 && typeof parts[0] === "string" ? parts[0] : parts];
    }),
  );
}

/** How a message uses an argument: as text, as the number of a plural, or as a select's choice. */
export type ArgumentKind = "text" | "number" | "choice";

export type PluralUse = { argument: string; kind: "plural" | "selectordinal"; selectors: string[] };

/** The arguments of a compiled message and their kinds (a number anywhere makes it a number). */
export function argumentsOf(message: Compiled): Map<string, ArgumentKind> {
  const found = new Map<string, ArgumentKind>();
  walk(message, (part) => {
    const kind: ArgumentKind = part.length === 1 ? "text" : part[1] === "select" ? "choice" : "number";
    const seen = found.get(part[0]);
    if (seen === undefined || seen === "text") found.set(part[0], kind);
  });
  return found;
}

/** Every plural and selectordinal of a compiled message, with its selectors. */
export function pluralsOf(message: Compiled): PluralUse[] {
  const found: PluralUse[] = [];
  walk(message, (part) => {
    if (part.length !== 1 && part[1] !== "select") found.push({ argument: part[0], kind: part[1], selectors: Object.keys(part[2]) });
  });
  return found;
}

/** The text of a compiled message without its arguments (every case of a plural or select). */
export function textOf(message: Compiled): string {
  if (typeof message === "string") return message;
  return message.map((part) => (typeof part === "string" ? part : part === 0 || part.length === 1 ? " " : Object.values(part[2]).map(textOf).join(" "))).join("");
}

function walk(message: Compiled, visit: (part: Exclude<Part, string | 0>) => void) {
  if (typeof message === "string") return;
  for (const part of message) {
    if (typeof part === "string" || part === 0) continue;
    visit(part);
    if (part.length !== 1) for (const inner of Object.values(part[2])) walk(inner, visit);
  }
}
