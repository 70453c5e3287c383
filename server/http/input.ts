// The one check of untrusted text at the edge (JSON bodies, query strings, page forms): control
// characters are refused before anything reaches the core or the database. PostgreSQL cannot store
// NUL in text at all (a 500 before this check), and no field of ours means a control character;
// tab, line feed and carriage return stay allowed, as a pasted value or a textarea may hold them.

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Whether a string holds a control character other than tab, line feed or carriage return. */
export function hasControlCharacters(text: string): boolean {
  return CONTROL.test(text);
}

/**
 * The path ("a.b.0") of the first key or string value of a parsed JSON value, a form or a query
 * that holds a control character; undefined when there is none.
 */
export function controlCharacterPath(value: unknown, path = ""): string | undefined {
  if (typeof value === "string") return hasControlCharacters(value) ? path || "body" : undefined;
  if (value === null || typeof value !== "object") return undefined;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  for (const [key, inner] of entries) {
    const at = path ? `${path}.${key}` : key;
    if (hasControlCharacters(key)) return at;
    const found = controlCharacterPath(inner, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Largest id of a serial (int4) column: a bigger number is no id of ours, and no query takes it. */
export const MAX_ID = 2_147_483_647;
