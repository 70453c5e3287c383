// Money and time under concurrency, through the HTTP API: parallel purchases never overdraw, a mix
// of purchases, gifts and top-ups keeps every balance equal to the sum of its ledger, and parallel
// freezes or unfreezes of one subscription act once; payments, referral rewards and refunds meet
// purchases and gifts without a deadlock. (On PGlite the same requests run serialised.)
import { describe, expect, it } from "vitest";
import { systemClock } from "../../core/shared/clock.ts";
import { runJobsOnce } from "../../server/jobs.ts";
import { GAMES, PRODUCTS, balanceOf, expectConsistentLedger, owedOf, registerUser, rowsOf, subscriptionOf, subscriptionsOf, topUp, useShop, type Reply, type User } from "../kit/shop.ts";

// No PayPal timeouts are tested here: a generous one keeps a busy machine from failing a call
// (a capture, a webhook's certificate) while twenty requests share the event loop.
// Referral rewards are released by the first job run (no hold), so the job meets refunds and gifts.
const shop = useShop({ paypal: true, clock: systemClock, env: { PAYPAL_TIMEOUT_MS: "8000", REFERRAL_HOLD_DAYS: "0" } });

const DAY_MS = 86_400_000;

function purchase(user: User, productId: number): Promise<Reply> {
  return shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: productId } });
}

function freezeCall(user: User, action: "freeze" | "unfreeze", cheatId: number = GAMES.dota2.id): Promise<Reply> {
  return shop.call("POST", `/v2/web/user/subscriptions/${action}`, { token: user.token, json: { cheat_id: cheatId } });
}

describe("parallel spending", () => {
  it("20 parallel purchases on a balance covering exactly 3 → 3 succeed, 17 are refused, nothing overdrawn", async () => {
    const buyer = await registerUser(shop, { balance: 3 * 799 });
    const started = Date.now();
    const replies = await Promise.all(Array.from({ length: 20 }, () => purchase(buyer, PRODUCTS.dota2.days7.id)));
    const ok = replies.filter((r) => r.status === 200);
    const refused = replies.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(17);
    for (const reply of refused) {
      expect(reply.status).toBe(409);
      expect(reply.body).toMatchObject({ status: false, code: "insufficient_balance" });
    }
    expect(ok.map((r) => r.body.balance).sort((a, b) => a - b)).toEqual([0, 799, 1598]);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(0);
    expect((await rowsOf(shop, buyer.id)).filter((r) => r.type === "purchase")).toHaveLength(3);
    // Exactly three times seven days.
    const end = new Date(subscriptionOf(await subscriptionsOf(shop, buyer.token), GAMES.dota2.id)!.expires_at).getTime();
    expect(end).toBeGreaterThanOrEqual(started + 21 * DAY_MS);
    expect(end).toBeLessThanOrEqual(Date.now() + 21 * DAY_MS);
  });

  it("200 mixed parallel purchases, gifts and top-ups keep every balance equal to its ledger and never below zero", async () => {
    const alice = await registerUser(shop, { tag: "alice", balance: 3000 });
    const bob = await registerUser(shop, { tag: "bob", balance: 1000 });
    type Op = { kind: "purchase" | "gift" | "topup"; user: User };
    const ops: Op[] = Array.from({ length: 200 }, (_, i) => {
      switch (i % 5) {
        case 0:
          return { kind: "purchase", user: alice };
        case 1:
          return { kind: "gift", user: alice };
        case 2:
          return { kind: "purchase", user: bob };
        case 3:
          return { kind: "gift", user: bob };
        default:
          return { kind: "topup", user: i % 2 ? alice : bob };
      }
    });
    const started = Date.now();
    const results = await Promise.all(
      ops.map(async (op) => {
        if (op.kind === "topup") {
          await topUp(shop, op.user.id, 150);
          return { op, status: 200 };
        }
        const reply =
          op.kind === "purchase"
            ? await purchase(op.user, PRODUCTS.minecraft.days1.id) // minecraft, 1 day, 199
            : await shop.call("POST", "/v2/web/user/gift", {
                token: op.user.token,
                json: { product_id: PRODUCTS.cs2.days1.id, recipient: op.user === alice ? bob.email : alice.username }, // cs2, 1 day, 199
              });
        if (reply.status !== 200) expect(reply.body.code, reply.text).toBe("insufficient_balance");
        return { op, status: reply.status };
      }),
    );
    const succeeded = (kind: Op["kind"], user: User) => results.filter((r) => r.op.kind === kind && r.op.user === user && r.status === 200).length;
    // Both balances ran dry at some point: the guard really was exercised.
    expect(results.some((r) => r.status === 409)).toBe(true);

    for (const user of [alice, bob]) {
      const balance = await expectConsistentLedger(shop, user.id);
      const rows = await rowsOf(shop, user.id);
      expect(rows.filter((r) => r.type === "purchase")).toHaveLength(succeeded("purchase", user));
      expect(rows.filter((r) => r.type === "gift")).toHaveLength(succeeded("gift", user));
      const initial = user === alice ? 3000 : 1000;
      expect(balance).toBe(initial + 150 * succeeded("topup", user) - 199 * (succeeded("purchase", user) + succeeded("gift", user)));
    }
    // Days: own purchases (minecraft) and gifts received (cs2), each exactly once.
    const finished = Date.now();
    for (const [user, giver] of [
      [alice, bob],
      [bob, alice],
    ] as const) {
      const subs = await subscriptionsOf(shop, user.token);
      const expectDays = async (cheatId: number, days: number) => {
        const sub = subscriptionOf(subs, cheatId);
        if (days === 0) return expect(sub).toBeUndefined();
        const end = new Date(sub!.expires_at).getTime();
        expect(end).toBeGreaterThanOrEqual(started + days * DAY_MS);
        expect(end).toBeLessThanOrEqual(finished + days * DAY_MS);
      };
      await expectDays(GAMES.minecraft.id, succeeded("purchase", user));
      await expectDays(GAMES.cs2.id, succeeded("gift", giver));
    }
  });
});

describe("parallel freezes and unfreezes of one subscription", () => {
  it("10 parallel freezes → exactly one; 50 parallel unfreezes → expires_at extended exactly once", async () => {
    const user = await registerUser(shop, { balance: 1999 });
    expect((await purchase(user, PRODUCTS.dota2.days30.id)).status).toBe(200);

    const freezes = await Promise.all(Array.from({ length: 10 }, () => freezeCall(user, "freeze")));
    expect(freezes.filter((r) => r.status === 200)).toHaveLength(1);
    for (const reply of freezes.filter((r) => r.status !== 200)) {
      expect(reply.status).toBe(409);
      expect(reply.body).toMatchObject({ code: "freeze_not_allowed", message: "The subscription is already frozen." });
    }
    const frozen = subscriptionOf(await subscriptionsOf(shop, user.token), GAMES.dota2.id)!;
    expect(frozen.state).toBe("frozen");
    expect(frozen.frozen_length).toBeGreaterThan(30 * 86_400 - 60);
    expect(frozen.frozen_length).toBeLessThanOrEqual(30 * 86_400);

    const before = Date.now();
    const unfreezes = await Promise.all(Array.from({ length: 50 }, () => freezeCall(user, "unfreeze")));
    const after = Date.now();
    expect(unfreezes.filter((r) => r.status === 200)).toHaveLength(1);
    for (const reply of unfreezes.filter((r) => r.status !== 200)) {
      expect(reply.status).toBe(409);
      expect(reply.body.message).toBe("The subscription is not frozen.");
    }
    const running = subscriptionOf(await subscriptionsOf(shop, user.token), GAMES.dota2.id)!;
    expect(running.state).toBe("active");
    expect(running.frozen_length).toBe(0);
    // expires_at = the unfreeze's moment + the time the freeze kept: extended once, not 50 times.
    const unfrozenAt = new Date(running.unfrozen_date!).getTime();
    expect(unfrozenAt).toBeGreaterThanOrEqual(before - 1000);
    expect(unfrozenAt).toBeLessThanOrEqual(after + 1000);
    expect(new Date(running.expires_at).getTime()).toBe(unfrozenAt + frozen.frozen_length * 1000);
    const stats = await shop.call("GET", `/v2/web/user/statistics?cheat_id=${GAMES.dota2.id}`, { token: user.token });
    expect(stats.body.statistics.freezes).toBe(1);
    expect(await balanceOf(shop, user.id)).toBe(0);
  });
});

describe("payments alongside spending", () => {
  async function capturedOrders(user: User, productId: number, n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const reply = await shop.call("POST", "/v2/web/payment/paypal/order", { token: user.token, json: { product_id: productId } });
      expect(reply.status, reply.text).toBe(200);
      shop.paypal.approve(reply.body.order_id);
      ids.push(reply.body.order_id);
    }
    return ids;
  }

  it("a referred buyer's captures, refunds and the reward job in parallel with the referrer's gifts to them: all succeed, each once", async () => {
    const referrer = await registerUser(shop, { tag: "ref", balance: 20 * 199 });
    const code = (await shop.call("GET", "/v2/web/user/referral", { token: referrer.token })).body.referral.code as string;
    const buyer = await registerUser(shop, { referrer: code });
    const orders = await capturedOrders(buyer, 1, PRODUCTS.cs2.days90.id);
    const started = Date.now();
    const replies = await Promise.all([
      ...orders.map((id) => shop.call("POST", "/v2/web/payment/paypal/capture", { token: buyer.token, json: { order_id: id } })),
      ...orders.map(() => shop.call("POST", "/v2/web/user/gift", { token: referrer.token, json: { product_id: PRODUCTS.dota2.days1.id, recipient: buyer.email } })),
    ]);
    for (const reply of replies) expect(reply.status, reply.text).toBe(200);
    // 12 gifts paid; the 12 rewards of 10 % of 199 (19) are held, not credited yet (docs/product/money.md#referrals).
    expect(await expectConsistentLedger(shop, referrer.id)).toBe(20 * 199 - 12 * 199);
    expect((await rowsOf(shop, buyer.id)).filter((r) => r.type === "purchase")).toHaveLength(12);
    const end = new Date(subscriptionOf(await subscriptionsOf(shop, buyer.token), GAMES.dota2.id)!.expires_at).getTime();
    expect(end).toBeGreaterThanOrEqual(started + 24 * DAY_MS);
    expect(end).toBeLessThanOrEqual(Date.now() + 24 * DAY_MS);

    // Half the payments are refunded while the job releases the rewards and the referrer gives more:
    // a reward is cancelled before its release or reversed after it, never both, never neither.
    for (const id of orders.slice(0, 6)) shop.paypal.refund(id);
    const more = await Promise.all([
      runJobsOnce(shop.services).then(() => ({ status: 200, text: "job" })),
      ...orders.slice(0, 6).map((id) => {
        const event = shop.paypal.webhookEvent("PAYMENT.CAPTURE.REFUNDED", id);
        return shop.call("POST", "/v2/web/payment/paypal/webhook", { json: event, headers: shop.paypal.webhookHeaders(event) });
      }),
      ...orders.slice(0, 4).map(() => shop.call("POST", "/v2/web/user/gift", { token: referrer.token, json: { product_id: PRODUCTS.dota2.days1.id, recipient: buyer.email } })),
    ]);
    for (const reply of more) expect(reply.status, reply.text).toBe(200);
    await runJobsOnce(shop.services);
    expect(await expectConsistentLedger(shop, referrer.id)).toBe(20 * 199 - 16 * 199 + 6 * 19);
    expect(await owedOf(shop, referrer.id)).toBe(0);
    const summary = await shop.call("GET", "/v2/web/user/referral", { token: referrer.token });
    expect(summary.body.referral.earned).toBe(6 * 19);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(0);
    // 24 days, less 6 refunded, plus 4 more given.
    const after = new Date(subscriptionOf(await subscriptionsOf(shop, buyer.token), GAMES.dota2.id)!.expires_at).getTime();
    expect(after).toBeGreaterThanOrEqual(started + 22 * DAY_MS);
    expect(after).toBeLessThanOrEqual(Date.now() + 22 * DAY_MS);
  });

  it("product refunds in parallel with purchases of the same subscription: all succeed, days exact", async () => {
    const buyer = await registerUser(shop, { balance: 10 * 199 });
    const orders = await capturedOrders(buyer, 2, PRODUCTS.cs2.days7.id);
    for (const id of orders) {
      expect((await shop.call("POST", "/v2/web/payment/paypal/capture", { token: buyer.token, json: { order_id: id } })).status).toBe(200);
      shop.paypal.refund(id);
    }
    const started = Date.now();
    const replies = await Promise.all([
      ...orders.map((id) => {
        const event = shop.paypal.webhookEvent("PAYMENT.CAPTURE.REFUNDED", id);
        return shop.call("POST", "/v2/web/payment/paypal/webhook", { json: event, headers: shop.paypal.webhookHeaders(event) });
      }),
      ...orders.map(() => purchase(buyer, PRODUCTS.dota2.days1.id)),
    ]);
    for (const reply of replies) expect(reply.status, reply.text).toBe(200);
    expect(await expectConsistentLedger(shop, buyer.id)).toBe(0);
    expect((await rowsOf(shop, buyer.id)).filter((r) => r.type === "refund")).toHaveLength(10);
    // 70 days paid by PayPal and refunded, 10 bought from the balance: 10 days are left.
    const end = new Date(subscriptionOf(await subscriptionsOf(shop, buyer.token), GAMES.dota2.id)!.expires_at).getTime();
    // (A refund that meets the end removes whole seconds only: up to a second may stay.)
    expect(end).toBeGreaterThanOrEqual(started + 10 * DAY_MS - 60_000);
    expect(end).toBeLessThanOrEqual(Date.now() + 10 * DAY_MS + 1000);
  });
});
