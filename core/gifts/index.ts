// Gifts (docs/product/money.md#gifts): paid from the giver's balance; with a recipient the days go straight to
// their subscription and both are told; without one a code is made that anyone signed in can
// redeem once, unless a refund of the money that paid for it voided it first (docs/product/money.md#a-top-up). A recipient given by e-mail never tells whether the address is registered: a
// registered one gets the days, an unknown one the code by mail, and the giver's answer is the
// same. Usernames are public handles and must exist. The giver is named by username, never by
// e-mail ("a NOVA user" without one).
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { gifts, users } from "../../db/schema/index.ts";
import type { Locale } from "../../i18n/locales.ts";
import { findUserByLogin } from "../accounts/index.ts";
import { EmailSchema } from "../accounts/accounts.schema.ts";
import type { RateLimiter, Rule } from "../ratelimit/index.ts";
import { soldProduct, type Catalog } from "../catalog/index.ts";
import type { Ledger, Transaction } from "../ledger/index.ts";
import type { Mailer } from "../mail/index.ts";
import type { Notifications } from "../notifications/index.ts";
import type { Receipts } from "../receipts/index.ts";
import type { Subscription, Subscriptions } from "../subscriptions/index.ts";
import type { Background } from "../shared/background.ts";
import type { BeforeCommit } from "../purchases/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import { randomString } from "../shared/tokens.ts";
import { isSuspended } from "../suspensions/index.ts";
import { GIFT_CODE_ALPHABET, GIFT_CODE_LENGTH, normalizeGiftCode } from "./gift-code.ts";

/**
 * A gift as the giver sees it. To an e-mail address: code and redeemed are null and delivered is
 * true whatever became of it (docs/product/money.md#gifts); to a username: the code and redeemed true; as a
 * code: the code, redeemed false, delivered false.
 */
export type Gift = { code: string | null; cheatId: number; days: number; recipient: string | null; redeemed: boolean | null; delivered: boolean };

/** How a notification names a giver without a username: translated when it is read. */
const ANONYMOUS_GIVER = { t: "gift.anonymousGiver" } as const;

export type GiftResult = { gift: Gift; balance: number; transaction: Transaction };

export type RedeemResult = { subscriptions: Subscription[]; gift: Gift };

export function createGifts(deps: {
  db: Db;
  clock: Clock;
  catalog: Catalog;
  ledger: Ledger;
  subscriptions: Subscriptions;
  notifications: Notifications;
  receipts: Receipts;
  mailer: Mailer;
  background: Background;
  limiter: RateLimiter;
  /** Mails to an address the user typed, per user: the counter e-mail changes use too. */
  mailLimit: Rule;
  publicUrl: string;
}) {
  const { db, clock, catalog, ledger, subscriptions, notifications, receipts, mailer, background, limiter, mailLimit, publicUrl } = deps;

  return {
    /** `beforeCommit` runs inside the transaction with the answer (an Idempotency-Key's is stored with the effect). */
    async give(giverId: number, input: { productId: number; recipient?: string; area: string }, options: { beforeCommit?: BeforeCommit<GiftResult> } = {}): Promise<GiftResult> {
      const product = catalog.productInArea(input.productId, input.area);
      if (!product) throw new DomainError("not_found", "errors.product_not_found");
      const [giver] = await db.select().from(users).where(eq(users.id, giverId));
      if (!giver) throw new DomainError("unauthenticated");
      // Only a proven address sends gifts (docs/product/accounts.md#verified-addresses).
      if (!giver.emailVerified) throw new DomainError("email_unverified");
      const selfGift = () => new DomainError("validation_failed", "errors.validation_failed", { fields: { recipient: "validation.recipient_self" } });
      // An e-mail address (it has an "@"): its answer never depends on whether it is registered.
      let email: string | undefined;
      if (input.recipient?.includes("@")) {
        const parsed = EmailSchema.safeParse(input.recipient);
        if (!parsed.success) throw new DomainError("validation_failed", "errors.validation_failed", { fields: { recipient: "validation.email" } });
        email = parsed.data;
        if (email === giver.email) throw selfGift();
        await limiter.consume(`mail:user:${giverId}`, mailLimit);
      }
      let recipient = input.recipient ? await findUserByLogin(db, input.recipient) : undefined;
      if (input.recipient && !email && !recipient) {
        throw new DomainError("not_found", "errors.recipient_not_found", { fields: { recipient: "validation.recipient_unknown" } });
      }
      if (recipient?.id === giverId) throw selfGift();
      // A suspended account cannot be sent gifts (docs/product/accounts.md#suspension). Named by username (public), it is
      // refused; named by e-mail, it is treated as an unknown address (the code goes by mail, and it
      // cannot be redeemed while the account is suspended), so the answer still tells nothing.
      if (recipient && isSuspended(recipient)) {
        if (!email) throw new DomainError("conflict", "errors.recipient_unavailable", { fields: { recipient: "validation.recipient_unavailable" } });
        recipient = undefined;
      }
      const game = catalog.gameName(product.cheatId);
      const from = giver.username ?? null;
      const code = randomString(GIFT_CODE_LENGTH, GIFT_CODE_ALPHABET);
      const base = { cheatId: product.cheatId, days: product.days };
      const gift: Gift = email
        ? { ...base, code: null, recipient: email, redeemed: null, delivered: true }
        : recipient
          ? { ...base, code, recipient: recipient.username, redeemed: true, delivered: true }
          : { ...base, code, recipient: null, redeemed: false, delivered: false };
      const result = await db.transaction(async (tx) => {
        const now = clock.now();
        const { balance, transaction } = await ledger.post(
          tx,
          { userId: giverId, type: "gift", amount: -product.price, paid: product.price, source: "balance", products: [soldProduct(product)] },
          now,
        );
        await tx.insert(gifts).values({
          giverId,
          code,
          cheatId: product.cheatId,
          productId: product.id,
          days: product.days,
          recipientId: recipient?.id ?? null,
          redeemedBy: recipient?.id ?? null,
          redeemedAt: recipient ? now : null,
          transactionId: transaction.id,
          createdAt: now,
        });
        if (recipient) {
          await subscriptions.grantDays(tx, recipient.id, product.cheatId, product.days);
          await notifications.create(recipient.id, "gift_received", { game, days: product.days, from: from ?? ANONYMOUS_GIVER }, tx);
        }
        if (recipient || email) {
          // By e-mail, the giver is told of the address as typed, whether or not it is registered.
          await notifications.create(giverId, "gift_sent", { game, days: product.days, to: email ?? recipient!.username ?? "" }, tx);
        }
        // docs/product/money.md#receipts: the giver paid, so the giver gets the receipt.
        const receiptId = await receipts.issue(tx, { userId: giverId, kind: "gift", method: "balance", transaction, amount: product.price });
        const done = { gift, balance, transaction };
        await options.beforeCommit?.(tx, done);
        return { done, receiptId };
      });
      receipts.mailSoon(result.receiptId);
      const days = product.days;
      if (recipient) {
        void background.run(() => mailer.send({ to: recipient.email, locale: recipient.locale as Locale, template: "gift_received", params: { game, days, from } }));
      } else if (email) {
        // An unknown address: the code, to redeem after signing up, in the giver's language.
        const prefix = giver.locale === "ru" ? "" : `/${giver.locale}`;
        const link = `${publicUrl}${prefix}/auth/register`;
        void background.run(() => mailer.send({ to: email, locale: giver.locale as Locale, template: "gift_invite", params: { game, days, code, from, link } }));
      } else {
        void background.run(() => mailer.send({ to: giver.email, locale: giver.locale as Locale, template: "gift_code", params: { game, days, code } }));
      }
      return result.done;
    },

    /** Redeems a gift code once, for the signed-in user. */
    async redeem(userId: number, typed: string): Promise<RedeemResult> {
      // Not a code at all: the same answer as a code nobody made.
      const code = normalizeGiftCode(typed);
      if (!code) throw new DomainError("not_found", "errors.gift_not_found", { fields: { code: "validation.gift_code" } });
      return db.transaction(async (tx) => {
        const now = clock.now();
        const [gift] = await tx
          .update(gifts)
          .set({ redeemedBy: userId, redeemedAt: now })
          .where(and(eq(gifts.code, code), isNull(gifts.redeemedBy), isNull(gifts.voidedAt)))
          .returning();
        if (!gift) throw new DomainError("not_found", "errors.gift_not_found", { fields: { code: "validation.gift_code" } });
        await subscriptions.grantDays(tx, userId, gift.cheatId, gift.days);
        const game = catalog.gameName(gift.cheatId);
        const [giver] = await tx.select({ username: users.username }).from(users).where(eq(users.id, gift.giverId));
        await notifications.create(userId, "gift_received", { game, days: gift.days, from: giver?.username ?? ANONYMOUS_GIVER }, tx);
        return {
          subscriptions: await subscriptions.list(userId, tx),
          gift: { code, cheatId: gift.cheatId, days: gift.days, recipient: null, redeemed: true, delivered: false },
        };
      });
    },
  };
}
