// The commerce wire format (docs/product/api.md#commerce-calls): every domain type of the core
// becomes exactly the JSON the spec fixes — snake_case names, ISO 8601 strings in UTC, the product
// snapshot of a transaction as it was stored — and nothing of the core's own naming leaks out.
import { describe, expect, it } from "vitest";
import { DEMO } from "../../../db/seed.ts";
import type { transactions } from "../../../db/schema/index.ts";
import type { Product } from "../../../core/catalog/index.ts";
import { toTransaction } from "../../../core/ledger/index.ts";
import type { Subscription } from "../../../core/subscriptions/index.ts";
import {
  cheatStatisticsDto,
  createdOrderDto,
  giftDto,
  giftResultDto,
  productDto,
  providerDto,
  purchaseDto,
  redeemDto,
  referralDto,
  subscriptionDto,
  transactionDto,
  transactionStatisticsDto,
} from "./commerce.ts";

const at = (iso: string) => new Date(iso);

/** Named fixtures of the demo catalogue (db/seed.ts): dota2's 30 days at the CIS price, 14.99. */
const { dota2, minecraft, cs2 } = DEMO.games;
const seeded = DEMO.products.dota2Cis.days30;

const product: Product = { id: seeded.id, cheatId: seeded.cheatId, shoppingArea: seeded.area, type: "subscription", days: seeded.days, price: seeded.price, currency: "USD", title: seeded.title };

const stored = { id: seeded.id, cheat_id: dota2.id, type: "subscription", params: { days: 30 }, price: 1499, currency: "USD", title: "Dota 2 · 30d" };

const row: typeof transactions.$inferSelect = {
  id: 42,
  userId: 7,
  type: "purchase",
  amount: -1499,
  paid: 1499,
  balanceAfter: 501,
  currency: "USD",
  status: "completed",
  source: "balance",
  products: [stored],
  reference: null,
  owedChange: 0,
  orderId: null,
  relatedId: null,
  createdAt: at("2026-03-15T17:30:05.123Z"),
};

const active: Subscription = {
  cheatId: dota2.id,
  expiresAt: at("2026-04-14T17:30:05.000Z"),
  frozenLength: 0,
  nextFreezeAt: at("2026-03-20T00:00:00.000Z"),
  unfrozenAt: at("2026-03-13T00:00:00.000Z"),
  frozenAt: null,
  state: "active",
  remainingSeconds: 2_592_000,
  canFreeze: false,
  freezeBlock: "cooldown",
  freezeEndsAt: null,
  licenceKey: "316FE092-4B79-46C8-B529-3E72A1FF4D07",
};

/** Every key at any depth of a JSON value. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
}

describe("the commerce wire format", () => {
  it("a product: its days under params, its area as shopping_area", () => {
    expect(productDto(product)).toEqual({
      id: seeded.id,
      cheat_id: dota2.id,
      shopping_area: "cis",
      type: "subscription",
      params: { days: 30 },
      price: 1499,
      currency: "USD",
      title: "Dota 2 · 30d",
    });
  });

  it("a transaction: created_at in ISO, the stored product snapshot as it was stored, the first as product and product_id", () => {
    const dto = transactionDto(toTransaction(row));
    expect(dto).toEqual({
      id: 42,
      type: "purchase",
      amount: -1499,
      paid: 1499,
      currency: "USD",
      status: "completed",
      source: "balance",
      created_at: "2026-03-15T17:30:05.123Z",
      products: [stored],
      product_id: seeded.id,
      product: stored,
    });
    // Nothing the user must not see (balance_after, references, owed) is in it.
    expect(Object.keys(dto)).not.toContain("balance_after");
    expect(transactionDto(toTransaction({ ...row, type: "topup", amount: 500, products: [] }))).toMatchObject({ products: [], product_id: null, product: null });
  });

  it("a subscription: the spec's names (frozen_length, next_froze_date, unfrozen_date), null dates as null, and its licence_key", () => {
    expect(subscriptionDto(active)).toEqual({
      cheat_id: dota2.id,
      expires_at: "2026-04-14T17:30:05.000Z",
      frozen_length: 0,
      next_froze_date: "2026-03-20T00:00:00.000Z",
      unfrozen_date: "2026-03-13T00:00:00.000Z",
      frozen_at: null,
      state: "active",
      remaining_seconds: 2_592_000,
      can_freeze: false,
      freeze_block: "cooldown",
      freeze_ends_at: null,
      licence_key: "316FE092-4B79-46C8-B529-3E72A1FF4D07",
    });
    const frozen: Subscription = { ...active, state: "frozen", frozenLength: 3600, frozenAt: at("2026-03-16T00:00:00.000Z"), freezeEndsAt: at("2026-04-15T00:00:00.000Z"), freezeBlock: "frozen" };
    expect(subscriptionDto(frozen)).toMatchObject({ frozen_length: 3600, frozen_at: "2026-03-16T00:00:00.000Z", freeze_ends_at: "2026-04-15T00:00:00.000Z", state: "frozen" });
  });

  it("the answers of purchase, capture, gift, redeem and order", () => {
    const transaction = toTransaction(row);
    expect(purchaseDto({ subscriptions: [active], balance: 501, transaction })).toEqual({
      subscriptions: [subscriptionDto(active)],
      balance: 501,
      transaction: transactionDto(transaction),
    });
    const gift = { code: "ABCDEFGHJKLM", cheatId: minecraft.id, days: 7, recipient: null, redeemed: false, delivered: false };
    expect(giftDto(gift)).toEqual({ code: "ABCDEFGHJKLM", cheat_id: minecraft.id, days: 7, recipient: null, redeemed: false, delivered: false });
    expect(giftResultDto({ gift, balance: 1, transaction })).toEqual({ gift: giftDto(gift), balance: 1, transaction: transactionDto(transaction) });
    expect(redeemDto({ subscriptions: [active], gift })).toEqual({ subscriptions: [subscriptionDto(active)] });
    expect(createdOrderDto({ orderId: "5O190127TN364715T", approveUrl: "https://www.paypal.com/checkoutnow?token=5O190127TN364715T", amount: 1499 })).toEqual({
      order_id: "5O190127TN364715T",
      approve_url: "https://www.paypal.com/checkoutnow?token=5O190127TN364715T",
      amount: 1499,
    });
    expect(providerDto("btcpay")).toEqual({ id: "btcpay", name: "BTCPay Server" });
    expect(providerDto("demo")).toEqual({ id: "paypal", name: "Demo" });
  });

  it("statistics and the referral summary", () => {
    expect(cheatStatisticsDto({ cheatId: cs2.id, totalDays: 37, totalSpent: 2798, purchases: 2, freezes: 1, activeSince: at("2026-01-01T00:00:00.000Z"), expiresAt: null })).toEqual({
      cheat_id: cs2.id,
      total_days: 37,
      total_spent: 2798,
      purchases: 2,
      freezes: 1,
      active_since: "2026-01-01T00:00:00.000Z",
      expires_at: null,
    });
    expect(transactionStatisticsDto({ count: 3, totalSpent: 998, totalToppedUp: 2000, byMonth: [{ month: "2026-03", spent: 998, toppedUp: 2000 }] })).toEqual({
      count: 3,
      total_spent: 998,
      total_topped_up: 2000,
      by_month: [{ month: "2026-03", spent: 998, topped_up: 2000 }],
    });
    expect(referralDto({ code: "DEMO2026", link: "http://localhost/?r=DEMO2026", invited: 2, earned: 150, percent: 10, friends: [] })).toEqual({
      code: "DEMO2026",
      link: "http://localhost/?r=DEMO2026",
      invited: 2,
      earned: 150,
      percent: 10,
    });
  });

  it("no camelCase name and no Date object reaches the wire", () => {
    const transaction = toTransaction(row);
    const answers = [
      productDto(product),
      purchaseDto({ subscriptions: [active], balance: 501, transaction }),
      cheatStatisticsDto({ cheatId: cs2.id, totalDays: 1, totalSpent: 1, purchases: 1, freezes: 0, activeSince: at("2026-01-01T00:00:00.000Z"), expiresAt: at("2026-01-02T00:00:00.000Z") }),
      transactionStatisticsDto({ count: 1, totalSpent: 1, totalToppedUp: 0, byMonth: [{ month: "2026-01", spent: 1, toppedUp: 0 }] }),
    ];
    for (const answer of answers) {
      expect(keysOf(answer).filter((key) => /[A-Z]/.test(key))).toEqual([]);
      expect(JSON.parse(JSON.stringify(answer))).toEqual(answer);
    }
  });
});
