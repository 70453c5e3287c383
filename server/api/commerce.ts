// Commerce API (docs/product/api.md#commerce-calls): transactions, purchases from balance, subscriptions with
// freeze, statistics, referrals, gifts, and payments by PayPal (order, capture, webhook).
import { Hono, type Context } from "hono";
import type { HonoEnv } from "../context.ts";
import { jsonBody, query } from "../http/body.ts";
import { ok } from "../http/envelope.ts";
import { requireAuth } from "../middleware/session.ts";
import { idempotencyRecorder, idempotent } from "../middleware/idempotency.ts";
import { GiftSchema, RedeemSchema } from "../../core/gifts/gifts.schema.ts";
import { TransactionsPageSchema } from "../../core/ledger/ledger.schema.ts";
import { CaptureSchema, CreateOrderSchema } from "../../core/payments/payments.schema.ts";
import { PurchaseSchema } from "../../core/purchases/purchases.schema.ts";
import { CheatStatisticsSchema } from "../../core/statistics/statistics.schema.ts";
import { FreezeSchema } from "../../core/subscriptions/subscriptions.schema.ts";
import { DomainError } from "../../core/shared/errors.ts";
import {
  cheatStatisticsDto,
  createdOrderDto,
  providerDto,
  giftResultDto,
  purchaseDto,
  redeemDto,
  referralDto,
  subscriptionsDto,
  transactionDto,
  transactionStatisticsDto,
} from "./wire/commerce.ts";

// Inputs are checked by the core's schemas (core/<area>/<area>.schema.ts), as the pages check theirs.
export function commerceRoutes() {
  const api = new Hono<HonoEnv>();
  const services = (c: Context<HonoEnv>) => c.get("services");

  api.get("/v2/web/user/transactions", async (c) => {
    const auth = requireAuth(c);
    const page = query(c, TransactionsPageSchema);
    return ok(c, { data: (await services(c).ledger.list(auth.user.id, page)).map(transactionDto) });
  });

  api.get("/v2/web/user/subscriptions", async (c) => ok(c, { subscriptions: subscriptionsDto(await services(c).subscriptions.list(requireAuth(c).user.id)) }));

  api.post("/v2/web/user/purchase", idempotent(), async (c) => {
    const auth = requireAuth(c);
    const { product_id } = await jsonBody(c, PurchaseSchema);
    const result = await services(c).purchases.purchase(auth.user.id, product_id, c.get("info").shoppingArea, { beforeCommit: idempotencyRecorder(c, purchaseDto) });
    return ok(c, purchaseDto(result));
  });

  api.post("/v2/web/user/subscriptions/freeze", async (c) => {
    const auth = requireAuth(c);
    const { cheat_id } = await jsonBody(c, FreezeSchema);
    return ok(c, { subscriptions: subscriptionsDto(await services(c).subscriptions.freeze(auth.user.id, cheat_id)) });
  });

  api.post("/v2/web/user/subscriptions/unfreeze", async (c) => {
    const auth = requireAuth(c);
    const { cheat_id } = await jsonBody(c, FreezeSchema);
    return ok(c, { subscriptions: subscriptionsDto(await services(c).subscriptions.unfreeze(auth.user.id, cheat_id)) });
  });

  api.get("/v2/web/user/statistics", async (c) => {
    const auth = requireAuth(c);
    const { cheat_id } = query(c, CheatStatisticsSchema);
    return ok(c, { statistics: cheatStatisticsDto(await services(c).statistics.forCheat(auth.user.id, cheat_id)) });
  });

  api.get("/v2/web/user/statistics/transactions", async (c) => ok(c, { statistics: transactionStatisticsDto(await services(c).statistics.transactions(requireAuth(c).user.id)) }));

  api.get("/v2/web/user/referral", async (c) => ok(c, { referral: referralDto(await services(c).referrals.summary(requireAuth(c).user.id)) }));

  api.post("/v2/web/user/gift", idempotent(), async (c) => {
    const auth = requireAuth(c);
    const input = await jsonBody(c, GiftSchema);
    const result = await services(c).gifts.give(
      auth.user.id,
      { productId: input.product_id, recipient: input.recipient, area: c.get("info").shoppingArea },
      { beforeCommit: idempotencyRecorder(c, giftResultDto) },
    );
    return ok(c, giftResultDto(result));
  });

  api.post("/v2/web/user/gift/redeem", async (c) => {
    const auth = requireAuth(c);
    const { code } = await jsonBody(c, RedeemSchema);
    return ok(c, redeemDto(await services(c).gifts.redeem(auth.user.id, code)));
  });

  // docs/product/money.md#choosing-a-provider: the providers that are on, for the checkout.
  api.get("/v2/web/payment/providers", (c) => ok(c, { providers: services(c).paymentProviders.map((p) => providerDto(p.provider.name)) }));

  /** The payments of the path's provider, when it is on; 404 otherwise. */
  const paymentsOf = (c: Context<HonoEnv>) => {
    const payments = services(c).paymentsFor(c.req.param("provider") ?? "");
    if (!payments) throw new DomainError("not_found", "errors.provider_off");
    return payments;
  };

  api.post("/v2/web/payment/:provider{paypal|btcpay}/order", idempotent(), async (c) => {
    const auth = requireAuth(c);
    const input = await jsonBody(c, CreateOrderSchema);
    const info = c.get("info");
    const payments = paymentsOf(c);
    const request = {
      productId: input.product_id,
      amount: input.amount,
      useBalance: input.use_balance,
      area: info.shoppingArea,
      locale: info.locale,
      requestKey: c.req.header("idempotency-key"),
    };
    // A split payment the balance covers whole completes from the balance at once (docs/product/money.md#split-payments);
    // when a parallel order took the balance meanwhile, the order is made again with what is left.
    for (let attempt = 1; ; attempt++) {
      try {
        return ok(c, createdOrderDto(await payments.createOrder(auth.user.id, request)));
      } catch (error) {
        if (!(error instanceof DomainError) || error.details.reason !== "balance_covers" || input.product_id === undefined) throw error;
      }
      try {
        const result = await services(c).purchases.purchase(auth.user.id, input.product_id, info.shoppingArea, { beforeCommit: idempotencyRecorder(c, purchaseDto) });
        return ok(c, purchaseDto(result));
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== "insufficient_balance" || attempt >= 3) throw error;
      }
    }
  });

  api.post("/v2/web/payment/:provider{paypal|btcpay}/capture", async (c) => {
    const auth = requireAuth(c);
    const { order_id } = await jsonBody(c, CaptureSchema);
    return ok(c, purchaseDto(await paymentsOf(c).capture(auth.user.id, order_id)));
  });

  api.post("/v2/web/payment/:provider{paypal|btcpay}/webhook", async (c) => {
    // The raw body as sent: the provider verifies its signature over exactly these bytes.
    await paymentsOf(c).webhook(c.req.header(), await c.req.text());
    return ok(c);
  });

  return api;
}
