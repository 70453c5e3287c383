// What a buyer who came from "Buy" is buying, on the sign-in and registration pages: the product
// and its price, and that signing in leads straight on to the payment.
import { formatMoney } from "../../i18n/format.ts";
import { useLocale, useT } from "../lib/i18n.tsx";
import { productName } from "./commerce.tsx";

export type PendingOrder = { game: string; days: number; price: number; currency: string };

export function OrderSummary({ order }: { order: PendingOrder }) {
  const t = useT();
  const locale = useLocale();
  return (
    <aside className="order-summary" aria-labelledby="order-summary-title">
      <p className="order-summary-title" id="order-summary-title">
        {t("auth.order.title")}
      </p>
      <p className="order-summary-item">
        <strong>{productName(t, order.game, order.days)}</strong>
        <strong>{formatMoney(order.price, order.currency, locale)}</strong>
      </p>
      <p className="muted small">{t("auth.order.note")}</p>
    </aside>
  );
}
