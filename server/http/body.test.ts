// Field messages of a failed validation are catalogue keys, whatever a schema's message says.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DomainError } from "../../core/shared/errors.ts";
import { validate } from "./body.ts";

function fieldsOf(schema: z.ZodType, input: unknown) {
  try {
    validate(schema, input);
  } catch (error) {
    if (error instanceof DomainError) return error.details.fields;
    throw error;
  }
  throw new Error("valid");
}

describe("validate", () => {
  it("keeps a schema's own message when it is a catalogue key", () => {
    const schema = z.object({ code: z.string().regex(/^\d{6}$/, "validation.code") });
    expect(fieldsOf(schema, { code: "12" })).toEqual({ code: "validation.code" });
  });

  it("uses the issue's generic key for a message that is not a catalogue key (a typo, Zod's English)", () => {
    const typo = z.object({ code: z.string().regex(/^\d{6}$/, "validation.cdoe"), name: z.string().min(3, "too short!") });
    expect(fieldsOf(typo, { code: "12", name: "x" })).toEqual({ code: "validation.invalid", name: "validation.too_short" });
  });

  it("says 'required' for a missing value and 'wrong type' for one of the wrong type, whatever the schema says", () => {
    const schema = z.object({ email: z.string({ message: "validation.required" }) });
    expect(fieldsOf(schema, {})).toEqual({ email: "validation.required" });
    expect(fieldsOf(schema, { email: 5 })).toEqual({ email: "validation.invalid_type" });
  });
});
