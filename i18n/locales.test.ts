import { describe, expect, it } from "vitest";
import { localePath, negotiateLocale, splitLocale } from "./locales.ts";

describe("locale paths", () => {
  it("splits a prefix off a path, Russian having none", () => {
    expect(splitLocale("/en/minecraft")).toEqual({ locale: "en", path: "/minecraft" });
    expect(splitLocale("/en")).toEqual({ locale: "en", path: "/" });
    expect(splitLocale("/minecraft")).toEqual({ locale: "ru", path: "/minecraft" });
    expect(splitLocale("/ru/minecraft")).toEqual({ locale: "ru", path: "/ru/minecraft" });
    expect(splitLocale("/english")).toEqual({ locale: "ru", path: "/english" });
  });

  it("prefixes a path for a locale", () => {
    expect(localePath("ru", "/")).toBe("/");
    expect(localePath("cn", "/")).toBe("/cn");
    expect(localePath("hi", "/dota2/profile")).toBe("/hi/dota2/profile");
  });
});

describe("Accept-Language negotiation", () => {
  it.each([
    ["en-US,en;q=0.9", "en"],
    ["zh-CN,zh;q=0.9", "cn"],
    ["zh-TW", "cn"],
    ["pt-BR;q=0.8, de;q=0.9", "pt"],
    ["de, fr;q=0.5", undefined],
    ["ru;q=0.1, es;q=0.5", "es"],
    ["in", "id"],
    ["", undefined],
    ["en;q=0", undefined],
  ])("%s → %s", (header, expected) => {
    expect(negotiateLocale(header)).toBe(expected);
  });
});
