// Buying a product from the balance (docs/product/money.md#buying-from-the-balance): the debit, its ledger entry and the days are
// one database transaction; concurrent purchases serialise on the user's balance row.
import type { Db, Tx } from "../../db/client.ts";
import { soldProduct, type Catalog } from "../catalog/index.ts";
import type { Ledger, Transaction } from "../ledger/index.ts";
import type { Receipts } from "../receipts/index.ts";
import type { Subscription, Subscriptions } from "../subscriptions/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";

/** Runs inside a use case's transaction, with its result, just before the commit. */
export type BeforeCommit<T> = (tx: Tx, result: T) => Promise<void>;

export type PurchaseResult = { subscriptions: Subscription[]; balance: number; transaction: Transaction };

export function createPurchases(deps: { db: Db; clock: Clock; catalog: Catalog; ledger: Ledger; subscriptions: Subscriptions; receipts: Receipts }) {
  const { db, clock, catalog, ledger, subscriptions, receipts } = deps;
  return {
    /**
     * A product of the buyer's shopping area, paid from the balance. `beforeCommit` runs inside the
     * transaction with the result (an Idempotency-Key's answer is stored with the effect).
     */
    async purchase(userId: number, productId: number, area: string, options: { beforeCommit?: BeforeCommit<PurchaseResult> } = {}): Promise<PurchaseResult> {
      const product = catalog.productInArea(productId, area);
      if (!product) throw new DomainError("not_found", "errors.product_not_found");
      const { result, receiptId } = await db.transaction(async (tx) => {
        const { balance, transaction } = await ledger.post(
          tx,
          { userId, type: "purchase", amount: -product.price, paid: product.price, source: "balance", products: [soldProduct(product)] },
          clock.now(),
        );
        await subscriptions.grantDays(tx, userId, product.cheatId, product.days);
        // docs/product/money.md#receipts: a purchase from the balance has its receipt too.
        const receiptId = await receipts.issue(tx, { userId, kind: "purchase", method: "balance", transaction, amount: product.price });
        const result = { balance, transaction, subscriptions: await subscriptions.list(userId, tx) };
        await options.beforeCommit?.(tx, result);
        return { result, receiptId };
      });
      receipts.mailSoon(receiptId);
      return result;
    },
  };
}
