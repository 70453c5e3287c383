// Changing the e-mail address (docs/product/accounts.md#e-mail-change): a confirmation link to the
// new address, and an undo link to the old one that wins over whatever the change did.
import { and, eq, gt, isNull, or } from "drizzle-orm";
import { oneTimeCodes, users } from "../../db/schema/index.ts";
import { DomainError } from "../shared/errors.ts";
import { randomToken, sha256 } from "../shared/tokens.ts";
import { toUser, type User, type UserRow } from "./accounts.model.ts";
import type { ChangeEmailInput } from "./accounts.schema.ts";
import { findUserByLogin } from "./accounts.store.ts";
import { getUser, isUniqueViolation, pageUrl, type AccountsDeps } from "./deps.ts";
import { issueResetCode } from "./password-reset.ts";

const EMAIL_CHANGE_SECONDS = 24 * 3600;
/** How long the old address can undo a change (long enough for a holiday, short for a recycled mailbox). */
const EMAIL_UNDO_SECONDS = 7 * 24 * 3600;
const EMAIL_UNDO_PURPOSE = "email_change_undo";

export function createEmailChange(deps: AccountsDeps) {
  const { db, clock, sessions, limiter, mailer, notifications, limits, publicUrl, currency, logger, background, passwords } = deps;

  /** The live undo link of a token: its row, or undefined. */
  async function liveUndo(token: string) {
    const [row] = await db
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.purpose, EMAIL_UNDO_PURPOSE), eq(oneTimeCodes.codeHash, sha256(token)), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, clock.now())));
    return row && typeof row.payload?.email === "string" ? { ...row, email: row.payload.email } : undefined;
  }

  return {
    /**
     * Asks for a new address. The answer is the same whether the address is free or belongs to
     * another account (pendingEmail set either way): a free one gets the confirmation link, a
     * taken one a mail that someone tried to use it, with no link, so confirming can never take
     * it. The old address is always told, with a link that undoes the change. Mail to an address
     * the user typed is limited per user (RATE_MAIL_USER, shared with gifts by e-mail).
     */
    async changeEmail(userId: number, input: ChangeEmailInput): Promise<{ user: User }> {
      const user = await getUser(db, userId);
      if (input.email === user.email) {
        throw new DomainError("validation_failed", "errors.validation_failed", { fields: { email: "validation.email_same" } });
      }
      await limiter.consume(`mail:user:${user.id}`, limits.mailUser);
      const owner = await findUserByLogin(db, input.email);
      const token = randomToken();
      const undoToken = randomToken();
      const now = clock.now();
      const [updated] = await db.transaction(async (tx) => {
        await tx
          .update(oneTimeCodes)
          .set({ usedAt: now })
          .where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, "email_change"), isNull(oneTimeCodes.usedAt)));
        // The same rows for a taken address, so that the work (and its time) does not tell; its
        // token is never sent, and the row is marked so that it can never be confirmed.
        await tx.insert(oneTimeCodes).values({
          userId: user.id,
          purpose: "email_change",
          codeHash: sha256(token),
          payload: owner ? { email: input.email, taken: true } : { email: input.email },
          expiresAt: new Date(now.getTime() + EMAIL_CHANGE_SECONDS * 1000),
          createdAt: now,
        });
        await tx.insert(oneTimeCodes).values({
          userId: user.id,
          purpose: EMAIL_UNDO_PURPOSE,
          codeHash: sha256(undoToken),
          payload: { email: user.email, newEmail: input.email },
          expiresAt: new Date(now.getTime() + EMAIL_UNDO_SECONDS * 1000),
          createdAt: now,
        });
        return tx.update(users).set({ pendingEmail: input.email, updatedAt: now }).where(eq(users.id, user.id)).returning();
      });
      const locale = user.locale;
      // After the answer, so that neither the mail server's time nor a failure tells anything.
      void background.run(() =>
        owner
          ? mailer.send({ to: input.email, locale: owner.locale, template: "email_change_taken", params: { newEmail: input.email } })
          : mailer.send({ to: input.email, locale, template: "email_change_confirm", params: { link: pageUrl(publicUrl, locale, `/auth/confirm-email?token=${token}`), newEmail: input.email } }),
      );
      void background.run(() =>
        mailer.send({ to: user.email, locale, template: "email_changed_notice", params: { newEmail: input.email, link: pageUrl(publicUrl, locale, `/auth/undo-email?token=${undoToken}`) } }),
      );
      return { user: toUser(updated!, currency) };
    },

    /**
     * Opens the link mailed to the new address: the change takes effect, the old address is told.
     * `invalid_link` for a wrong, expired, used or taken-address link; `email_taken` when the
     * address was taken since (the link then stays usable).
     */
    async confirmEmailChange(token: string): Promise<{ user: User }> {
      const now = clock.now();
      let before: UserRow | undefined;
      let email = "";
      try {
        // Spending the link and changing the address are one transaction: when the address was
        // taken meanwhile, the link stays usable and nothing changes.
        const user = await db.transaction(async (tx) => {
          const [code] = await tx
            .update(oneTimeCodes)
            .set({ usedAt: now })
            .where(and(eq(oneTimeCodes.purpose, "email_change"), eq(oneTimeCodes.codeHash, sha256(token)), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, now)))
            .returning();
          const pending = code?.payload?.email;
          if (!code || typeof pending !== "string" || code.payload?.taken) throw new DomainError("invalid_link");
          email = pending;
          [before] = await tx.select().from(users).where(eq(users.id, code.userId));
          // The link reached the new address: it is proven (docs/product/accounts.md#verified-addresses).
          const [updated] = await tx.update(users).set({ email, pendingEmail: null, emailVerified: true, updatedAt: now }).where(eq(users.id, code.userId)).returning();
          return updated!;
        });
        // The old address was told, with its undo link, when the change was asked for.
        if (before) await notifications.create(before.id, "email_changed", { email });
        return { user: toUser(user, currency) };
      } catch (error) {
        if (isUniqueViolation(error, "users_email_lower")) throw new DomainError("email_taken");
        throw error;
      }
    },

    /** The address an undo link would bring back, while the link is live (for its page). */
    async emailUndoTarget(token: string): Promise<string | undefined> {
      return (await liveUndo(token))?.email;
    },

    /**
     * Opens the undo link mailed to the old address: the pending change dies, the old address is
     * the account's again, every session ends, the password stops working and a reset code goes
     * to the old address (whoever asked for the change may know the password). Later undo links
     * die too, so an intruder who changed the address twice cannot undo the owner's undo; earlier
     * ones stay, so the owner's link always works within its lifetime. `invalid_link` for a
     * wrong, expired or used link; `email_taken` when another account holds the old address now.
     */
    async undoEmailChange(token: string): Promise<{ email: string }> {
      const unusable = await passwords.hash(randomToken());
      const now = clock.now();
      let restored: UserRow;
      try {
        restored = await db.transaction(async (tx) => {
          const [code] = await tx
            .update(oneTimeCodes)
            .set({ usedAt: now })
            .where(and(eq(oneTimeCodes.purpose, EMAIL_UNDO_PURPOSE), eq(oneTimeCodes.codeHash, sha256(token)), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, now)))
            .returning();
          const email = code?.payload?.email;
          if (!code || typeof email !== "string") throw new DomainError("invalid_link");
          await tx
            .update(oneTimeCodes)
            .set({ usedAt: now })
            .where(
              and(
                eq(oneTimeCodes.userId, code.userId),
                isNull(oneTimeCodes.usedAt),
                or(eq(oneTimeCodes.purpose, "email_change"), and(eq(oneTimeCodes.purpose, EMAIL_UNDO_PURPOSE), gt(oneTimeCodes.id, code.id))),
              ),
            );
          const [user] = await tx.update(users).set({ email, pendingEmail: null, passwordHash: unusable, emailVerified: true, updatedAt: now }).where(eq(users.id, code.userId)).returning();
          await sessions.revokeAll(code.userId, undefined, tx);
          return user!;
        });
      } catch (error) {
        if (isUniqueViolation(error, "users_email_lower")) throw new DomainError("email_taken");
        throw error;
      }
      await notifications.create(restored.id, "email_changed", { email: restored.email });
      await issueResetCode(deps, restored).catch((err: unknown) => logger.error({ err }, "reset code after an undone e-mail change failed"));
      return { email: restored.email };
    },
  };
}
