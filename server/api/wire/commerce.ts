// The commerce API's wire format (docs/product/api.md#commerce-calls), written in this one place:
// the core's domain types (camelCase, Date) → the spec's JSON (snake_case fields, ISO 8601 strings
// in UTC, money in minor units). Every field name and nesting here is fixed by the spec; the
// core may name things as it likes.
import type { Product, SoldProduct } from "../../../core/catalog/index.ts";
import type { Gift, GiftResult, RedeemResult } from "../../../core/gifts/index.ts";
import type { Transaction } from "../../../core/ledger/index.ts";
import type { CaptureResult, CreatedOrder } from "../../../core/payments/index.ts";
import type { PurchaseResult } from "../../../core/purchases/index.ts";
import type { ReferralSummary } from "../../../core/referrals/index.ts";
import type { CheatStatistics, TransactionStatistics } from "../../../core/statistics/index.ts";
import type { FreezeBlock, Subscription, SubscriptionState } from "../../../core/subscriptions/index.ts";

const iso = (date: Date): string => date.toISOString();
const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);

/** A product of the catalogue (`frontend/data`'s `products`; docs/product/data.md#catalogue). */
export type ProductDto = {
  id: number;
  cheat_id: number;
  shopping_area: string;
  type: "subscription";
  params: { days: number };
  price: number;
  currency: string;
  title: string;
};

export function productDto(product: Product): ProductDto {
  return {
    id: product.id,
    cheat_id: product.cheatId,
    shopping_area: product.shoppingArea,
    type: product.type,
    params: { days: product.days },
    price: product.price,
    currency: product.currency,
    title: product.title,
  };
}

/** A product as sold, inside a transaction: the product's fields without its area. */
export type SoldProductDto = Omit<ProductDto, "shopping_area" | "type"> & { type: string };

export function soldProductDto(product: SoldProduct): SoldProductDto {
  return {
    id: product.id,
    cheat_id: product.cheatId,
    type: product.type,
    params: { days: product.days },
    price: product.price,
    currency: product.currency,
    title: product.title,
  };
}

export type TransactionDto = {
  id: number;
  type: string;
  amount: number;
  paid: number;
  currency: string;
  status: string;
  source: string;
  created_at: string;
  products: SoldProductDto[];
  /** The first product's id and the product itself (docs/product/data.md#ledger). */
  product_id: number | null;
  product: SoldProductDto | null;
};

export function transactionDto(transaction: Transaction): TransactionDto {
  const products = transaction.products.map(soldProductDto);
  const first = products[0] ?? null;
  return {
    id: transaction.id,
    type: transaction.type,
    amount: transaction.amount,
    paid: transaction.paid,
    currency: transaction.currency,
    status: transaction.status,
    source: transaction.source,
    created_at: iso(transaction.createdAt),
    products,
    product_id: first?.id ?? null,
    product: first,
  };
}

/** docs/product/data.md#subscriptions: the stored fields, then what a page needs. */
export type SubscriptionDto = {
  cheat_id: number;
  expires_at: string;
  frozen_length: number;
  next_froze_date: string | null;
  unfrozen_date: string | null;
  frozen_at: string | null;
  state: SubscriptionState;
  remaining_seconds: number;
  can_freeze: boolean;
  freeze_block: FreezeBlock;
  freeze_ends_at: string | null;
  /** docs/product/delivery.md#licences: carried in every subscription object of the API. */
  licence_key: string;
};

export function subscriptionDto(subscription: Subscription): SubscriptionDto {
  return {
    cheat_id: subscription.cheatId,
    expires_at: iso(subscription.expiresAt),
    frozen_length: subscription.frozenLength,
    next_froze_date: isoOrNull(subscription.nextFreezeAt),
    unfrozen_date: isoOrNull(subscription.unfrozenAt),
    frozen_at: isoOrNull(subscription.frozenAt),
    state: subscription.state,
    remaining_seconds: subscription.remainingSeconds,
    can_freeze: subscription.canFreeze,
    freeze_block: subscription.freezeBlock,
    freeze_ends_at: isoOrNull(subscription.freezeEndsAt),
    licence_key: subscription.licenceKey,
  };
}

export const subscriptionsDto = (subscriptions: Subscription[]): SubscriptionDto[] => subscriptions.map(subscriptionDto);

export type GiftDto = { code: string | null; cheat_id: number; days: number; recipient: string | null; redeemed: boolean | null; delivered: boolean };

export function giftDto(gift: Gift): GiftDto {
  return { code: gift.code, cheat_id: gift.cheatId, days: gift.days, recipient: gift.recipient, redeemed: gift.redeemed, delivered: gift.delivered };
}

/** `user/purchase` and `payment/paypal/capture`: the new subscriptions, balance and ledger row. */
export function purchaseDto(result: PurchaseResult | CaptureResult) {
  return { subscriptions: subscriptionsDto(result.subscriptions), balance: result.balance, transaction: transactionDto(result.transaction) };
}

export function giftResultDto(result: GiftResult) {
  return { gift: giftDto(result.gift), balance: result.balance, transaction: transactionDto(result.transaction) };
}

/** `gift/redeem` answers the subscriptions alone (docs/product/api.md#commerce-calls). */
export function redeemDto(result: RedeemResult) {
  return { subscriptions: subscriptionsDto(result.subscriptions) };
}

/** A provider that is on, as the checkout lists it: its path id and its name (the demo stands in for PayPal, at its path). */
export function providerDto(name: string) {
  return name === "btcpay" ? { id: "btcpay", name: "BTCPay Server" } : { id: "paypal", name: name === "demo" ? "Demo" : "PayPal" };
}

export function createdOrderDto(order: CreatedOrder) {
  return { order_id: order.orderId, approve_url: order.approveUrl, amount: order.amount };
}

export function cheatStatisticsDto(statistics: CheatStatistics) {
  return {
    cheat_id: statistics.cheatId,
    total_days: statistics.totalDays,
    total_spent: statistics.totalSpent,
    purchases: statistics.purchases,
    freezes: statistics.freezes,
    active_since: isoOrNull(statistics.activeSince),
    expires_at: isoOrNull(statistics.expiresAt),
  };
}

export function transactionStatisticsDto(statistics: TransactionStatistics) {
  return {
    count: statistics.count,
    total_spent: statistics.totalSpent,
    total_topped_up: statistics.totalToppedUp,
    by_month: statistics.byMonth.map((m) => ({ month: m.month, spent: m.spent, topped_up: m.toppedUp })),
  };
}

export function referralDto(summary: ReferralSummary) {
  return { code: summary.code, link: summary.link, invited: summary.invited, earned: summary.earned, percent: summary.percent };
}
