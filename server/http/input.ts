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
 * that holds a control character; undefined when there is none. Iterative: a body may nest
 * thousands of levels deep within its size limit.
 */
export function controlCharacterPath(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, ""]];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === "string") {
      if (hasControlCharacters(current)) return path || "body";
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    const entries = Array.isArray(current) ? current.map((v, i) => [String(i), v] as const) : Object.entries(current);
    // Pushed in reverse, so that the first offending field in document order is named.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, inner] = entries[i]!;
      const at = path ? `${path}.${key}` : key;
      if (hasControlCharacters(key)) return at;
      stack.push([inner, at]);
    }
  }
  return undefined;
}
