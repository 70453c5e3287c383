// Unit tests of the accounts module's pure parts: input schemas (e-mail normalisation and the
// refusal of look-alikes, password lengths, codes), the common-password list, TOTP and hashing.
import { describe, expect, it } from "vitest";
import { Secret, TOTP } from "otpauth";
import {
  ChangePasswordSchema,
  ConfirmEnableSchema,
  ConfirmTwoFaSchema,
  EmailPreferencesSchema,
  EmailSchema,
  LinkTokenSchema,
  LoginSchema,
  NewPasswordSchema,
  RegisterSchema,
  isLinkToken,
} from "./accounts.schema.ts";
import { randomToken } from "../shared/tokens.ts";
import { isCommonPassword } from "./common-passwords.ts";
import { createPasswords, hashPassword, verifyPassword } from "./passwords.ts";
import { matchTotp, newTotpSecret, otpauthUrl, qrDataUrl, totpAt } from "./totp.ts";

describe("EmailSchema", () => {
  it("trims, NFC-normalises and lower-cases", () => {
    expect(EmailSchema.parse("  Alice@Example.COM ")).toBe("alice@example.com");
    expect(EmailSchema.parse("a.b+tag@sub.example.co")).toBe("a.b+tag@sub.example.co");
    expect(EmailSchema.parse("x@xn--80ak6aa92e.com")).toBe("x@xn--80ak6aa92e.com");
    expect(EmailSchema.parse("\talice@example.com\n")).toBe("alice@example.com");
  });

  it.each([
    "ali\u200bce@example.com",
    "alice@exa\u200cmple.com",
    "alice\ufeff@example.com",
    "alice\uff20example.com",
    "\u202ealice@example.com",
    "alice@example.com\u202c",
    "\u0430lice@example.com",
    "alice@\u0435xample.com",
    "alice@\u0440\u0443.com",
    "ａlice@example.com",
    "alice@example.com\r\nBcc: x@example.com",
    "\u00e9lise@example.com",
    "alice@ex\u00e4mple.com",
    "",
    "a@b",
    "a..b@example.com",
    `${"a".repeat(250)}@example.com`,
  ])("refuses %j", (email) => {
    expect(EmailSchema.safeParse(email).success).toBe(false);
  });
});

describe("passwords", () => {
  it("takes 8 to 128 characters for a new password", () => {
    expect(NewPasswordSchema.safeParse("1234567").success).toBe(false);
    expect(NewPasswordSchema.safeParse("12345678").success).toBe(true);
    expect(NewPasswordSchema.safeParse("x".repeat(128)).success).toBe(true);
    expect(NewPasswordSchema.safeParse("x".repeat(129)).success).toBe(false);
  });

  it("knows common passwords regardless of letter case, and not good ones", () => {
    for (const p of ["password123", "qwertyuiop", "Password123", "QWERTYUIOP", "12345678", "iloveyou"]) expect(isCommonPassword(p), p).toBe(true);
    for (const p of ["Quartz-Lantern-42", "Harbor-Violet-77"]) expect(isCommonPassword(p), p).toBe(false);
  });

  it("hashes with Argon2id and verifies; a broken hash verifies nothing", async () => {
    const hash = await hashPassword("Quartz-Lantern-42");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, "Quartz-Lantern-42")).toBe(true);
    expect(await verifyPassword(hash, "quartz-lantern-42")).toBe(false);
    expect(await verifyPassword("not a hash", "Quartz-Lantern-42")).toBe(false);
  });

  it("hashes at the test suite's cost with the same Argon2id, and each cost verifies the other's hashes", async () => {
    const test = createPasswords("test");
    const cheap = await test.hash("Quartz-Lantern-42");
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
    expect(await test.verify(cheap, "Quartz-Lantern-42")).toBe(true);
    expect(await test.verify(cheap, "Quartz-Lantern-43")).toBe(false);
    // A hash names its parameters: a database moved between the two verifies either.
    expect(await verifyPassword(cheap, "Quartz-Lantern-42")).toBe(true);
    expect(await test.verify(await hashPassword("Harbor-Violet-77"), "Harbor-Violet-77")).toBe(true);
  });
});

describe("other schemas", () => {
  it("register ignores unknown fields and treats an empty username as none", () => {
    const parsed = RegisterSchema.parse({ email: "A@Example.com", password: "Quartz-Lantern-42", username: "", balance: 5, role: "admin" });
    expect(parsed).toEqual({ email: "a@example.com", password: "Quartz-Lantern-42" });
  });

  it("login trims the login and needs both fields as strings", () => {
    expect(LoginSchema.parse({ login: "  demo ", password: "x" })).toEqual({ login: "demo", password: "x" });
    expect(LoginSchema.safeParse({ login: 1, password: "x" }).success).toBe(false);
    expect(LoginSchema.safeParse({ login: "demo", password: "" }).success).toBe(false);
  });

  it("codes: 6 digits to enable; 6 digits or a recovery code to sign in", () => {
    expect(ConfirmEnableSchema.safeParse({ code: " 123456 " }).success).toBe(true);
    expect(ConfirmEnableSchema.safeParse({ code: "abcd-efgh" }).success).toBe(false);
    expect(ConfirmTwoFaSchema.safeParse({ code: "abcd-efgh" }).success).toBe(true);
    expect(ConfirmTwoFaSchema.safeParse({ code: "ABCDEFGH" }).success).toBe(true);
    expect(ConfirmTwoFaSchema.safeParse({ code: "12345" }).success).toBe(false);
    expect(ConfirmTwoFaSchema.safeParse({ code: "abcd--efgh" }).success).toBe(false);
  });

  it("e-mail preferences are booleans, never coerced", () => {
    expect(EmailPreferencesSchema.safeParse({ allow_marketing: true, allow_security: false }).success).toBe(true);
    expect(EmailPreferencesSchema.safeParse({ allow_marketing: "true", allow_security: false }).success).toBe(false);
    expect(EmailPreferencesSchema.safeParse({ allow_marketing: 1, allow_security: 0 }).success).toBe(false);
  });

  it("read the fields as the API names them and give the use case its domain input", () => {
    expect(EmailPreferencesSchema.parse({ allow_marketing: true, allow_security: false })).toEqual({ allowMarketing: true, allowSecurity: false });
    expect(ChangePasswordSchema.parse({ old_password: "old", new_password: "Quartz-Lantern-42" })).toEqual({ oldPassword: "old", newPassword: "Quartz-Lantern-42" });
    // A refusal still names the field that was sent.
    expect(ChangePasswordSchema.safeParse({ old_password: "old", new_password: "short" }).error?.issues[0]?.path).toEqual(["new_password"]);
  });

  it("link tokens: what randomToken() makes, nothing else", () => {
    expect(isLinkToken(randomToken())).toBe(true);
    expect(LinkTokenSchema.safeParse("A".repeat(200)).success).toBe(true);
    for (const bad of ["", "short-token", "A".repeat(201), `${"a".repeat(30)}/x`, `${"a".repeat(30)}=`, 42, undefined]) expect(isLinkToken(bad), String(bad)).toBe(false);
  });
});

describe("TOTP", () => {
  const secret = newTotpSecret();
  const at = new Date("2026-05-05T10:00:10Z");
  const step = Math.floor(at.getTime() / 30_000);

  it("makes 160-bit base32 secrets, different every time", () => {
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
  });

  it("agrees with an independent RFC 6238 implementation (SHA-1, 6 digits, 30 s)", () => {
    const reference = new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
    expect(totpAt(secret, at)).toBe(reference.generate({ timestamp: at.getTime() }));
    expect(totpAt(secret, at)).toMatch(/^\d{6}$/);
  });

  it("matches the RFC 6238 SHA-1 test vector", () => {
    // RFC 6238 appendix B: secret "12345678901234567890", T = 59 s → 94287082 (8 digits); 6 digits: 287082.
    const rfcSecret = new Secret({ buffer: new TextEncoder().encode("12345678901234567890").buffer as ArrayBuffer }).base32;
    expect(totpAt(rfcSecret, new Date(59_000))).toBe("287082");
    expect(totpAt(rfcSecret, new Date(1_111_111_109_000))).toBe("081804");
  });

  it("accepts one step of drift either way and tells the step the code belongs to", () => {
    expect(matchTotp(secret, totpAt(secret, at), at)).toBe(step);
    expect(matchTotp(secret, totpAt(secret, new Date(at.getTime() - 30_000)), at)).toBe(step - 1);
    expect(matchTotp(secret, totpAt(secret, new Date(at.getTime() + 30_000)), at)).toBe(step + 1);
    const far = totpAt(secret, new Date(at.getTime() - 60_000));
    const near = [-1, 0, 1].map((d) => totpAt(secret, new Date(at.getTime() + d * 30_000)));
    if (!near.includes(far)) expect(matchTotp(secret, far, at)).toBeNull();
    expect(matchTotp(secret, "12345", at)).toBeNull();
    expect(matchTotp(secret, "abcdef", at)).toBeNull();
  });

  it("writes an otpauth URL and an SVG QR code", async () => {
    const url = otpauthUrl(secret, "alice@example.com");
    expect(url).toBe(`otpauth://totp/NOVA:alice%40example.com?issuer=NOVA&secret=${secret}&algorithm=SHA1&digits=6&period=30`);
    const qr = await qrDataUrl(url);
    expect(Buffer.from(qr.replace("data:image/svg+xml;base64,", ""), "base64").toString()).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
  });
});
