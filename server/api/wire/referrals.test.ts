// The referral summary's domain → wire mapping (GET /v2/web/user/referral, docs/product/api.md#commerce-calls).
import { describe, expect, it } from "vitest";
import type { ReferralSummary } from "../../../core/referrals/index.ts";
import { TEST_ORIGIN } from "../../../tests/kit/app.ts";
import { referralSummaryDto } from "./referrals.ts";

describe("referralSummaryDto", () => {
  it("lists exactly code, link, invited, earned, percent", () => {
    const link = `${TEST_ORIGIN}/?r=ABCD2345`;
    const summary = { code: "ABCD2345", link, invited: 2, earned: 150, percent: 10, extra: 1 } as ReferralSummary;
    expect(JSON.stringify(referralSummaryDto(summary))).toBe(`{"code":"ABCD2345","link":"${link}","invited":2,"earned":150,"percent":10}`);
  });
});
