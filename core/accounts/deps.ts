// What every use case of the accounts module shares: the one typed deps object that
// createAccounts (index.ts) receives and hands to each, and the small checks several of them make.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { users } from "../../db/schema/index.ts";
import { localePath, type Locale } from "../../i18n/locales.ts";
import type { Mailer } from "../mail/index.ts";
import type { Notifications } from "../notifications/index.ts";
import type { RateLimiter, Rule } from "../ratelimit/index.ts";
import type { Sessions } from "../sessions/index.ts";
import type { Background } from "../shared/background.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import { isSuspended } from "../suspensions/index.ts";
import type { UserRow } from "./accounts.model.ts";
import { isCommonPassword } from "./common-passwords.ts";
import type { Recaptcha } from "./recaptcha.ts";
import type { Passwords } from "./passwords.ts";

export type AccountLimits = {
  /** Failed sign-ins per account and client address (a success resets it). */
  loginAccount: Rule;
  /** Failed sign-ins per account across all addresses. */
  loginAccountGlobal: Rule;
  /** Failed sign-ins per client address, whatever the accounts. */
  loginIp: Rule;
  resetAccount: Rule;
  resetIp: Rule;
  registerIp: Rule;
  /** Mails to an address the user typed (e-mail change; gifts by e-mail share the counter), per user. */
  mailUser: Rule;
};

type Logger = { error(obj: object, msg?: string): void };

export type AccountsDeps = {
  db: Db;
  clock: Clock;
  sessions: Sessions;
  limiter: RateLimiter;
  mailer: Mailer;
  notifications: Notifications;
  recaptcha: Recaptcha;
  limits: AccountLimits;
  publicUrl: string;
  currency: string;
  /** The support contact a suspended user is pointed to (SUPPORT_EMAIL). */
  supportEmail: string;
  logger: Logger;
  background: Background;
  /** Argon2id at the shop's cost (core/accounts/passwords.ts). */
  passwords: Passwords;
};

export async function getUser(db: Db, id: number): Promise<UserRow> {
  const rows = await db.select().from(users).where(eq(users.id, id));
  if (!rows[0]) throw new DomainError("unauthenticated");
  return rows[0];
}

/** A suspended account gets no session (docs/product/accounts.md#suspension); said only to whoever proved the password. */
export function refuseSuspended(user: UserRow, supportEmail: string) {
  if (isSuspended(user)) throw new DomainError("account_suspended", "errors.account_suspended", { params: { support: supportEmail } });
}

export async function requireRecaptcha(recaptcha: Recaptcha, token: string | undefined, ip: string) {
  if (recaptcha.enabled && !(await recaptcha.verify(token, ip))) throw new DomainError("recaptcha_failed");
}

export function refuseCommon(password: string, field: string) {
  if (isCommonPassword(password)) {
    throw new DomainError("validation_failed", "errors.validation_failed", { fields: { [field]: "validation.password_common" } });
  }
}

/**
 * Tells the user of a change of password or 2FA: a notification and a mail. These are never
 * silenced: allow_security covers only optional notices (such as new sign-ins), not changes that
 * an intruder would want the owner not to see. (An e-mail change tells the old address with an
 * undo link when it is asked for: see changeEmail.)
 */
export async function securityNotice(
  { notifications, mailer, logger }: Pick<AccountsDeps, "notifications" | "mailer" | "logger">,
  user: UserRow,
  type: "password_changed" | "two_fa_enabled" | "two_fa_disabled",
) {
  await notifications.create(user.id, type);
  await mailer.send({ to: user.email, locale: user.locale, template: type }).catch((err: unknown) => logger.error({ err }, "security notice mail failed"));
}

/** A page of the site in a language, as an absolute URL for a mail or an SSO link ("/auth/sso?ticket=…"). */
export function pageUrl(publicUrl: string, locale: Locale, pathAndQuery: string): string {
  return `${publicUrl}${localePath(locale, pathAndQuery)}`;
}

export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const { code, constraint: name, message } = e as { code?: string; constraint?: string; message?: string };
    if (code === "23505" && (name === constraint || message?.includes(constraint))) return true;
  }
  return false;
}
