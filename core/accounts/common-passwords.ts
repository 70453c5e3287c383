// The shipped list of common passwords (common-passwords.txt), loaded once.
import { readFileSync } from "node:fs";

let list: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  list ??= new Set(
    readFileSync(new URL("./common-passwords.txt", import.meta.url), "utf8")
      .split("\n")
      .filter((line) => line && !line.startsWith("#")),
  );
  return list.has(password.toLowerCase());
}
