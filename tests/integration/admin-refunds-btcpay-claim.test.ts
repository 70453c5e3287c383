// The claim link of a BTCPay refund goes to the buyer (docs/decisions/0042-refund-claim-link.md):
// an operator refunds a BTCPay payment, the Greenfield API creates its pull payment, and the buyer
// gets the pull payment's page in a mail (their language, the site's colours, read here through the
// loopback SMTP server as a mail client reads it) and in an inbox notification. A PayPal refund,
// which sends the money back by itself, sends neither.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { MAIL_COLORS } from "../../core/mail/templates.ts";
import { manualClock } from "../../core/shared/clock.ts";
import { paymentOrders } from "../../db/schema/index.ts";
import { formatMoney } from "../../i18n/format.ts";
import type { Locale } from "../../i18n/locales.ts";
import { PRODUCTS, message, registerUser, useShop, type Reply, type User } from "../kit/shop.ts";
import { makeOperator, payByPayPal, signInWithCode, type Operator } from "./admin-kit.ts";

const clock = manualClock(new Date("2026-06-01T00:00:00.000Z"));
const shop = useShop({ paypal: true, btcpay: true, smtp: true, clock, env: { BTCPAY_TIMEOUT_MS: "6000" } });
const product = PRODUCTS.dota2.days30;

let owner: Operator;

beforeAll(async () => {
  owner = await makeOperator(shop, clock, "owner");
});

async function refund(paymentId: number, body: { amount?: number } = {}): Promise<Reply> {
  owner.token = await signInWithCode(shop, clock, owner, owner.secret);
  const stepUp = await shop.call("POST", "/v2/admin/step-up", { token: owner.token, json: { code: owner.code() } });
  expect(stepUp.status, stepUp.text).toBe(200);
  return shop.call("POST", `/v2/admin/payments/${paymentId}/refund`, { token: owner.token, json: { reason: "buyer asked", ...body } });
}

/** A BTCPay payment of the buyer (a product or a top-up), paid on the stand-in and read back: its invoice and payment id. */
async function payByBtcPay(buyer: User, body: { product_id?: number; amount?: number }): Promise<{ invoiceId: string; paymentId: number }> {
  const created = await shop.call("POST", "/v2/web/payment/btcpay/order", { token: buyer.token, json: body });
  expect(created.status, created.text).toBe(200);
  const invoiceId = created.body.order_id as string;
  shop.btcpay.pay(invoiceId);
  const captured = await shop.call("POST", "/v2/web/payment/btcpay/capture", { token: buyer.token, json: { order_id: invoiceId } });
  expect(captured.status, captured.text).toBe(200);
  const [order] = await shop.services.db.select().from(paymentOrders).where(eq(paymentOrders.providerOrderId, invoiceId));
  return { invoiceId, paymentId: order!.id };
}

async function notificationsOf(buyer: User, lang: Locale) {
  const reply = await shop.call("GET", "/v2/web/user/notification", { token: buyer.token, lang });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.notifications as { type: string; title: string; content: string }[];
}

describe("a BTCPay refund's claim link goes to the buyer", () => {
  it.each([
    { lang: "ru" as const, kind: "product" as const },
    { lang: "en" as const, kind: "top-up, in part" as const },
  ])("$kind, $lang: mailed in the buyer's language and colours, and in the inbox", async ({ lang, kind }) => {
    const buyer = await registerUser(shop, { lang });
    const { invoiceId, paymentId } = await payByBtcPay(buyer, kind === "product" ? { product_id: product.id } : { amount: 4000 });
    const amount = kind === "product" ? product.price : 1500;

    const reply = await refund(paymentId, kind === "product" ? {} : { amount });
    expect(reply.status, reply.text).toBe(200);
    const pull = shop.btcpay.invoices.get(invoiceId)!.refunds.at(-1)!;
    expect(reply.body.refund.id).toBe(pull.id);
    const link = `${shop.btcpay.url}/pull-payments/${pull.id}`;

    const money = formatMoney(amount, "USD", lang);
    const subject = message(shop, lang, "mail.refund_claim.subject", { amount: money });
    const mail = await shop.smtp.waitFor((m) => m.envelope.to.includes(buyer.email) && m.subject === subject);
    // The text: what was refunded of which payment, the link on its own line, how the rate works, keep it secret.
    expect(mail.text).toContain(message(shop, lang, "mail.refund_claim.intro", { amount: money, order: invoiceId }));
    expect(mail.text).toContain(message(shop, lang, "mail.refund_claim.claim"));
    expect(mail.text!.split("\n")).toContain(link);
    expect(mail.text).toContain(message(shop, lang, "mail.refund_claim.rate", { currency: "USD" }));
    expect(mail.text).toContain(message(shop, lang, "mail.refund_claim.secret"));
    // The HTML: the buyer's language, the site's colours, a button to the claim page.
    expect(mail.html).toContain(`lang="${lang}"`);
    for (const colour of [MAIL_COLORS.page, MAIL_COLORS.card, MAIL_COLORS.accent]) expect(mail.html).toContain(colour);
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).toContain(message(shop, lang, "mail.refund_claim.button"));
    // One mail, not one per reading.
    expect(shop.smtp.messages.filter((m) => m.envelope.to.includes(buyer.email) && m.subject === subject)).toHaveLength(1);

    const [newest] = await notificationsOf(buyer, lang);
    expect(newest).toMatchObject({
      type: "refund_claim",
      title: message(shop, lang, "notification.refund_claim.title"),
      content: message(shop, lang, "notification.refund_claim.content", { link }),
    });
  });

  it("an operator's retry of the same refund (its Idempotency-Key) tells the buyer once", async () => {
    const buyer = await registerUser(shop, { lang: "en" });
    const { paymentId } = await payByBtcPay(buyer, { amount: 3000 });
    owner.token = await signInWithCode(shop, clock, owner, owner.secret);
    expect((await shop.call("POST", "/v2/admin/step-up", { token: owner.token, json: { code: owner.code() } })).status).toBe(200);
    const send = () =>
      shop.call("POST", `/v2/admin/payments/${paymentId}/refund`, {
        token: owner.token,
        json: { reason: "buyer asked", amount: 1000 },
        headers: { "Idempotency-Key": `claim-once-${paymentId}` },
      });
    const first = await send();
    expect(first.status, first.text).toBe(200);
    const again = await send();
    expect(again.status, again.text).toBe(200);
    expect(again.body.refund.id).toBe(first.body.refund.id);
    const subject = message(shop, "en", "mail.refund_claim.subject", { amount: formatMoney(1000, "USD", "en") });
    await shop.smtp.waitFor((m) => m.envelope.to.includes(buyer.email) && m.subject === subject);
    expect((await notificationsOf(buyer, "en")).filter((n) => n.type === "refund_claim")).toHaveLength(1);
    expect(shop.smtp.messages.filter((m) => m.envelope.to.includes(buyer.email) && m.subject === subject)).toHaveLength(1);
  });

  it("a PayPal refund (the money goes back by itself) sends no claim link", async () => {
    const buyer = await registerUser(shop, { lang: "en" });
    const { paymentId } = await payByPayPal(shop, buyer, { amount: 3000 });
    const reply = await refund(paymentId);
    expect(reply.status, reply.text).toBe(200);
    expect((await notificationsOf(buyer, "en")).some((n) => n.type === "refund_claim")).toBe(false);
    expect(shop.smtp.messages.some((m) => m.envelope.to.includes(buyer.email) && m.subject === message(shop, "en", "mail.refund_claim.subject", { amount: formatMoney(3000, "USD", "en") }))).toBe(
      false,
    );
  });
});
