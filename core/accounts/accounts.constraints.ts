// The accounts module's field limits without Zod. The input schemas (accounts.schema.ts) build on
// these numbers, and the page forms write the constraints below into their HTML (required,
// minLength, maxLength, pattern) while the server's schema does the checking: the browser gets
// this file, never Zod, which would cost ~24 KiB gzip (docs/decisions/0009-forms-on-the-server.md).
// accounts.constraints.test.ts holds every constraint to its schema.

/** A form field's HTML constraints, in the shape Conform's `constraint` option takes. */
export type Constraint = { required?: boolean; minLength?: number; maxLength?: number; pattern?: string };

export const EMAIL_MAX = 254;
/** An e-mail address or a username, as the sign-in form takes it. */
export const LOGIN_MAX = 254;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
/** A code mailed for a password reset, or shown by an authenticator app: six digits. */
export const CODE_LENGTH = 6;
/** A two-factor code: six digits, or a recovery code written xxxx-xxxx. */
export const TWO_FA_CODE_MAX = 9;

// A `pattern` attribute must match the whole value (browsers anchor it) and is read with the `v`
// flag, so a literal "-" in a class is escaped.
const email = { required: true, maxLength: EMAIL_MAX } satisfies Constraint;
const password = { required: true, maxLength: PASSWORD_MAX } satisfies Constraint;
const newPassword = { required: true, minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX } satisfies Constraint;
const code = { required: true, maxLength: CODE_LENGTH, pattern: `\\d{${CODE_LENGTH}}` } satisfies Constraint;
const twoFaCode = { required: true, maxLength: TWO_FA_CODE_MAX } satisfies Constraint;

/** The constraints of each accounts form, by the names its fields post (the schemas' keys). */
export const ACCOUNT_FORMS = {
  login: { login: { required: true, maxLength: LOGIN_MAX }, password },
  twoFaStep: { code: twoFaCode },
  register: {
    email,
    username: { minLength: USERNAME_MIN, maxLength: USERNAME_MAX, pattern: "[A-Za-z0-9_.\\-]+" },
    password: newPassword,
  },
  resetRequest: { email },
  resetCode: { resetCode: code },
  resetPassword: { password: newPassword },
  changePassword: { old_password: password, new_password: newPassword },
  changeEmail: { email },
  confirmTwoFa: { code },
  disableTwoFa: { password, code: twoFaCode },
  deleteAccount: { password },
} as const satisfies Record<string, Record<string, Constraint>>;
