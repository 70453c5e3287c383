// The field schemas the inputs of every area are made of: ids in JSON and as text, amounts typed
// by a person in the shop currency (a top-up; the back office's balance changes and refunds).
import { describe, expect, it } from "vitest";
import { balanceFormSchema, refundFormSchema } from "../admin/admin.schema.ts";
import { topUpFormSchema } from "../payments/payments.schema.ts";
import { BigIdTextSchema, IdSchema, IdTextSchema, MAX_ID } from "./schema.ts";

const issue = (result: { success: boolean; error?: { issues: { message: string }[] } }) => (result.success ? undefined : result.error!.issues[0]!.message);

describe("ids", () => {
  it("in JSON: a positive integer a serial column holds, never a string", () => {
    expect(IdSchema.parse(1)).toBe(1);
    expect(IdSchema.parse(MAX_ID)).toBe(MAX_ID);
    for (const bad of [0, -1, 1.5, MAX_ID + 1]) expect(issue(IdSchema.safeParse(bad)), String(bad)).toBe("validation.invalid");
    expect(IdSchema.safeParse("1").success).toBe(false);
  });

  it("as text: digits only, within the same bounds; empty is missing", () => {
    expect(IdTextSchema.parse("13")).toBe(13);
    expect(IdTextSchema.parse(String(MAX_ID))).toBe(MAX_ID);
    for (const bad of ["1e3", "0x10", " 5", "1.0", "-1", "0", String(MAX_ID + 1), "99999999999999999"]) {
      expect(issue(IdTextSchema.safeParse(bad)), bad).toBe("validation.invalid");
    }
    expect(issue(IdTextSchema.safeParse(""))).toBe("validation.required");
    expect(BigIdTextSchema.parse(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(BigIdTextSchema.safeParse("9007199254740992").success).toBe(false);
  });
});

describe("a top-up typed on the balance page", () => {
  it.each([
    ["25", 2500],
    ["25.5", 2550],
    ["25,50", 2550],
    [" 1 000,00 ", 100_000],
  ])("%j in USD → %i minor units", (typed, minor) => {
    expect(topUpFormSchema("USD").parse({ amount: typed })).toEqual({ amount: minor });
  });

  it("follows the currency's decimals (JPY has none)", () => {
    expect(topUpFormSchema("JPY").parse({ amount: "1500" })).toEqual({ amount: 1500 });
    expect(issue(topUpFormSchema("JPY").safeParse({ amount: "15.5" }))).toBe("validation.amount");
  });

  it.each([["abc"], ["1.234"], ["-5"], ["1e3"], ["25.5.5"]])("%j is no amount", (typed) => {
    expect(issue(topUpFormSchema("USD").safeParse({ amount: typed }))).toBe("validation.amount");
  });

  it("nothing typed is a missing field", () => {
    expect(issue(topUpFormSchema("USD").safeParse({ amount: "  " }))).toBe("validation.required");
    expect(issue(topUpFormSchema("USD").safeParse({}))).toBe("validation.required");
  });
});

describe("a balance change typed in the back office", () => {
  it.each([
    ["5", 500],
    ["+12,50", 1250],
    ["-2.5", -250],
    [" - 1 000 ", -100_000],
  ])("%j in USD → %i minor units", (typed, minor) => {
    expect(balanceFormSchema("USD").parse({ amount: typed, reason: "goodwill" })).toMatchObject({ amount: minor });
  });

  it.each([["0"], ["-0"], ["--5"], ["5-"], ["+-5"], ["1.234"]])("%j is refused", (typed) => {
    expect(balanceFormSchema("USD").safeParse({ amount: typed, reason: "goodwill" }).success).toBe(false);
  });

  it("a refund's amount is never negative, and none means all that is left", () => {
    expect(refundFormSchema("USD").parse({ reason: "asked" }).amount).toBeUndefined();
    expect(refundFormSchema("USD").parse({ amount: "7,25", reason: "asked" }).amount).toBe(725);
    expect(issue(refundFormSchema("USD").safeParse({ amount: "-1", reason: "asked" }))).toBe("validation.amount");
  });
});
