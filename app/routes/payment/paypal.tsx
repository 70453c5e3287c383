// /payment/paypal (no layout): the return page of the payment provider (docs/product/money.md#paying-through-a-provider). PayPal
// sends the buyer back with ?token=<order id> (and ?cancel=1 when they gave up: a split order's
// reservation comes back), BTCPay to /payment/btcpay?invoice=<invoice id> (btcpay.tsx); the loader
// captures the order for the signed-in user — idempotent, so a reload shows the same result. A
// cancelled payment offers the checkout of the same order again; one that failed or that we do
// not know points to support (and to a retry when trying again may help).
import type { Route } from "./+types/paypal.ts";
import { returnPage } from "./return.server.ts";

import PaymentReturn from "./return-page.tsx";

export { links, meta } from "./return-page.tsx";

export const loader = (args: Route.LoaderArgs) => returnPage(args, "paypal");

// A component of this module (not a re-export), so that React Router hands it the loader's data.
export default function PayPalReturn({ loaderData }: Route.ComponentProps) {
  return <PaymentReturn loaderData={loaderData} />;
}
