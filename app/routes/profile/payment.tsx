// /{game}/profile/payment?product=ID (purchase layout): the checkout of one product of the game.
// Guard (docs/product/routes.md#guards-and-redirects): without a current product of this game it goes to the subscription page.
// Before paying it shows what the payment makes of the pass (its new end, or the time a freeze
// keeps) and the balance after paying from it; paying from a balance that is short is not offered.
// Pays from the balance (then back to the subscription page with a notice) or by the payment
// provider the buyer picks among those on (docs/product/money.md#choosing-a-provider), to its page;
// with "use my balance" ticked the balance pays what it can and the provider the rest
// (docs/product/money.md#split-payments). Prices come from the catalogue, never from the form. The page
// runs no script (docs/decisions/0009-forms-on-the-server.md): its buttons post as a document.
import { Link, redirect, type AppLoadContext } from "react-router";
import { z } from "zod";
import { localePath } from "../../../i18n/locales.ts";
import { Card } from "../../components/ui/primitives.tsx";
import { Icon } from "../../components/ui/icons.tsx";
import { SubmitButton } from "../../components/forms.tsx";
import { PageForm, replyTo, usePageForm } from "../../components/page-form.tsx";
import { SubscriptionBadge, formatDuration, productName } from "../../components/commerce.tsx";
import { LegalLinks } from "../../components/legal.tsx";
import { ProviderLogo } from "../../components/payment-logos.tsx";
import { DomainError } from "../../../core/shared/errors.ts";
import { afterPurchase } from "../../../core/subscriptions/index.ts";
import { useLocale, useT } from "../../lib/i18n.tsx";
import { useHref } from "../../lib/paths.ts";
import { formatMoney } from "../../../i18n/format.ts";
import { useFormatDate } from "../../lib/dates.ts";
import { pageMeta } from "../../lib/meta.ts";
import { requireProfile } from "../../lib/guards.server.ts";
import { readSubmission, refuse } from "../../lib/forms.server.ts";
import { checkoutProduct } from "../../lib/checkout.server.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/payment.ts";

export const handle: RouteHandle = { hydrate: false };

/** The ways to pay, each a button of the one form: the balance, or a provider (with the balance's part when ticked). */
const PayForms = z.discriminatedUnion("intent", [z.object({ intent: z.literal("balance") }), z.object({ intent: z.enum(["paypal", "btcpay"]), use_balance: z.literal("on").optional() })]);

/** The chosen product (has-active-product): one of the game's current products, else a redirect. */
function chosenProduct(context: AppLoadContext, url: URL, gameId: number, gameSlug: string) {
  const product = checkoutProduct(context, gameId, url.searchParams.get("product"));
  if (!product) throw redirect(localePath(context.locale, `/${gameSlug}/profile/subscription`));
  return product;
}

export async function loader({ context, url, params }: Route.LoaderArgs) {
  const { auth, game } = requireProfile(context, url, params);
  const product = chosenProduct(context, url, game.id, game.slug);
  const { t, services } = context;
  const user = services.accounts.user(auth.user);
  const subscription = await services.subscriptions.forCheat(auth.user.id, game.id);
  const name = productName(t, game.name, product.days);
  return {
    game: { slug: game.slug, name: game.name },
    product: { id: product.id, days: product.days, price: product.price, currency: product.currency },
    balance: user.balance,
    currency: user.currency,
    subscription: subscription && { state: subscription.state, expiresAt: subscription.expiresAt },
    after: afterPurchase(subscription, product.days, services.clock.now()),
    providers: services.paymentProviders.map((p) => (p.provider.name === "btcpay" ? "btcpay" : "paypal")),
    meta: { title: t("payment.title", { product: name }), description: t("payment.title", { product: name }) },
  };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export async function action({ context, request, url, params }: Route.ActionArgs) {
  const { auth, game } = requireProfile(context, url, params);
  const product = chosenProduct(context, url, game.id, game.slug);
  const submission = await readSubmission(context, request, PayForms);
  if (submission.status !== "success") return refuse(context, submission);
  const { services, shoppingArea, locale } = context;
  try {
    if (submission.value.intent === "balance") {
      await services.purchases.purchase(auth.user.id, product.id, shoppingArea);
      return redirect(localePath(locale, `/${game.slug}/profile/subscription?notice=purchased`));
    }
    const payments = services.paymentsFor(submission.value.intent);
    if (!payments) return refuse(context, submission, new DomainError("not_found", "errors.provider_off"));
    const useBalance = submission.value.use_balance === "on";
    try {
      const order = await payments.createOrder(auth.user.id, { productId: product.id, area: shoppingArea, locale, useBalance });
      return redirect(order.approveUrl);
    } catch (error) {
      // The balance covers the whole price after all: it pays (docs/product/money.md#split-payments).
      if (!(error instanceof DomainError) || error.details.reason !== "balance_covers") throw error;
      await services.purchases.purchase(auth.user.id, product.id, shoppingArea);
      return redirect(localePath(locale, `/${game.slug}/profile/subscription?notice=purchased`));
    }
  } catch (error) {
    return refuse(context, submission, error);
  }
}

export default function Payment({ loaderData, actionData }: Route.ComponentProps) {
  const formatDate = useFormatDate();
  const { game, product, balance, currency, subscription, after, providers } = loaderData;
  // Either button's refusal shows in the one form.
  const [form] = usePageForm("pay", {}, { lastResult: replyTo(actionData) });
  const insufficient = actionData?.code === "insufficient_balance";
  const t = useT();
  const locale = useLocale();
  const href = useHref();
  const short = balance < product.price;
  return (
    <section className="checkout" aria-labelledby="payment-title">
      <p className="eyebrow">
        <Icon name="gamepad" size={16} /> {game.name}
      </p>
      <h1 id="payment-title">{t("payment.heading")}</h1>
      <Card className="checkout-card">
        <div className="checkout-product">
          <h2 className="h3">{productName(t, game.name, product.days)}</h2>
          <p className="checkout-price">{formatMoney(product.price, product.currency, locale)}</p>
        </div>
        <p className="muted small checkout-effect">
          {subscription && <SubscriptionBadge state={subscription.state} t={t} />}
          <span>
            {subscription?.state === "active"
              ? t("payment.extends", { date: formatDate(subscription.expiresAt) })
              : subscription?.state === "frozen"
                ? t("payment.addsToFrozen")
                : t("payment.startsNow")}
          </span>
        </p>
        <dl className="facts checkout-facts">
          <div>
            <dt>{t("payment.length")}</dt>
            <dd>{t("plural.days", { count: product.days })}</dd>
          </div>
          {after.state === "active" ? (
            <div>
              <dt>{t("payment.newEnd")}</dt>
              <dd data-testid="new-end">
                <time dateTime={after.expiresAt.toISOString()}>{formatDate(after.expiresAt)}</time>
              </dd>
            </div>
          ) : (
            <div>
              <dt>{t("payment.newKept")}</dt>
              <dd data-testid="new-kept">{formatDuration(t, after.keptSeconds)}</dd>
            </div>
          )}
          <div>
            <dt>{t("balance.current")}</dt>
            <dd className={short ? "short" : undefined}>{formatMoney(balance, currency, locale)}</dd>
          </div>
          {!short && (
            <div>
              <dt>{t("payment.balanceAfter")}</dt>
              <dd data-testid="balance-after">{formatMoney(balance - product.price, currency, locale)}</dd>
            </div>
          )}
        </dl>

        <PageForm form={form} className="pay-actions">
          {(insufficient || short) && (
            <p className="topup-hint" id="balance-short">
              {short && !insufficient && <span className="muted small">{t("payment.short", { missing: formatMoney(product.price - balance, currency, locale) })} </span>}
              <Link to={href(`/${game.slug}/profile/balance`)}>{t("payment.topUp")}</Link>
            </p>
          )}
          <SubmitButton intent="balance" variant={short ? "secondary" : "primary"} disabled={short} describedBy={short ? "balance-short" : undefined}>
            {t("payment.fromBalance", { price: formatMoney(product.price, product.currency, locale) })}
          </SubmitButton>
          {short && balance > 0 && (
            <label className="checkbox use-balance">
              <input type="checkbox" name="use_balance" defaultChecked />
              <span>{t("payment.useBalance", { balance: formatMoney(balance, currency, locale), rest: formatMoney(product.price - balance, currency, locale) })}</span>
            </label>
          )}
          {providers.map((id) => (
            <SubmitButton key={id} intent={id} variant={short ? "primary" : "secondary"}>
              <ProviderLogo id={id} /> {t(id === "btcpay" ? "payment.btcpay" : "payment.paypal")}
            </SubmitButton>
          ))}
        </PageForm>
        <p className="muted small secure-note">
          <Icon name="shield" size={16} /> {t("payment.note")}
        </p>
        <p className="muted small">{t("payment.agree")}</p>
        <LegalLinks />
      </Card>
      <p className="checkout-links small">
        <Link to={href(`/${game.slug}/profile/subscription`)}>{t("payment.otherPlans")}</Link>
      </p>
    </section>
  );
}
