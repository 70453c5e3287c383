// Verified addresses (docs/product/accounts.md#verified-addresses): a welcome mail at registration
// carries a link that sets `email_verified`; the owner can ask for a new link. Until then the
// account sends no gifts and gets no marketing mail. Confirming an e-mail change (or undoing one)
// proves the address too (email-change.ts).
import { and, eq, gt, isNull } from "drizzle-orm";
import { oneTimeCodes, users } from "../../db/schema/index.ts";
import { DomainError } from "../shared/errors.ts";
import { randomToken, sha256 } from "../shared/tokens.ts";
import { toUser, type User, type UserRow } from "./accounts.model.ts";
import { getUser, pageUrl, type AccountsDeps } from "./deps.ts";

/** A verification link lives a week: long enough to find the welcome mail again. */
const VERIFY_SECONDS = 7 * 24 * 3600;
const PURPOSE = "email_verify";

/**
 * A new verification link for the account's current address (older ones die), mailed to it: the
 * welcome mail after registration, a plain one when the owner asks again.
 */
export async function issueVerification(
  { db, clock, mailer, publicUrl }: Pick<AccountsDeps, "db" | "clock" | "mailer" | "publicUrl">,
  user: Pick<UserRow, "id" | "email" | "locale">,
  template: "welcome" | "email_verify",
): Promise<void> {
  const token = randomToken();
  const now = clock.now();
  await db.transaction(async (tx) => {
    await tx
      .update(oneTimeCodes)
      .set({ usedAt: now })
      .where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, PURPOSE), isNull(oneTimeCodes.usedAt)));
    await tx.insert(oneTimeCodes).values({
      userId: user.id,
      purpose: PURPOSE,
      codeHash: sha256(token),
      payload: { email: user.email },
      expiresAt: new Date(now.getTime() + VERIFY_SECONDS * 1000),
      createdAt: now,
    });
  });
  const link = pageUrl(publicUrl, user.locale, `/auth/verify-email?token=${token}`);
  await mailer.send({ to: user.email, locale: user.locale, template, params: { link } });
}

/** Whether marketing mail may go to the account: allowed by its owner, to a proven address, of a live account. */
export function allowsMarketing(user: Pick<UserRow, "allowMarketing" | "emailVerified" | "deletedAt">): boolean {
  return user.allowMarketing && user.emailVerified && user.deletedAt === null;
}

export function createVerification(deps: AccountsDeps) {
  const { db, clock, limiter, limits, currency, background } = deps;
  return {
    /**
     * Mails a new link to the account's address, after the answer. An address already verified is
     * refused (409 conflict); the mails count toward the user's mail limit (RATE_MAIL_USER).
     */
    async resendVerification(userId: number): Promise<void> {
      const user = await getUser(db, userId);
      if (user.emailVerified) throw new DomainError("conflict", "errors.email_already_verified");
      await limiter.consume(`mail:user:${user.id}`, limits.mailUser);
      void background.run(() => issueVerification(deps, user, "email_verify"));
    },

    /**
     * Opens a verification link: the address it was sent to is the account's verified address.
     * `invalid_link` for a wrong, expired or used link, or one sent to an address the account no
     * longer has.
     */
    async verifyEmail(token: string): Promise<{ user: User }> {
      const now = clock.now();
      const user = await db.transaction(async (tx) => {
        const [code] = await tx
          .update(oneTimeCodes)
          .set({ usedAt: now })
          .where(and(eq(oneTimeCodes.purpose, PURPOSE), eq(oneTimeCodes.codeHash, sha256(token)), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, now)))
          .returning();
        const email = code?.payload?.email;
        if (!code || typeof email !== "string") throw new DomainError("invalid_link");
        const [updated] = await tx
          .update(users)
          .set({ emailVerified: true, updatedAt: now })
          .where(and(eq(users.id, code.userId), eq(users.email, email), isNull(users.deletedAt)))
          .returning();
        if (!updated) throw new DomainError("invalid_link");
        return updated;
      });
      return { user: toUser(user, currency) };
    },
  };
}
