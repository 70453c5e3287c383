// PayPal webhooks at the edge: an event the shop cannot apply because its database failed is never
// acknowledged (PayPal resends only what was not answered 2xx), and a redelivery applies it once;
// the anonymous endpoint cannot be used to make the shop call PayPal at will.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../core/shared/clock.ts";
import type { KitOrder } from "../kit/paypal.ts";
import { balanceOf, expectConsistentLedger, registerUser, rowsOf, useShop, type Reply, type User } from "../kit/shop.ts";

const shop = useShop({ paypal: true, clock: systemClock });

async function webhook(event: unknown, headers = shop.paypal.webhookHeaders(event)): Promise<Reply> {
  return shop.call("POST", "/v2/web/payment/paypal/webhook", { json: event, headers });
}

/** Creates an order, lets the buyer approve it and PayPal capture it (the shop's answer got lost). */
async function capturedAtProvider(user: User, body: { amount?: number; product_id?: number }): Promise<KitOrder> {
  const reply = await shop.call("POST", "/v2/web/payment/paypal/order", { token: user.token, json: body });
  expect(reply.status, reply.text).toBe(200);
  shop.paypal.captureAtProvider(reply.body.order_id);
  return shop.paypal.orders.get(reply.body.order_id)!;
}

/** Runs `during` while the database refuses what `breakIt` broke, then repairs it. */
async function withBrokenDatabase<T>(breakIt: string[], repair: string[], during: () => Promise<T>): Promise<T> {
  for (const statement of breakIt) await shop.services.db.execute(sql.raw(statement));
  try {
    return await during();
  } finally {
    for (const statement of repair) await shop.services.db.execute(sql.raw(statement));
  }
}

describe("a webhook whose application fails in the database", () => {
  it("answers 5xx when the order cannot even be read; the redelivery applies it once", async () => {
    const buyer = await registerUser(shop);
    const order = await capturedAtProvider(buyer, { amount: 1600 });
    const event = shop.paypal.webhookEvent("PAYMENT.CAPTURE.COMPLETED", order);
    const failed = await withBrokenDatabase(["alter table payment_orders rename to payment_orders_away"], ["alter table payment_orders_away rename to payment_orders"], () => webhook(event));
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(failed.body).toMatchObject({ status: false });
    expect(await rowsOf(shop, buyer.id)).toHaveLength(0);

    expect((await webhook(event)).status).toBe(200);
    expect((await webhook(event)).status).toBe(200);
    expect((await rowsOf(shop, buyer.id)).map((r) => [r.type, r.amount])).toEqual([["topup", 1600]]);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(1600);
  });

  it.each([
    ["a capture", "PAYMENT.CAPTURE.COMPLETED"],
    ["a refund", "PAYMENT.CAPTURE.REFUNDED"],
  ] as const)("answers 5xx when booking %s fails half-way, books nothing; the redelivery applies it once", async (_name, type) => {
    const buyer = await registerUser(shop);
    const order = await capturedAtProvider(buyer, { amount: 1700 });
    if (type === "PAYMENT.CAPTURE.REFUNDED") {
      expect((await webhook(shop.paypal.webhookEvent("PAYMENT.CAPTURE.COMPLETED", order))).status).toBe(200);
      shop.paypal.refund(order.id);
    }
    const before = (await rowsOf(shop, buyer.id)).length;
    const event = shop.paypal.webhookEvent(type, order);
    // A trigger makes every new ledger row fail, after the order row was already claimed.
    const failed = await withBrokenDatabase(
      [
        "create or replace function fail_ledger() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$",
        "create trigger fail_ledger before insert on transactions for each row execute function fail_ledger()",
      ],
      ["drop trigger fail_ledger on transactions", "drop function fail_ledger()"],
      () => webhook(event),
    );
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(failed.text).not.toContain("injected failure");
    expect(await rowsOf(shop, buyer.id)).toHaveLength(before);

    expect((await webhook(event)).status).toBe(200);
    expect((await webhook(event)).status).toBe(200);
    expect(await rowsOf(shop, buyer.id)).toHaveLength(before + 1);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(type === "PAYMENT.CAPTURE.COMPLETED" ? 1700 : 0);
  });

  it("acknowledges an event about an order the shop does not know (nothing to retry)", async () => {
    const stranger = await registerUser(shop);
    const order = await capturedAtProvider(stranger, { amount: 1000 });
    const event = shop.paypal.webhookEvent("PAYMENT.CAPTURE.COMPLETED", order);
    (event.resource.supplementary_data as { related_ids: { order_id: string } }).related_ids.order_id = "UNKNOWN-ORDER-1";
    const reply = await webhook(event);
    expect(reply.status).toBe(200);
    expect(await balanceOf(shop, stranger.id)).toBe(0);
  });
});

describe("a flood of forged webhooks", () => {
  it("costs at most a few certificate fetches and no PayPal API call, credits nothing, and the genuine event still applies", async () => {
    const stranger = createServer((_req, res) => res.end("-----BEGIN CERTIFICATE-----"));
    let strangerCalls = 0;
    stranger.on("request", () => strangerCalls++);
    await new Promise<void>((resolve) => stranger.listen(0, "127.0.0.1", resolve));
    const strangerUrl = `http://127.0.0.1:${(stranger.address() as AddressInfo).port}`;
    try {
      const buyer = await registerUser(shop);
      const order = await capturedAtProvider(buyer, { amount: 1900 });
      const event = shop.paypal.webhookEvent("PAYMENT.CAPTURE.COMPLETED", order);
      // A genuine event for another order first, so PayPal's certificate is known.
      const other = await capturedAtProvider(await registerUser(shop), { amount: 1000 });
      expect((await webhook(shop.paypal.webhookEvent("PAYMENT.CAPTURE.COMPLETED", other))).status).toBe(200);
      const before = shop.paypal.requests.length;

      const forged = (i: number): Record<string, string> => {
        const headers = shop.paypal.webhookHeaders(event);
        headers["paypal-transmission-sig"] = randomBytes(256).toString("base64");
        if (i % 4 === 1) headers["paypal-cert-url"] = `${shop.paypal.url}/v1/notifications/certs/CERT-FORGED-${i}`;
        if (i % 4 === 2) headers["paypal-cert-url"] = `${strangerUrl}/v1/notifications/certs/CERT-${i}`;
        if (i % 4 === 3) headers["paypal-cert-url"] = `https://api.paypal.com.${i}.evil.test/v1/notifications/certs/CERT-1`;
        return headers;
      };
      const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => webhook(event, forged(i))));
      for (const reply of replies) {
        expect([403, 502]).toContain(reply.status);
        expect(reply.body.status).toBe(false);
      }
      const calls = shop.paypal.requests.slice(before);
      // Only new certificate URLs on PayPal's host were fetched, at most five of them.
      expect(calls.every((r) => r.method === "GET" && r.path.startsWith("/v1/notifications/certs/CERT-FORGED-"))).toBe(true);
      expect(calls.length).toBeLessThanOrEqual(5);
      expect(strangerCalls).toBe(0);
      expect(await rowsOf(shop, buyer.id)).toHaveLength(0);

      // PayPal's own event, signed with the known certificate, is still applied, once.
      expect((await webhook(event)).status).toBe(200);
      expect(await expectConsistentLedger(shop, buyer.id)).toBe(1900);
    } finally {
      await new Promise<void>((resolve) => stranger.close(() => resolve()));
    }
  });
});
