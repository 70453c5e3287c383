// The shopping area of a request (issue 7, point 11): the country header counts only when a
// setting says a proxy in front of the shop writes it.
import { describe, expect, it } from "vitest";
import { GLOBAL_AREA } from "../../core/catalog/index.ts";
import { loadSettings } from "../settings.ts";
import { shoppingAreaResolver } from "./request-info.ts";

const catalog = { areaForCountry: (country: string | null | undefined) => (country?.toUpperCase() === "RU" ? "cis" : GLOBAL_AREA) };
const resolve = (env: Record<string, string>, headers: Record<string, string | string[]>) => shoppingAreaResolver({ settings: loadSettings(env), catalog } as never)((name) => headers[name]);

describe("shoppingAreaResolver", () => {
  it("ignores the country header that no setting vouches for", () => {
    expect(resolve({}, { "cf-ipcountry": "RU" })).toBe(GLOBAL_AREA);
    expect(resolve({ TRUST_PROXY: "0", COUNTRY_HEADER_TRUSTED: "false" }, { "cf-ipcountry": "RU" })).toBe(GLOBAL_AREA);
  });

  it("reads it behind a trusted proxy, or when the header alone is trusted", () => {
    expect(resolve({ TRUST_PROXY: "1" }, { "cf-ipcountry": "RU" })).toBe("cis");
    expect(resolve({ COUNTRY_HEADER_TRUSTED: "1" }, { "cf-ipcountry": "ru" })).toBe("cis");
    expect(resolve({ COUNTRY_HEADER_TRUSTED: "true" }, { "cf-ipcountry": ["RU", "US"] })).toBe("cis");
    expect(resolve({ COUNTRY_HEADER_TRUSTED: "1" }, {})).toBe(GLOBAL_AREA);
  });

  it("reads the header COUNTRY_HEADER names, whatever its case", () => {
    expect(resolve({ COUNTRY_HEADER_TRUSTED: "1", COUNTRY_HEADER: "X-Country" }, { "x-country": "RU", "cf-ipcountry": "US" })).toBe("cis");
    expect(resolve({ COUNTRY_HEADER_TRUSTED: "1", COUNTRY_HEADER: "X-Country" }, { "cf-ipcountry": "RU" })).toBe(GLOBAL_AREA);
  });
});
