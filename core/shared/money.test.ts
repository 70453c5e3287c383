import { describe, expect, it } from "vitest";
import { minorDigits } from "./money.ts";

describe("money", () => {
  it("knows the minor digits of a currency", () => {
    expect(minorDigits("USD")).toBe(2);
    expect(minorDigits("JPY")).toBe(0);
    expect(minorDigits("KWD")).toBe(3);
  });
});
