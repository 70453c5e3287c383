// Input schemas of the accounts module, shared by the JSON API and the page forms. Messages are
// i18n keys ("validation.*"), translated at the edge. A schema reads the fields as the API and
// the forms name them (snake_case where docs/product/api.md#account-calls does); its output, the
// `…Input` type, is what the use case takes. This file is safe for a route's loader and action to
// import (no database, no Node): the one way into the module besides index.ts. Never from code
// that runs in the browser, which must not load Zod: the limits it checks are in
// accounts.constraints.ts, which the forms read.
import { z } from "zod";
import { EMAIL_MAX, LOGIN_MAX, PASSWORD_MAX, PASSWORD_MIN } from "./accounts.constraints.ts";
import { LOCALES } from "../../i18n/locales.ts";

/**
 * E-mail as we store it: trimmed, NFC, lower-case, plain ASCII (internationalised domains in their
 * xn-- form). Anything else — zero-width or bidi characters, full-width "＠", look-alike letters —
 * is refused rather than silently changed, so two different-looking addresses never collide.
 */
const EMAIL = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

export const EmailSchema = z
  .string({ message: "validation.required" })
  .transform((v) => v.trim().normalize("NFC").toLowerCase())
  .pipe(
    z
      .string()
      .min(1, "validation.required")
      .max(EMAIL_MAX, "validation.too_long")
      .refine((v) => EMAIL.test(v) && !v.includes(".."), "validation.email"),
  );

/** Length only; the common-password list is checked by the use case. */
export const NewPasswordSchema = z
  .string({ message: "validation.required" })
  .transform((v) => v.normalize("NFC"))
  .pipe(z.string().min(PASSWORD_MIN, "validation.password_short").max(PASSWORD_MAX, "validation.password_long"));

/** A password being checked: any length up to the maximum (old accounts may predate rules). */
export const PasswordSchema = z
  .string({ message: "validation.required" })
  .min(1, "validation.required")
  .max(PASSWORD_MAX, "validation.password_long")
  .transform((v) => v.normalize("NFC"));

export const UsernameSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_.-]{3,32}$/, "validation.username");

const optionalText = (max: number) => z.string().max(max).optional();
const CODE = z
  .string({ message: "validation.required" })
  .trim()
  .regex(/^\d{6}$/, "validation.code");
/** A TOTP code, or one of the recovery codes (xxxx-xxxx). */
const TWO_FA_CODE = z
  .string({ message: "validation.required" })
  .trim()
  .regex(/^(\d{6}|[A-Za-z0-9]{4}-?[A-Za-z0-9]{4})$/, "validation.code");

export const RegisterSchema = z.object({
  email: EmailSchema,
  password: NewPasswordSchema,
  username: z
    .union([z.literal(""), UsernameSchema])
    .optional()
    .transform((v) => v || undefined),
  recaptchaToken: optionalText(4000),
  t: optionalText(64),
  referrer: optionalText(64),
});

export const LoginSchema = z.object({
  login: z.string({ message: "validation.required" }).trim().min(1, "validation.required").max(LOGIN_MAX, "validation.too_long"),
  password: PasswordSchema,
  recaptchaToken: optionalText(4000),
  t: optionalText(64),
});

export const ConfirmTwoFaSchema = z.object({ code: TWO_FA_CODE });
export const ResetRequestSchema = z.object({ email: EmailSchema, recaptchaToken: optionalText(4000) });
export const ValidateResetCodeSchema = z.object({ email: EmailSchema, resetCode: CODE });
export const SetPasswordResetSchema = z.object({ email: EmailSchema, resetCode: CODE, password: NewPasswordSchema });
/** A password change's fields as the API and the settings form name them. */
export const ChangePasswordFields = z.object({ old_password: PasswordSchema, new_password: NewPasswordSchema });
export const ChangePasswordSchema = ChangePasswordFields.transform(({ old_password, new_password }) => ({ oldPassword: old_password, newPassword: new_password }));
export const ChangeEmailSchema = z.object({ email: EmailSchema });
export const ConfirmEnableSchema = z.object({ code: CODE });
export const DisableTwoFaSchema = z.object({ password: PasswordSchema, code: TWO_FA_CODE });
/** The e-mail preferences' fields as the API and the settings form name them. */
export const EmailPreferencesFields = z.object({
  allow_marketing: z.boolean({ message: "validation.boolean" }),
  allow_security: z.boolean({ message: "validation.boolean" }),
  /** The language of the user's mails, chosen (docs/product/accounts.md#e-mail-preferences-and-notices); absent: unchanged. */
  locale: z.enum(LOCALES, { message: "validation.mail_locale" }).optional(),
});
export const EmailPreferencesSchema = EmailPreferencesFields.transform(({ allow_marketing, allow_security, locale }) => ({
  allowMarketing: allow_marketing,
  allowSecurity: allow_security,
  ...(locale ? { locale } : {}),
}));

/** Deleting the account: its password (docs/product/accounts.md#deleting-an-account). */
export const DeleteAccountSchema = z.object({ password: PasswordSchema });
/** Opening a verification link through the API (docs/product/accounts.md#verified-addresses). */
export const VerifyEmailSchema = z.object({ token: z.string({ message: "validation.required" }).regex(/^[A-Za-z0-9_-]{20,200}$/, "validation.invalid") });

/**
 * The token of a mailed link (e-mail confirmation, undo) or of an SSO ticket, as it appears in a
 * URL: base64url (randomToken() makes 43 characters). Anything else is no token of ours and is
 * answered like an unknown one without a database lookup.
 */
export const LinkTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{20,200}$/, "validation.invalid");
export const SsoTicketSchema = z.object({ ticket: LinkTokenSchema });

/** Whether a value is shaped like a link token (see LinkTokenSchema). */
export const isLinkToken = (value: unknown): value is string => LinkTokenSchema.safeParse(value).success;

export type RegisterInput = z.output<typeof RegisterSchema>;
export type LoginInput = z.output<typeof LoginSchema>;
export type ResetRequestInput = z.output<typeof ResetRequestSchema>;
export type ValidateResetCodeInput = z.output<typeof ValidateResetCodeSchema>;
export type SetPasswordResetInput = z.output<typeof SetPasswordResetSchema>;
export type ChangePasswordInput = z.output<typeof ChangePasswordSchema>;
export type ChangeEmailInput = z.output<typeof ChangeEmailSchema>;
export type DisableTwoFaInput = z.output<typeof DisableTwoFaSchema>;
export type EmailPreferencesInput = z.output<typeof EmailPreferencesSchema>;
