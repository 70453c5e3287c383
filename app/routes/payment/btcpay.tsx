// /payment/btcpay?invoice=<invoice id> (no layout): where BTCPay Server sends the buyer back
// (docs/product/money.md#btcpay-server). The invoice is read back — paid (the receipt and the days),
// partly paid (what to do), expired (what became of the money) — by the same page as PayPal's.
import type { Route } from "./+types/btcpay.ts";
import { returnPage } from "./return.server.ts";

import PaymentReturn from "./return-page.tsx";

export { links, meta } from "./return-page.tsx";

export const loader = (args: Route.LoaderArgs) => returnPage(args, "btcpay");

// A component of this module (not a re-export), so that React Router hands it the loader's data.
export default function BtcPayReturn({ loaderData }: Route.ComponentProps) {
  return <PaymentReturn loaderData={loaderData} />;
}
