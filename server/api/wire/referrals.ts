// The referral summary in the wire format of GET /v2/web/user/referral
// (docs/product/api.md#commerce-calls). Its fields are single words, so the wire names match the
// domain's; the mapping still lists them, so that a new domain field never reaches the wire unasked.
import type { ReferralSummary } from "../../../core/referrals/index.ts";

export type ReferralSummaryDto = { code: string; link: string; invited: number; earned: number; percent: number };

export function referralSummaryDto(summary: ReferralSummary): ReferralSummaryDto {
  return { code: summary.code, link: summary.link, invited: summary.invited, earned: summary.earned, percent: summary.percent };
}
