// Minor units ↔ PayPal's decimal strings: exact, and strict about what a provider may send.
import { describe, expect, it } from "vitest";
import { fromDecimal, toDecimal } from "./provider.ts";

describe("toDecimal", () => {
  it.each([
    [1999, 2, "19.99"],
    [5, 2, "0.05"],
    [100, 2, "1.00"],
    [0, 2, "0.00"],
    [-5, 2, "-0.05"],
    [1500, 0, "1500"],
    [1234, 3, "1.234"],
  ])("%i with %i decimals → %s", (minor, digits, text) => {
    expect(toDecimal(minor, digits)).toBe(text);
  });
});

describe("fromDecimal", () => {
  it.each([
    ["19.99", 2, 1999],
    ["19.9", 2, 1990],
    ["19", 2, 1900],
    ["0.05", 2, 5],
    [" 7.99 ", 2, 799],
    ["1500", 0, 1500],
  ])("%s with %i decimals → %i", (text, digits, minor) => {
    expect(fromDecimal(text, digits)).toBe(minor);
  });

  it.each([["19.999"], ["-1.00"], ["1e3"], ["1,00"], [""], ["abc"], ["1.2.3"], ["0x10"], ["Infinity"]])("refuses %j", (text) => {
    expect(fromDecimal(text, 2)).toBeUndefined();
  });

  it("refuses decimals for a currency without them", () => {
    expect(fromDecimal("100.00", 0)).toBeUndefined();
  });

  it("round-trips every amount of the top-up range", () => {
    for (let minor = 100; minor <= 100_000; minor += 37) expect(fromDecimal(toDecimal(minor, 2), 2)).toBe(minor);
  });
});
