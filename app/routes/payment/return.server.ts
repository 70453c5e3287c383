// The loader of the providers' return pages (/payment/paypal, /payment/btcpay; docs/product/money.md#btcpay-server):
// the order captured (PayPal) or its invoice read back (BTCPay) for the signed-in buyer.
import type { AppLoadContext } from "react-router";
import { DomainError } from "../../../core/shared/errors.ts";
import { ORDER_ID } from "../../../core/payments/payments.schema.ts";
import { productName } from "../../components/commerce.tsx";
import { notFound } from "../../lib/meta.ts";
import { requireUser, storedGameProfile } from "../../lib/guards.server.ts";
import { localePath } from "../../../i18n/locales.ts";
import type { Outcome } from "./return-page.tsx";

type LoaderArgs = { context: AppLoadContext; request: Request; url: URL };

/** The return page of a provider: its order captured (PayPal) or read back (BTCPay) for the signed-in buyer. */
export async function returnPage({ context, request, url }: LoaderArgs, providerId: "paypal" | "btcpay") {
  const auth = requireUser(context, url);
  const { t, services, locale } = context;
  const payments = services.paymentsFor(providerId);
  if (!payments) notFound(url);
  const token = url.searchParams.get(providerId === "btcpay" ? "invoice" : "token") ?? "";
  const profile = storedGameProfile(context, request);
  const page = (outcome: Outcome, back = profile) => ({
    outcome,
    back,
    order: ORDER_ID.test(token) ? token : null,
    meta: { title: t("return.title"), description: t("return.title") },
  });

  if (url.searchParams.get("cancel") === "1") {
    if (ORDER_ID.test(token)) await payments.cancel(auth.user.id, token);
    return page({ kind: "cancelled", again: await checkoutAgain(context, request, auth.user.id, token) });
  }
  if (!ORDER_ID.test(token)) return page({ kind: "error", message: t("return.noOrder"), retry: false });
  try {
    const { transaction, balance, subscriptions } = await payments.capture(auth.user.id, token);
    const product = transaction.products[0];
    if (!product) return page({ kind: "topup", amount: transaction.amount, balance, currency: transaction.currency }, `${profile}/balance`);
    const cheat = services.catalog.cheatById(product.cheatId);
    const sub = subscriptions.find((s) => s.cheatId === product.cheatId);
    return page(
      {
        kind: "product",
        item: productName(t, cheat?.name ?? product.title, product.days),
        paid: transaction.paid,
        currency: transaction.currency,
        expiresAt: sub && sub.state === "active" ? sub.expiresAt : null,
        frozen: sub?.state === "frozen",
        game: cheat?.slug ?? null,
      },
      cheat ? localePath(locale, `/${cheat.slug}/profile/subscription`) : profile,
    );
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // The provider failed or has not settled yet: trying again may help. Anything else will not.
    const retry = error.code === "payment_failed" || error.code === "payment_pending" || error.code === "payment_not_approved";
    const message = error.code === "not_found" ? t("return.noOrder") : t(error.messageKey, error.details.params);
    return page({ kind: "error", message, retry });
  }
}

/**
 * Where a cancelled payment is tried again: the checkout of the order's product, or the balance
 * page for a top-up; the stored game's subscription page when the order is not the buyer's.
 */
async function checkoutAgain(context: AppLoadContext, request: Request, userId: number, token: string): Promise<string> {
  const { services, locale } = context;
  const order = ORDER_ID.test(token) ? await (services.paymentsFor("paypal") ?? services.payments).order(userId, token).catch(() => undefined) : undefined;
  const game = order?.product ? services.catalog.cheatById(order.product.cheatId) : undefined;
  const profile = storedGameProfile(context, request);
  if (order?.kind === "topup") return `${profile}/balance`;
  if (game && order?.product) return localePath(locale, `/${game.slug}/profile/payment?product=${order.product.id}`);
  return `${profile}/subscription`;
}
