// The back office's wire rules that hold whatever the data: CSV fields a spreadsheet reads as text
// (never as a formula), and licence keys masked for support (docs/product/back-office.md#roles).
import { describe, expect, it } from "vitest";
import { maskLicenceKey } from "../../../core/operators/index.ts";
import { csvField, PAYMENTS_CSV_HEADER } from "./admin.ts";

describe("csvField", () => {
  it("quotes commas, quotes and line breaks as RFC 4180 says", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField(null)).toBe("");
    expect(csvField(1999)).toBe("1999");
    expect(csvField(-5)).toBe("-5");
  });

  it("never lets a text start a formula", () => {
    for (const text of ['=HYPERLINK("http://x")', "+1", "-2+3", "@SUM(A1)", "\tx", "\rx"]) {
      expect(csvField(text).replace(/^"/, "").startsWith("'"), text).toBe(true);
    }
    expect(csvField("=1,2")).toBe(`"'=1,2"`);
  });

  it("has one header per column of a row", () => {
    expect(new Set(PAYMENTS_CSV_HEADER).size).toBe(PAYMENTS_CSV_HEADER.length);
  });
});

describe("maskLicenceKey", () => {
  it("shows an owner the key, support its last four characters, and nothing for no key", () => {
    expect(maskLicenceKey("NOVA-ABCD-EFGH-1234", "owner")).toBe("NOVA-ABCD-EFGH-1234");
    expect(maskLicenceKey("NOVA-ABCD-EFGH-1234", "support")).toBe("***************1234");
    expect(maskLicenceKey("abc", "support")).toBe("****");
    expect(maskLicenceKey(null, "support")).toBeNull();
    expect(maskLicenceKey("X".repeat(64) + "WXYZ", "support")).toBe(`${"*".repeat(16)}WXYZ`);
  });
});
