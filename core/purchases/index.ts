// Buying a product from the balance (docs/product/money.md#buying-from-the-balance): the debit, its ledger entry and the days are
// one database transaction; concurrent purchases serialise on the user's balance row.
import type { Db } from "../../db/client.ts";
import type { Catalog } from "../catalog/index.ts";
import { snapshot, type Ledger, type TransactionView } from "../ledger/index.ts";
import type { Subscriptions, SubscriptionView } from "../subscriptions/index.ts";
import type { Clock } from "../shared/clock.ts";
import { DomainError } from "../shared/errors.ts";

export type PurchaseResult = { subscriptions: SubscriptionView[]; balance: number; transaction: TransactionView };

export type Purchases = ReturnType<typeof createPurchases>;

export function createPurchases(deps: { db: Db; clock: Clock; catalog: Catalog; ledger: Ledger; subscriptions: Subscriptions }) {
  const { db, clock, catalog, ledger, subscriptions } = deps;
  return {
    /** A product of the buyer's shopping area, paid from the balance. */
    async purchase(userId: number, productId: number, area: string): Promise<PurchaseResult> {
      const product = catalog.productsForArea(area).find((p) => p.id === productId);
      if (!product) throw new DomainError("not_found", "errors.product_not_found");
      return db.transaction(async (tx) => {
        const { balance, transaction } = await ledger.post(
          tx,
          { userId, type: "purchase", amount: -product.price, paid: product.price, source: "balance", products: [snapshot(product)] },
          clock.now(),
        );
        await subscriptions.grantDays(tx, userId, product.cheat_id, product.params.days);
        return { balance, transaction, subscriptions: await subscriptions.list(userId, tx) };
      });
    },
  };
}
