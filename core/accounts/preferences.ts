// E-mail preferences (docs/product/accounts.md#e-mail-preferences-and-notices): what optional mail
// the user wants. Security notices ignore them.
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { toEmailPreferences, type EmailPreferences, type UserRow } from "./accounts.model.ts";
import type { EmailPreferencesInput } from "./accounts.schema.ts";
import type { AccountsDeps } from "./deps.ts";

export function createPreferences({ db, clock }: Pick<AccountsDeps, "db" | "clock">) {
  return {
    /** The preferences of a user whose row the caller holds (the session's). */
    emailPreferences: (user: UserRow): EmailPreferences => toEmailPreferences(user),

    /**
     * The preferences; a `locale` given is the mail language chosen: sign-ins no longer change it
     * (docs/product/accounts.md#e-mail-preferences-and-notices).
     */
    async setEmailPreferences(userId: number, input: EmailPreferencesInput): Promise<EmailPreferences> {
      const chosen = input.locale ? { locale: input.locale, localeChosen: true } : {};
      const [user] = await db
        .update(users)
        .set({ allowMarketing: input.allowMarketing, allowSecurity: input.allowSecurity, ...chosen, updatedAt: clock.now() })
        .where(eq(users.id, userId))
        .returning();
      return toEmailPreferences(user!);
    },

    /**
     * Keeps the user's time zone (the `tz` cookie, docs/product/routes.md#dates-and-amounts) for the
     * times in their mails; the caller checked it is one Intl knows. Writes only when it changed.
     */
    async rememberTimeZone(user: Pick<UserRow, "id" | "timeZone">, timeZone: string): Promise<void> {
      if (user.timeZone === timeZone) return;
      await db.update(users).set({ timeZone }).where(eq(users.id, user.id));
    },
  };
}
