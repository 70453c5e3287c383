// The one date and money formatter of pages and e-mails.
import { describe, expect, it } from "vitest";
import { formatDate, formatMoney } from "./format.ts";

describe("formatDate", () => {
  const instant = new Date("2026-03-15T21:05:00Z");

  it("writes dd.MM.yyyy HH:mm in UTC with no zone name when no zone is given (the pages today)", () => {
    expect(formatDate(instant)).toBe("15.03.2026 21:05");
    expect(formatDate("2026-01-02T03:04:59.999Z")).toBe("02.01.2026 03:04");
    expect(formatDate(instant, { time: false })).toBe("15.03.2026");
  });

  it("writes the time in a given IANA zone, with the zone's short name in the reader's language", () => {
    expect(formatDate(instant, { timeZone: "UTC" })).toBe("15.03.2026 21:05 UTC");
    expect(formatDate(instant, { timeZone: "America/New_York", locale: "en" })).toBe("15.03.2026 17:05 EDT");
    // The day moves with the zone; midnight is 00, not 24.
    expect(formatDate(instant, { timeZone: "Europe/Moscow", locale: "ru" })).toBe("16.03.2026 00:05 GMT+3");
    expect(formatDate(instant, { timeZone: "Asia/Kolkata", locale: "en" })).toBe("16.03.2026 02:35 GMT+5:30");
    expect(formatDate(instant, { timeZone: "Asia/Tokyo", time: false })).toBe("16.03.2026");
  });

  it("shows an unknown zone (a forged cookie) as UTC rather than failing", () => {
    expect(formatDate(instant, { timeZone: "Mars/Olympus" })).toBe("15.03.2026 21:05 UTC");
    expect(formatDate(instant, { timeZone: "" })).toBe("15.03.2026 21:05 UTC");
  });
});

describe("formatMoney", () => {
  it("writes minor units in the page's language with the currency's own decimals", () => {
    expect(formatMoney(1999, "USD", "en")).toBe("$19.99");
    expect(formatMoney(1999, "USD", "ru").replace(/\s/g, " ")).toBe("19,99 $");
    expect(formatMoney(500, "JPY", "en")).toBe("¥500");
    expect(formatMoney(12345, "KWD", "en").replace(/\s/g, " ")).toBe("KWD 12.345");
    // Formatters are reused, and reuse does not mix languages up.
    expect(formatMoney(1999, "USD", "en")).toBe("$19.99");
  });
});
