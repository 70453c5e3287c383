import { describe, expect, it } from "vitest";
import { formatMoney, minorDigits } from "./money.ts";

describe("money", () => {
  it("knows the minor digits of a currency", () => {
    expect(minorDigits("USD")).toBe(2);
    expect(minorDigits("JPY")).toBe(0);
    expect(minorDigits("KWD")).toBe(3);
  });

  it("formats minor units in the page's language", () => {
    expect(formatMoney(1999, "USD", "en")).toBe("$19.99");
    expect(formatMoney(1999, "USD", "ru").replace(/\s/g, " ")).toBe("19,99 $");
    expect(formatMoney(500, "JPY", "en")).toBe("¥500");
    // Formatters are reused, and reuse does not mix languages up.
    expect(formatMoney(1999, "USD", "en")).toBe("$19.99");
  });
});
