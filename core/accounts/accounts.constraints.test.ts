// The forms' HTML constraints (accounts.constraints.ts) against the schemas that check the posts
// (accounts.schema.ts): written by hand so that the browser gets no Zod, they must say what the
// schema says. For each form and field, on values around every limit and a few of each shape:
// whatever the schema takes, the constraints take too (they never announce a valid value as
// wrong), and each limit is the schema's own (a value just past it is one the schema refuses).
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { ACCOUNT_FORMS, type Constraint } from "./accounts.constraints.ts";
import {
  ChangeEmailSchema,
  ChangePasswordFields,
  ConfirmEnableSchema,
  ConfirmTwoFaSchema,
  DeleteAccountSchema,
  DisableTwoFaSchema,
  LoginSchema,
  RegisterSchema,
  ResetRequestSchema,
  SetPasswordResetSchema,
  ValidateResetCodeSchema,
} from "./accounts.schema.ts";

/** A value of the field's kind, exactly `length` characters long. */
type Sample = (length: number) => string;
const letters: Sample = (n) => "aB3".repeat(n).slice(0, n);
const digits: Sample = (n) => "1".repeat(n);
const email: Sample = (n) => `${"a".repeat(Math.max(1, n - "@example.com".length))}@example.com`;
const recovery: Sample = (n) => (n <= 6 ? digits(n) : `abcd-${"efghijkl".repeat(n)}`.slice(0, n));

type Case = { schema: z.ZodType; valid: Record<string, string>; samples: Record<string, Sample>; probes?: Record<string, string[]> };
const address = "player@example.com";
const password = "Quartz-Lantern-42";

const CASES: { [F in keyof typeof ACCOUNT_FORMS]: Case } = {
  login: { schema: LoginSchema, valid: { login: address, password }, samples: { login: letters, password: letters } },
  twoFaStep: { schema: ConfirmTwoFaSchema, valid: { code: "123456" }, samples: { code: recovery }, probes: { code: ["123456", "abcd-efgh", "abcdefgh", "12345"] } },
  register: {
    schema: RegisterSchema,
    valid: { email: address, username: "player_1", password },
    samples: { email, username: letters, password: letters },
    probes: { username: ["player_1", "a.b-c", "x_Y.9-z", "two words", "ünïcode", "semi;colon"], email: [address, "not an address"] },
  },
  resetRequest: { schema: ResetRequestSchema, valid: { email: address }, samples: { email } },
  resetCode: { schema: ValidateResetCodeSchema, valid: { email: address, resetCode: "123456" }, samples: { resetCode: digits }, probes: { resetCode: ["654321", "12345a", "12 456"] } },
  resetPassword: { schema: SetPasswordResetSchema, valid: { email: address, resetCode: "123456", password }, samples: { password: letters } },
  changePassword: { schema: ChangePasswordFields, valid: { old_password: "old", new_password: password }, samples: { old_password: letters, new_password: letters } },
  changeEmail: { schema: ChangeEmailSchema, valid: { email: address }, samples: { email } },
  confirmTwoFa: { schema: ConfirmEnableSchema, valid: { code: "123456" }, samples: { code: digits }, probes: { code: ["000000", "abcdef", "1234567"] } },
  disableTwoFa: { schema: DisableTwoFaSchema, valid: { password, code: "123456" }, samples: { password: letters, code: recovery } },
  deleteAccount: { schema: DeleteAccountSchema, valid: { password }, samples: { password: letters } },
};

/** Whether a browser checking the constraints would take the value (an absent field is ""). */
function constraintsTake(constraint: Constraint, value: string): boolean {
  if (value === "") return !constraint.required;
  if (constraint.minLength !== undefined && value.length < constraint.minLength) return false;
  if (constraint.maxLength !== undefined && value.length > constraint.maxLength) return false;
  return constraint.pattern === undefined || new RegExp(`^(?:${constraint.pattern})$`, "v").test(value);
}

/** Whether the schema takes the form with this one field changed ("" as a browser posts an empty field: absent, as Conform reads it). */
function schemaTakes(kase: Case, field: string, value: string): boolean {
  const input: Record<string, string> = { ...kase.valid };
  if (value === "") delete input[field];
  else input[field] = value;
  const parsed = kase.schema.safeParse(input);
  return parsed.success || !parsed.error.issues.some((issue) => issue.path[0] === field);
}

describe.each(Object.entries(ACCOUNT_FORMS))("the %s form's constraints", (name, constraints) => {
  const kase = CASES[name as keyof typeof ACCOUNT_FORMS];

  it("name only fields its schema reads, and its valid sample passes", () => {
    expect(kase.schema.safeParse(kase.valid).success).toBe(true);
    const shape = (kase.schema as unknown as { shape: Record<string, unknown> }).shape;
    for (const field of Object.keys(constraints)) expect(shape, field).toHaveProperty(field);
  });

  it.each(Object.entries(constraints as Record<string, Constraint>))("%s: take what the schema takes, and each limit is the schema's", (field, constraint) => {
    const sample = kase.samples[field]!;
    const lengths = [constraint.minLength, constraint.maxLength].filter((n): n is number => n !== undefined);
    const values = new Set(["", kase.valid[field] ?? "", ...(kase.probes?.[field] ?? []), ...lengths.flatMap((n) => [n - 1, n, n + 1].filter((l) => l > 0).map(sample))]);
    for (const value of values) {
      if (schemaTakes(kase, field, value)) expect(constraintsTake(constraint, value), `${JSON.stringify(value)} passes the schema`).toBe(true);
    }
    // Each limit is exactly the schema's: the value at it passes, the one past it does not.
    if (constraint.required) expect(schemaTakes(kase, field, "")).toBe(false);
    if (constraint.maxLength !== undefined) {
      expect(schemaTakes(kase, field, sample(constraint.maxLength)), "at maxLength").toBe(true);
      expect(schemaTakes(kase, field, sample(constraint.maxLength + 1)), "past maxLength").toBe(false);
    }
    if (constraint.minLength !== undefined) {
      expect(schemaTakes(kase, field, sample(constraint.minLength)), "at minLength").toBe(true);
      expect(schemaTakes(kase, field, sample(constraint.minLength - 1)), "below minLength").toBe(false);
    }
  });
});
