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

    async setEmailPreferences(userId: number, input: EmailPreferencesInput): Promise<EmailPreferences> {
      const [user] = await db
        .update(users)
        .set({ allowMarketing: input.allowMarketing, allowSecurity: input.allowSecurity, updatedAt: clock.now() })
        .where(eq(users.id, userId))
        .returning();
      return toEmailPreferences(user!);
    },
  };
}
