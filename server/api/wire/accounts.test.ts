// The accounts module's domain → wire mappings (docs/product/api.md#account-calls): the exact JSON
// each answer has always had — names, key order, ISO 8601 times — and nothing the domain type
// holds beyond it.
import { describe, expect, it } from "vitest";
import type { User } from "../../../core/accounts/index.ts";
import { TEST_ORIGIN } from "../../../tests/kit/app.ts";
import { emailPreferencesDto, ssoTicketDto, twoFaEnabledDto, twoFaSetupDto, userDto } from "./accounts.ts";

const user: User = {
  id: 7,
  email: "ann@example.com",
  username: "ann_7",
  balance: 1999,
  owed: 250,
  currency: "USD",
  twoFaEnabled: true,
  pendingEmail: "new@example.com",
  emailVerified: true,
  referralCode: "ABCD2345",
  createdAt: new Date("2026-03-15T12:34:56.789Z"),
};

describe("userDto", () => {
  it("writes the user as user/me always did: snake_case in the spec's order, created_at in ISO 8601 UTC", () => {
    expect(JSON.stringify(userDto(user))).toBe(
      '{"id":7,"email":"ann@example.com","username":"ann_7","balance":1999,"currency":"USD","two_fa_enabled":true,' +
        '"pending_email":"new@example.com","referral_code":"ABCD2345","created_at":"2026-03-15T12:34:56.789Z","owed":250,"email_verified":true}',
    );
  });

  it("keeps nulls, and never passes on a field the domain type gained", () => {
    const plain = { ...user, username: null, pendingEmail: null, twoFaEnabled: false, passwordHash: "$argon2id$…", twoFaSecret: "SECRET" } as User;
    const dto = userDto(plain);
    expect(dto).toMatchObject({ username: null, pending_email: null, two_fa_enabled: false });
    expect(Object.keys(dto)).toEqual(["id", "email", "username", "balance", "currency", "two_fa_enabled", "pending_email", "referral_code", "created_at", "owed", "email_verified"]);
  });
});

describe("the other account answers", () => {
  it("email_preferences", () => {
    expect(JSON.stringify(emailPreferencesDto({ allowMarketing: false, allowSecurity: true, locale: "hi" }))).toBe('{"allow_marketing":false,"allow_security":true,"locale":"hi"}');
  });

  it("2fa/enable: secret, otpauth_url, qr", () => {
    const dto = twoFaSetupDto({ secret: "JBSWY3DPEHPK3PXP", otpauthUrl: "otpauth://totp/NOVA:ann?secret=JBSWY3DPEHPK3PXP", qr: "data:image/svg+xml;base64,AA==" });
    expect(JSON.stringify(dto)).toBe('{"secret":"JBSWY3DPEHPK3PXP","otpauth_url":"otpauth://totp/NOVA:ann?secret=JBSWY3DPEHPK3PXP","qr":"data:image/svg+xml;base64,AA=="}');
  });

  it("2fa/confirmEnable: recovery_codes", () => {
    expect(twoFaEnabledDto({ recoveryCodes: ["abcd-efgh", "jkmn-pqrs"] })).toEqual({ recovery_codes: ["abcd-efgh", "jkmn-pqrs"] });
  });

  it("sso/ticket: ticket, url", () => {
    const url = `${TEST_ORIGIN}/en/auth/sso?ticket=x`;
    expect(JSON.stringify(ssoTicketDto({ ticket: "t".repeat(43), url }))).toBe(`{"ticket":"${"t".repeat(43)}","url":"${url}"}`);
  });
});
