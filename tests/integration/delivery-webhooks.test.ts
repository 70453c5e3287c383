// Outgoing webhooks (docs/product/delivery.md#webhooks, issue 11) against a loopback receiver on a
// manual clock (the worker is driven by the test: deliverDue): endpoints managed by the owner;
// events written with the changes they tell of and signed with Nova-Signature (checked here with
// the endpoint's secret); retries after 500s and timeouts with growing delays, failed after 24 h and
// resent by hand; in order per user and endpoint, while other users' events go on; and nothing lost
// when the app dies mid-delivery and another process takes over.
import { createHmac } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users, webhookDeliveries } from "../../db/schema/index.ts";
import { manualClock } from "../../core/shared/clock.ts";
import { createTestDatabase, type TestDatabase } from "../kit/database.ts";
import { startTestApp } from "../kit/app.ts";
import { startWebhookReceiver, type Received, type WebhookReceiver } from "../kit/webhook-receiver.ts";
import { GAMES, PRODUCTS, registerUser, useShop, type User } from "../kit/shop.ts";
import { auditEntries, makeOperator, signInWithCode, type Operator } from "./admin-kit.ts";

const TIMEOUT_MS = 300;
const clock = manualClock(new Date("2026-08-01T10:00:00.000Z"));
const shop = useShop({ clock, paypal: true, env: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
let receiver: WebhookReceiver;
let owner: Operator;
let secret = "";
let endpointId = 0;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  owner = await makeOperator(shop, clock, "owner");
});
afterAll(() => receiver.stop());

/** Nova-Signature checked as a receiver checks it: the HMAC of "<t>.<body>" with the secret. */
function expectSigned(request: Received, withSecret = secret) {
  const header = String(request.headers["nova-signature"]);
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  expect(match, header).not.toBeNull();
  const expected = createHmac("sha256", withSecret).update(`${match![1]}.${request.body}`).digest("hex");
  expect(match![2]).toBe(expected);
  return Number(match![1]);
}

const deliver = () => shop.services.webhooks.deliverDue();

async function deliveriesOf(userId: number) {
  return shop.services.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.userId, userId)).orderBy(asc(webhookDeliveries.id));
}

/** Delivers until the queue has nothing due now (each round may unblock the next of a user). */
async function drain() {
  for (let i = 0; i < 20; i++) {
    const { delivered, retry, failed } = await deliver();
    if (delivered + retry + failed === 0) return;
  }
}

describe("endpoints (owner)", () => {
  it("registers an endpoint, answers its secret once, lists it with its deliveries; guests 401, buyers and support 403", async () => {
    const body = { url: receiver.url, events: ["subscription.updated", "payment.completed", "payment.refunded", "user.suspended"] };
    expect((await shop.call("POST", "/v2/admin/webhooks", { json: body })).status).toBe(401);
    const buyer = await registerUser(shop);
    expect((await shop.call("POST", "/v2/admin/webhooks", { token: buyer.token, json: body })).status).toBe(403);
    expect((await shop.call("GET", "/v2/admin/webhooks", { token: buyer.token })).status).toBe(403);
    const support = await makeOperator(shop, clock, "support");
    expect((await shop.call("POST", "/v2/admin/webhooks", { token: support.token, json: body })).body.code).toBe("forbidden");
    expect((await shop.call("GET", "/v2/admin/webhooks", { token: support.token })).status).toBe(403);

    const created = await shop.call("POST", "/v2/admin/webhooks", { token: owner.token, json: body });
    expect(created.status, created.text).toBe(200);
    secret = created.body.webhook.secret;
    endpointId = created.body.webhook.id;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    expect(created.body.webhook).toMatchObject({ url: receiver.url, events: body.events, active: true, deliveries: [] });
    const listed = await shop.call("GET", "/v2/admin/webhooks", { token: owner.token });
    expect(listed.body.webhooks).toEqual([expect.objectContaining({ id: endpointId, secret_hint: `${secret.slice(0, 4)}…` })]);
    expect(listed.text).not.toContain(secret);
    // Audited without the secret; the API's own reason when the call names none.
    const [entry] = await auditEntries(shop, "webhook.add");
    expect(entry).toMatchObject({ actorId: owner.id, targetType: "webhook", targetId: String(endpointId), reason: "endpoint added", after: { url: receiver.url, events: body.events } });
    expect(JSON.stringify(entry)).not.toContain(secret);
  });

  it("refuses a bad URL or event list with 400 validation_failed", async () => {
    for (const json of [
      { url: "not a url", events: ["payment.completed"] },
      { url: receiver.url, events: [] },
      { url: receiver.url, events: ["payment.exploded"] },
      { url: "ftp://127.0.0.1/x", events: ["payment.completed"] },
    ]) {
      const reply = await shop.call("POST", "/v2/admin/webhooks", { token: owner.token, json });
      expect(reply.status, JSON.stringify(json)).toBe(400);
      expect(reply.body.code).toBe("validation_failed");
    }
  });
});

describe("delivery", () => {
  it("a purchase: payment and pass events signed with Nova-Signature, in the order they happened", async () => {
    const buyer = await registerUser(shop);
    const created = await shop.call("POST", "/v2/web/payment/paypal/order", { token: buyer.token, json: { product_id: PRODUCTS.dota2.days7.id } });
    shop.paypal.approve(created.body.order_id);
    expect((await shop.call("POST", "/v2/web/payment/paypal/capture", { token: buyer.token, json: { order_id: created.body.order_id } })).status).toBe(200);
    const before = receiver.received.length;
    await drain();
    const mine = receiver.received.slice(before).filter((r) => r.json.data.user_id === buyer.id);
    expect(mine.map((r) => r.json.type)).toEqual(["payment.completed", "subscription.updated"]);
    for (const request of mine) {
      expect(expectSigned(request)).toBe(Math.floor(clock.now().getTime() / 1000));
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers["nova-event-id"]).toBe(request.json.id);
      expect(Object.keys(request.json)).toEqual(["id", "type", "created_at", "data"]);
      expect(request.json.created_at).toBe(clock.now().toISOString());
    }
    expect(mine[0]!.json.data).toMatchObject({
      user_id: buyer.id,
      order_id: created.body.order_id,
      kind: "product",
      amount: PRODUCTS.dota2.days7.price,
      product: { cheat_id: GAMES.dota2.id, days: 7 },
    });
    expect(mine[1]!.json.data).toMatchObject({ user_id: buyer.id, cheat_id: GAMES.dota2.id, state: "active", remaining_seconds: 7 * 86_400 });
    // A wrong secret would not verify.
    expect(() => expectSigned(mine[0]!, "whsec_someone_else")).toThrow();
    expect((await deliveriesOf(buyer.id)).map((d) => d.status)).toEqual(["delivered", "delivered"]);
  });

  it("retries after 500s and timeouts with growing delays, then delivers", async () => {
    const buyer = await registerUser(shop, { balance: 5000 });
    receiver.script(500, "hang", 500);
    expect((await shop.call("POST", "/v2/web/user/purchase", { token: buyer.token, json: { product_id: PRODUCTS.cs2.days1.id } })).status).toBe(200);
    const delays: number[] = [];
    const sent = () => receiver.received.filter((r) => r.json.data.user_id === buyer.id).length;
    for (let attempt = 1; attempt <= 3; attempt++) {
      const outcome = await deliver();
      expect(outcome).toMatchObject({ retry: 1 });
      expect(sent()).toBe(attempt);
      const [row] = await deliveriesOf(buyer.id);
      expect(row).toMatchObject({ status: "pending", attempts: attempt, lastStatus: attempt === 2 ? null : 500 });
      if (attempt === 2) expect(row!.lastError).toMatch(/no answer within 300 ms/);
      const delay = row!.nextAttemptAt.getTime() - clock.now().getTime();
      delays.push(delay);
      // Not before its time.
      clock.advance(delay - 1000);
      expect(await deliver()).toEqual({ delivered: 0, retry: 0, failed: 0 });
      clock.advance(1000);
    }
    receiver.release("drop");
    expect(delays).toEqual([30_000, 60_000, 120_000]);
    expect(await deliver()).toMatchObject({ delivered: 1 });
    expect(sent()).toBe(4);
    const [row] = await deliveriesOf(buyer.id);
    expect(row).toMatchObject({ status: "delivered", attempts: 4, lastStatus: 200 });
  });

  it("gives up after 24 hours (failed), and a resend by hand delivers it", async () => {
    const buyer = await registerUser(shop, { balance: 5000 });
    expect((await shop.call("POST", "/v2/web/user/purchase", { token: buyer.token, json: { product_id: PRODUCTS.cs2.days1.id } })).status).toBe(200);
    const start = clock.now().getTime();
    let attempts = 0;
    for (;;) {
      receiver.script(503);
      const outcome = await deliver();
      attempts++;
      const [row] = await deliveriesOf(buyer.id);
      if (outcome.failed === 1) {
        expect(row!.status).toBe("failed");
        break;
      }
      expect(row!.status).toBe("pending");
      clock.set(row!.nextAttemptAt);
      expect(attempts).toBeLessThan(60);
    }
    expect(clock.now().getTime() - start).toBeLessThanOrEqual(24 * 3600_000);
    expect(clock.now().getTime() - start).toBeGreaterThan(23 * 3600_000);
    // An operator's session lasts 12 h: the owner signs in again after the day (the buyer needs none).
    owner = { ...owner, token: await signInWithCode(shop, clock, owner, owner.secret) };
    const listed = await shop.call("GET", "/v2/admin/webhooks", { token: owner.token });
    const failed = (listed.body.webhooks[0].deliveries as { id: number; status: string; user_id: number; attempts: number; last_status: number }[]).find((d) => d.user_id === buyer.id)!;
    expect(failed).toMatchObject({ status: "failed", attempts, last_status: 503 });

    const resent = await shop.call("POST", `/v2/admin/webhooks/deliveries/${failed.id}/resend`, { token: owner.token, json: { reason: "receiver fixed" } });
    expect(resent.status, resent.text).toBe(200);
    expect((await auditEntries(shop, "webhook.resend"))[0]).toMatchObject({
      actorId: owner.id,
      targetId: String(failed.id),
      reason: "receiver fixed",
      before: { status: "failed" },
      after: { status: "pending" },
    });
    expect(await deliver()).toMatchObject({ delivered: 1 });
    expect((await deliveriesOf(buyer.id))[0]).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it("in order per user: a user's later events wait for the first, another user's do not", async () => {
    const first = await registerUser(shop, { balance: 5000 });
    const second = await registerUser(shop, { balance: 5000 });
    const buy = (user: User) => shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: PRODUCTS.minecraft.days1.id } });
    const freeze = (user: User, action: "freeze" | "unfreeze") => shop.call("POST", `/v2/web/user/subscriptions/${action}`, { token: user.token, json: { cheat_id: GAMES.minecraft.id } });
    expect((await buy(first)).status).toBe(200);
    expect((await buy(second)).status).toBe(200);
    expect((await freeze(first, "freeze")).status).toBe(200);
    expect((await freeze(first, "unfreeze")).status).toBe(200);
    const before = receiver.received.length;
    // The first user's first event fails: their next two wait; the second user's goes out.
    receiver.script(500);
    expect(await deliver()).toEqual({ delivered: 1, retry: 1, failed: 0 });
    expect(await deliver()).toEqual({ delivered: 0, retry: 0, failed: 0 });
    clock.advance(30_000);
    await drain();
    const states = receiver.received
      .slice(before)
      .filter((r) => r.json.data.user_id === first.id)
      .map((r) => r.json.data.state);
    expect(states).toEqual(["active", "active", "frozen", "active"]);
    const ids = receiver.received
      .slice(before)
      .filter((r) => r.json.data.user_id === first.id)
      .map((r) => r.json.id);
    expect(ids[0]).toBe(ids[1]); // the failed attempt and its retry: the same event
    expect((await deliveriesOf(first.id)).every((d) => d.status === "delivered")).toBe(true);
  });

  it("a refund and a suspension are told too, after the changes to the pass they made", async () => {
    const buyer = await registerUser(shop);
    const created = await shop.call("POST", "/v2/web/payment/paypal/order", { token: buyer.token, json: { product_id: PRODUCTS.cs2.days7.id } });
    shop.paypal.approve(created.body.order_id);
    expect((await shop.call("POST", "/v2/web/payment/paypal/capture", { token: buyer.token, json: { order_id: created.body.order_id } })).status).toBe(200);
    const order = shop.paypal.orders.get(created.body.order_id)!;
    const event = shop.paypal.webhookEvent("PAYMENT.CAPTURE.REFUNDED", order, { refundId: shop.paypal.refund(order.id) });
    expect((await shop.call("POST", "/v2/web/payment/paypal/webhook", { json: event, headers: shop.paypal.webhookHeaders(event) })).status).toBe(200);
    await shop.services.db.transaction((tx) => shop.services.suspensions.suspend(tx, buyer.id, "operator"));
    const before = receiver.received.length;
    await drain();
    const mine = receiver.received.slice(before).filter((r) => r.json.data.user_id === buyer.id);
    expect(mine.map((r) => r.json.type)).toEqual(["payment.completed", "subscription.updated", "subscription.updated", "payment.refunded", "user.suspended"]);
    expect(mine[2]!.json.data).toMatchObject({ state: "expired", remaining_seconds: 0 });
    expect(mine[3]!.json.data).toMatchObject({ order_id: created.body.order_id, kind: "refund", amount: PRODUCTS.cs2.days7.price, refunded_total: PRODUCTS.cs2.days7.price, status: "refunded" });
    expect(mine[4]!.json.data).toMatchObject({ reason: "operator" });
  });

  it("an endpoint removed takes its queue with it", async () => {
    const other = await shop.call("POST", "/v2/admin/webhooks", { token: owner.token, json: { url: receiver.url, events: ["user.suspended"] } });
    expect(other.status).toBe(200);
    const removed = await shop.call("DELETE", `/v2/admin/webhooks/${other.body.webhook.id}`, { token: owner.token });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.webhooks.map((w: { id: number }) => w.id)).toEqual([endpointId]);
    expect((await auditEntries(shop, "webhook.remove"))[0]).toMatchObject({
      actorId: owner.id,
      targetId: String(other.body.webhook.id),
      reason: "endpoint removed",
      before: { events: ["user.suspended"] },
    });
    expect((await shop.call("DELETE", `/v2/admin/webhooks/${other.body.webhook.id}`, { token: owner.token })).status).toBe(404);
  });
});

describe("an app restart mid-delivery", () => {
  // One database for both processes (on PGlite a folder, which outlives the first).
  let database: TestDatabase | undefined;
  let url = "";
  beforeAll(async () => {
    database = await createTestDatabase();
    url = database.url;
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("loses nothing: the delivery a dead process was sending is sent again by the next one", async () => {
    const restartClock = manualClock(new Date("2026-09-01T10:00:00.000Z"));
    const env = { WEBHOOK_TIMEOUT_MS: "2000" };
    const first = await startTestApp({ clock: restartClock, pages: false, env, databaseUrl: () => url });
    const { services } = first;
    await services.webhooks.create({ url: receiver.url, events: ["subscription.updated"] }, { actorId: null, ip: null, reason: "test" });
    const [user] = await services.db
      .insert(users)
      .values({ email: `restart-${Date.now()}@example.com`, passwordHash: "x", referralCode: `R${Date.now()}` })
      .returning({ id: users.id });
    await services.db.transaction((tx) => services.subscriptions.grantDays(tx, user!.id, GAMES.dota2.id, 30));
    const kid = (await services.client.publicKey()).kid;

    // The attempt reaches the receiver, which does not answer; then the process dies.
    const before = receiver.received.length;
    receiver.script("hang");
    const attempt = services.webhooks.deliverDue().catch((error: unknown) => error);
    await receiver.waitFor(before + 1);
    const eventId = receiver.received[before]!.json.id;
    await services.database.close();
    receiver.release("drop");
    expect(await attempt).toBeInstanceOf(Error);
    await first.stop().catch(() => {});

    // Another process on the same database: the lease keeps it off at first, then it delivers.
    const second = await startTestApp({ clock: restartClock, pages: false, env, databaseUrl: () => url });
    try {
      expect((await second.services.client.publicKey()).kid).toBe(kid);
      expect(await second.services.webhooks.deliverDue()).toEqual({ delivered: 0, retry: 0, failed: 0 });
      restartClock.advance(2000 + 60_000);
      expect(await second.services.webhooks.deliverDue()).toMatchObject({ delivered: 1 });
      const again = receiver.received.slice(before + 1);
      expect(again.map((r) => r.json.id)).toEqual([eventId]);
      const [row] = await second.services.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId));
      expect(row).toMatchObject({ status: "delivered", attempts: 2 });
    } finally {
      await second.stop();
    }
  });
});
