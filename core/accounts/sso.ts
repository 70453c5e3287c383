// One-time sign-in links (docs/product/accounts.md#single-sign-on): a signed-in user's ticket,
// valid 60 seconds, that a page shows before a POST spends it.
import { and, eq, gt, isNull } from "drizzle-orm";
import { oneTimeCodes, users } from "../../db/schema/index.ts";
import type { Locale } from "../../i18n/locales.ts";
import { DomainError } from "../shared/errors.ts";
import { randomToken, sha256 } from "../shared/tokens.ts";
import { toUser, type RequestMeta, type SsoAccount, type SsoTicket, type User } from "./accounts.model.ts";
import { getUser, pageUrl, refuseSuspended, type AccountsDeps } from "./deps.ts";

const SSO_TICKET_SECONDS = 60;

export function createSso(deps: AccountsDeps) {
  const { db, clock, sessions, publicUrl, currency, supportEmail } = deps;
  return {
    async createSsoTicket(userId: number, locale: Locale): Promise<SsoTicket> {
      const ticket = randomToken();
      const now = clock.now();
      await db.insert(oneTimeCodes).values({
        userId,
        purpose: "sso_ticket",
        codeHash: sha256(ticket),
        expiresAt: new Date(now.getTime() + SSO_TICKET_SECONDS * 1000),
        createdAt: now,
      });
      return { ticket, url: pageUrl(publicUrl, locale, `/auth/sso?ticket=${ticket}`) };
    },

    /**
     * Whose account a live ticket signs in to, without spending it: the sign-in page shows it and
     * asks before a POST spends the ticket (issue 7), so a link opened by a scanner or sent by an
     * attacker replaces nobody's session unasked. `invalid_link` when the ticket is not live.
     */
    async ssoTicketAccount(ticket: string): Promise<SsoAccount> {
      const [account] = await db
        .select({ userId: users.id, email: users.email, username: users.username })
        .from(oneTimeCodes)
        .innerJoin(users, eq(users.id, oneTimeCodes.userId))
        .where(and(eq(oneTimeCodes.purpose, "sso_ticket"), eq(oneTimeCodes.codeHash, sha256(ticket)), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, clock.now())));
      if (!account) throw new DomainError("invalid_link");
      return account;
    },

    /** Spends a live ticket for a new session; `invalid_link` when it is not live, `account_suspended` for a suspended account. */
    async consumeSsoTicket(ticket: string, meta: RequestMeta): Promise<{ token: string; user: User }> {
      const now = clock.now();
      const [code] = await db
        .update(oneTimeCodes)
        .set({ usedAt: now })
        .where(and(eq(oneTimeCodes.purpose, "sso_ticket"), eq(oneTimeCodes.codeHash, sha256(ticket)), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, now)))
        .returning();
      if (!code) throw new DomainError("invalid_link");
      const user = await getUser(db, code.userId);
      refuseSuspended(user, supportEmail);
      const { token } = await sessions.create(code.userId, "full", meta);
      return { token, user: toUser(user, currency) };
    },
  };
}
