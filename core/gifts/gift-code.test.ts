// Gift codes: what the giver gets is what the redeemer may type, in groups, any case, and nothing
// else passes as a code.
import { describe, expect, it } from "vitest";
import { randomString } from "../shared/tokens.ts";
import { GIFT_CODE, GIFT_CODE_ALPHABET, GIFT_CODE_LENGTH, normalizeGiftCode } from "./gift-code.ts";

describe("gift codes", () => {
  it("every code made the way gifts make it is a code", () => {
    for (let i = 0; i < 500; i++) {
      const code = randomString(GIFT_CODE_LENGTH, GIFT_CODE_ALPHABET);
      expect(code).toMatch(GIFT_CODE);
      expect(normalizeGiftCode(code)).toBe(code);
    }
  });

  it.each([
    ["abcd-efgh-jkmn", "ABCDEFGHJKMN"],
    [" ABCD EFGH JKMN ", "ABCDEFGHJKMN"],
    ["ab-cd-ef-gh-jk-mn", "ABCDEFGHJKMN"],
  ])("%j is typed for %s", (typed, code) => {
    expect(normalizeGiftCode(typed)).toBe(code);
  });

  it.each([[""], ["ABCDEFGHJKM"], ["ABCDEFGHJKMNP"], ["ABCDEFGHJK0N"], ["ABCDEFGHJK1N"], ["ABCDEFGHJKON"], ["ABCDEFGHJKIN"], ["ABCDEFGHJK_N"], ["АBCDEFGHJKMN"]])(
    "%j is no code (a look-alike, a wrong length, another alphabet)",
    (typed) => {
      expect(normalizeGiftCode(typed)).toBeUndefined();
    },
  );
});
