// Reading and validating JSON request bodies with Zod; every failure is a DomainError.
import type { Context } from "hono";
import type { z } from "zod";
import { DomainError } from "../../core/shared/errors.ts";
import { isMessageKey } from "../../i18n/keys.ts";
import type { MessageKey } from "../../i18n/translate.ts";
import type { HonoEnv } from "../context.ts";
import { controlCharacterPath } from "./input.ts";

/** Message key of a Zod issue by its kind, for a schema that names none of its own. */
function kindKey(issue: z.core.$ZodIssue): MessageKey {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined ? "validation.required" : "validation.invalid_type";
    case "too_small":
      return "validation.too_short";
    case "too_big":
      return "validation.too_long";
    case "invalid_format":
      return issue.format === "email" ? "validation.email" : "validation.invalid";
    default:
      return "validation.invalid";
  }
}

/**
 * Message key of a Zod issue, shown next to the field in the user's language: the JSON API's and
 * the page forms' (app/lib/forms.server.ts) alike.
 */
export function issueKey(issue: z.core.$ZodIssue): MessageKey {
  // A schema's own message is a catalogue key (Zod's defaults are English sentences); its
  // "required" is for a missing value, and a value of the wrong type says so.
  const own = isMessageKey(issue.message) && !(issue.code === "invalid_type" && issue.message === "validation.required") ? issue.message : undefined;
  return own ?? kindKey(issue);
}

export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  // reportInput: issueKey tells a missing value (required) from one of the wrong type by it.
  const parsed = schema.safeParse(input, { reportInput: true });
  if (parsed.success) return parsed.data;
  const fields: Record<string, MessageKey> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.map(String).join(".") || "body";
    fields[field] ??= issueKey(issue);
  }
  throw new DomainError("validation_failed", "errors.validation_failed", { fields });
}

/** Refuses (400 validation_failed, naming the field) a value holding a control character. */
export function refuseControlCharacters(value: unknown): void {
  const field = controlCharacterPath(value);
  if (field !== undefined) {
    throw new DomainError("validation_failed", "errors.validation_failed", { fields: { [field]: "validation.control_characters" } });
  }
}

/** A request body's JSON object; anything else, or a control character in it, is a DomainError. */
export function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DomainError("invalid_json");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new DomainError("invalid_json");
  refuseControlCharacters(value);
  return value as Record<string, unknown>;
}

export async function jsonBody<S extends z.ZodType>(c: Context<HonoEnv>, schema: S): Promise<z.infer<S>> {
  const type = c.req.header("content-type") ?? "";
  const text = await c.req.text();
  if (text.trim() === "") return validate(schema, {});
  if (!/^application\/([a-z.+-]*\+)?json\b/i.test(type)) throw new DomainError("unsupported_media_type");
  return validate(schema, parseJsonObject(text));
}

/** Query parameters, validated (their control characters were refused by the app's edge check). */
export function query<S extends z.ZodType>(c: Context<HonoEnv>, schema: S): z.infer<S> {
  return validate(schema, c.req.query());
}
