// Telling a message key from any string at run time, for keys that arrive as data (the message
// of a Zod issue): the English catalogue has every key. Server side only (it holds the catalogue).
import english from "./messages/en.json" with { type: "json" };
import type { MessageKey } from "./translate.ts";

const KEYS: ReadonlySet<string> = new Set(Object.keys(english));

export function isMessageKey(value: string): value is MessageKey {
  return KEYS.has(value);
}
