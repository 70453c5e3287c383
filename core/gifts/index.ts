// Gifts (docs/product/money.md#gifts): paid from the giver's balance; with a recipient the days go straight to
// their subscription and both are told; without one a code is made that anyone signed in can
// redeem once, unless a refund of the money that paid for it voided it first (docs/product/money.md#a-top-up).
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { gifts, users } from "../../db/schema/index.ts";
import type { Locale } from "../../i18n/locales.ts";
import { findUserByLogin } from "../accounts/accounts.store.ts";
import type { Catalog } from "../catalog/index.ts";
import { snapshot, type Ledger, type TransactionView } from "../ledger/index.ts";
import type { Mailer } from "../mail/index.ts";
import type { Notifications } from "../notifications/index.ts";
import type { Subscriptions, SubscriptionView } from "../subscriptions/index.ts";
import type { Background } from "../shared/background.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";
import { randomString } from "../shared/tokens.ts";
import { isSuspended } from "../suspensions/index.ts";

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export type GiftView = { code: string; cheat_id: number; days: number; recipient: string | null; redeemed: boolean };

export type Gifts = ReturnType<typeof createGifts>;

export function createGifts(deps: {
  db: Db;
  clock: Clock;
  catalog: Catalog;
  ledger: Ledger;
  subscriptions: Subscriptions;
  notifications: Notifications;
  mailer: Mailer;
  background: Background;
}) {
  const { db, clock, catalog, ledger, subscriptions, notifications, mailer, background } = deps;

  return {
    async give(giverId: number, input: { productId: number; recipient?: string; area: string }): Promise<{ gift: GiftView; balance: number; transaction: TransactionView }> {
      const product = catalog.productsForArea(input.area).find((p) => p.id === input.productId);
      if (!product) throw new DomainError("not_found", "errors.product_not_found");
      const recipient = input.recipient ? await findUserByLogin(db, input.recipient) : undefined;
      if (input.recipient && !recipient) {
        throw new DomainError("not_found", "errors.recipient_not_found", { fields: { recipient: "validation.recipient_unknown" } });
      }
      if (recipient?.id === giverId) {
        throw new DomainError("validation_failed", "errors.validation_failed", { fields: { recipient: "validation.recipient_self" } });
      }
      // A suspended account cannot be sent gifts (docs/product/accounts.md#suspension).
      if (recipient && isSuspended(recipient)) {
        throw new DomainError("conflict", "errors.recipient_unavailable", { fields: { recipient: "validation.recipient_unavailable" } });
      }
      const [giver] = await db.select().from(users).where(eq(users.id, giverId));
      if (!giver) throw new DomainError("unauthenticated");
      const game = catalog.cheatById(product.cheat_id)?.name ?? String(product.cheat_id);
      const code = randomString(12, CODE_ALPHABET);
      const result = await db.transaction(async (tx) => {
        const now = clock.now();
        const { balance, transaction } = await ledger.post(
          tx,
          { userId: giverId, type: "gift", amount: -product.price, paid: product.price, source: "balance", products: [snapshot(product)] },
          now,
        );
        await tx.insert(gifts).values({
          giverId,
          code,
          cheatId: product.cheat_id,
          productId: product.id,
          days: product.params.days,
          recipientId: recipient?.id ?? null,
          redeemedBy: recipient?.id ?? null,
          redeemedAt: recipient ? now : null,
          transactionId: transaction.id,
          createdAt: now,
        });
        if (recipient) {
          await subscriptions.grantDays(tx, recipient.id, product.cheat_id, product.params.days);
          const from = giver.username ?? giver.email;
          await notifications.create(recipient.id, "gift_received", { game, days: product.params.days, from }, tx);
          await notifications.create(giverId, "gift_sent", { game, days: product.params.days, to: recipient.username ?? recipient.email }, tx);
        }
        return { balance, transaction };
      });
      if (recipient) {
        void background.run(() =>
          mailer.send({
            to: recipient.email,
            locale: recipient.locale as Locale,
            template: "gift_received",
            params: { game, days: product.params.days, from: giver.username ?? giver.email },
          }),
        );
      } else {
        void background.run(() =>
          mailer.send({ to: giver.email, locale: giver.locale as Locale, template: "gift_code", params: { game, days: product.params.days, code } }),
        );
      }
      return {
        ...result,
        gift: { code, cheat_id: product.cheat_id, days: product.params.days, recipient: recipient ? (recipient.username ?? recipient.email) : null, redeemed: Boolean(recipient) },
      };
    },

    /** Redeems a gift code once, for the signed-in user. */
    async redeem(userId: number, rawCode: string): Promise<{ subscriptions: SubscriptionView[]; gift: GiftView }> {
      const code = rawCode.trim().toUpperCase().replace(/[\s-]/g, "");
      if (!/^[A-Z0-9]{12}$/.test(code)) throw new DomainError("not_found", "errors.gift_not_found", { fields: { code: "validation.gift_code" } });
      return db.transaction(async (tx) => {
        const now = clock.now();
        const [gift] = await tx
          .update(gifts)
          .set({ redeemedBy: userId, redeemedAt: now })
          .where(and(eq(gifts.code, code), isNull(gifts.redeemedBy), isNull(gifts.voidedAt)))
          .returning();
        if (!gift) throw new DomainError("not_found", "errors.gift_not_found", { fields: { code: "validation.gift_code" } });
        await subscriptions.grantDays(tx, userId, gift.cheatId, gift.days);
        const game = catalog.cheatById(gift.cheatId)?.name ?? String(gift.cheatId);
        const [giver] = await tx.select({ email: users.email, username: users.username }).from(users).where(eq(users.id, gift.giverId));
        await notifications.create(userId, "gift_received", { game, days: gift.days, from: giver?.username ?? giver?.email ?? "" }, tx);
        return {
          subscriptions: await subscriptions.list(userId, tx),
          gift: { code, cheat_id: gift.cheatId, days: gift.days, recipient: null, redeemed: true },
        };
      });
    },
  };
}
