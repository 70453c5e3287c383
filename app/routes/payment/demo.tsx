// /payment/demo?order=ID (no layout): the approve page of the built-in demo provider (docs/product/money.md#the-demo-provider,
// never in production). Clearly marked: no real money moves. "Pay" approves the order and goes to
// the return page as PayPal would; "Cancel" goes there with ?cancel=1. Only the order's owner sees it.
// The page runs no script (docs/decisions/0009-forms-on-the-server.md).
import { redirect, type AppLoadContext } from "react-router";
import { z } from "zod";
import { DomainError } from "../../../core/shared/errors.ts";
import { DEMO_ORDER_ID } from "../../../core/payments/demo.ts";
import { localePath } from "../../../i18n/locales.ts";
import { Logo } from "../../components/brand.tsx";
import { Icon } from "../../components/ui/icons.tsx";
import { SubmitButton } from "../../components/forms.tsx";
import { PageForm, replyTo, usePageForm } from "../../components/page-form.tsx";
import { productName } from "../../components/commerce.tsx";
import { useLocale, useT } from "../../lib/i18n.tsx";
import { formatMoney } from "../../../i18n/format.ts";
import { notFound, pageMeta, stylesheets } from "../../lib/meta.ts";
import { requireUser } from "../../lib/guards.server.ts";
import { readSubmission, refuse } from "../../lib/forms.server.ts";
import type { RouteHandle } from "../../root.tsx";
import type { Route } from "./+types/demo.ts";
import accountStylesheet from "../../styles/account.css?url";
import commerceStylesheet from "../../styles/commerce.css?url";

export const links = stylesheets(accountStylesheet, commerceStylesheet);

export const handle: RouteHandle = { hydrate: false };

const DemoForms = z.discriminatedUnion("intent", [z.object({ intent: z.literal("pay") }), z.object({ intent: z.literal("cancel") })]);

/** The signed-in user's demo order of ?order=, or the 404 page (also when the demo provider is off). */
async function ownOrder(context: AppLoadContext, url: URL) {
  const { services } = context;
  if (!services.demoProvider) notFound(url);
  const auth = requireUser(context, url);
  const orderId = url.searchParams.get("order") ?? "";
  if (!DEMO_ORDER_ID.test(orderId)) notFound(url);
  try {
    return { auth, orderId, order: await services.payments.order(auth.user.id, orderId) };
  } catch (error) {
    if (error instanceof DomainError && error.code === "not_found") notFound(url);
    throw error;
  }
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const { orderId, order } = await ownOrder(context, url);
  const { t, services } = context;
  // What the order sells, as it was sold (its area's price and days), whatever the catalogue says now.
  const product = order.product;
  const game = product && services.catalog.cheatById(product.cheatId);
  return {
    orderId,
    kind: order.kind,
    amount: order.amount,
    currency: order.currency,
    status: order.status,
    item: product ? productName(t, game?.name ?? product.title, product.days) : null,
    meta: { title: t("demo.title"), description: t("demo.lead") },
  };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(data);

export async function action({ context, request, url }: Route.ActionArgs) {
  const { orderId } = await ownOrder(context, url);
  const submission = await readSubmission(context, request, DemoForms);
  if (submission.status !== "success") return refuse(context, submission);
  const { services, locale } = context;
  const token = encodeURIComponent(orderId);
  if (submission.value.intent === "pay") {
    await services.demoProvider!.approve(orderId); // false when approved before: the return page tells
    return redirect(localePath(locale, `/payment/paypal?token=${token}`));
  }
  return redirect(localePath(locale, `/payment/paypal?cancel=1&token=${token}`));
}

export default function DemoPayment({ loaderData, actionData }: Route.ComponentProps) {
  const { orderId, kind, amount, currency, status, item } = loaderData;
  // Only a refused post (the write limit, server/pages.ts) answers with data here.
  const [form] = usePageForm("demo", {}, { lastResult: replyTo(actionData) });
  const t = useT();
  const locale = useLocale();
  const open = status === "created";
  return (
    <main id="main" className="layout-bare">
      <section className="card bare-card demo-card" aria-labelledby="demo-title">
        <Logo />
        <p className="demo-ribbon" role="note">
          <Icon name="alert" size={18} /> {t("demo.ribbon")}
        </p>
        <h1 id="demo-title">{t("demo.title")}</h1>
        <p className="muted">{t("demo.lead")}</p>
        <dl className="facts demo-facts">
          <div>
            <dt>{t("demo.what")}</dt>
            <dd>{kind === "topup" ? t("demo.topup") : (item ?? "—")}</dd>
          </div>
          <div>
            <dt>{t("demo.amount")}</dt>
            <dd className="demo-amount">{formatMoney(amount, currency, locale)}</dd>
          </div>
          <div>
            <dt>{t("demo.order")}</dt>
            <dd>
              <code>{orderId}</code>
            </dd>
          </div>
        </dl>
        {!open && <p className="alert alert-info">{t("demo.done")}</p>}
        <PageForm form={form} className="pay-actions">
          {open ? (
            <>
              <SubmitButton intent="pay">{t("demo.pay", { amount: formatMoney(amount, currency, locale) })}</SubmitButton>
              <SubmitButton intent="cancel" variant="secondary">
                {t("demo.cancel")}
              </SubmitButton>
            </>
          ) : (
            <SubmitButton intent="pay">{t("demo.continue")}</SubmitButton>
          )}
        </PageForm>
      </section>
    </main>
  );
}
