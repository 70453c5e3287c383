// The dashboard (docs/product/back-office.md#dashboard, issue 10 point 2): `GET /v2/admin/stats`
// answers guests 401, buyers 403 and every operator; per day of the period in the shop's time
// zone (SHOP_TIME_ZONE): revenue net of refunds, payments, new buyers, passes held and frozen, per
// game from the daily snapshot job; today live.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { manualClock } from "../../core/shared/clock.ts";
import { runJobsOnce } from "../../server/jobs.ts";
import { GAMES, PRODUCTS, registerUser, useShop } from "../kit/shop.ts";
import { payByPayPal, signInWithCode, useStaff } from "./admin-kit.ts";

// 22:30 UTC on 1 March is already 2 March in Moscow (UTC+3).
const clock = manualClock(new Date("2026-03-01T22:30:00.000Z"));
const shop = useShop({ clock, paypal: true, env: { SHOP_TIME_ZONE: "Europe/Moscow" } });

const { owner, support, buyer } = useStaff(shop, clock);

const stats = (token: string | undefined, q: string) => shop.call("GET", `/v2/admin/stats${q}`, { token });

describe("the dashboard's figures", () => {
  it("answers guests 401 and buyers 403; support reads it", async () => {
    expect((await stats(undefined, "")).status).toBe(401);
    expect((await stats(buyer.token, "")).status).toBe(403);
    const reply = await stats(support.token, "");
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.days).toHaveLength(30);
    expect(reply.body.time_zone).toBe("Europe/Moscow");
    expect(reply.body.to).toBe("2026-03-02");
  });

  it("counts payments, revenue net of refunds, new buyers and passes per day in the shop's time zone, from the snapshots", async () => {
    // Day 1 (2 March, Moscow): a payment of 50.00 and a pass bought with it; the jobs take the snapshot.
    // Passes held before (the development data's demo user holds one).
    const base = (await stats(owner.token, "?from=2026-03-02&to=2026-03-02")).body.days[0].active_subscriptions as number;
    const { paymentId } = await payByPayPal(shop, buyer, { amount: 5000 });
    expect((await shop.call("POST", "/v2/web/user/purchase", { token: buyer.token, json: { product_id: PRODUCTS.dota2.days30.id } })).status).toBe(200);
    await runJobsOnce(shop.services);
    // Day 2: 20.00 of the payment refunded; a second buyer; a frozen pass.
    clock.advance(86_400_000);
    // An operator session lasts 12 hours: the owner signs in again on the next day.
    owner.token = await signInWithCode(shop, clock, owner, owner.secret);
    const refund = await shop.call("POST", `/v2/admin/payments/${paymentId}/refund`, { token: owner.token, json: { amount: 2000, reason: "asked", code: owner.code() } });
    expect(refund.status, refund.text).toBe(200);
    const second = await registerUser(shop, { tag: "second", balance: 5000 });
    expect((await shop.call("POST", "/v2/web/user/purchase", { token: second.token, json: { product_id: PRODUCTS.cs2.days7.id } })).status).toBe(200);
    await shop.services.db.execute(sql`update subscriptions set frozen_length = 3600, frozen_at = ${clock.now().toISOString()}::timestamptz where user_id = ${second.id}`);

    const reply = await stats(owner.token, "?from=2026-03-01&to=2026-03-03");
    expect(reply.status, reply.text).toBe(200);
    const [d0, d1, d2] = reply.body.days;
    expect(d0).toMatchObject({ date: "2026-03-01", payments: 0, revenue: 0, active_subscriptions: 0 });
    // The payment is on its Moscow day; a refund takes from the revenue of the payment's day.
    expect(d1).toMatchObject({ date: "2026-03-02", payments: 1, revenue: 3000, active_subscriptions: base + 1, frozen: 0 });
    expect(d1.new_users).toBeGreaterThanOrEqual(3);
    // Today is counted live: one pass more, and frozen.
    expect(d2).toMatchObject({ date: "2026-03-03", payments: 0, new_users: 1, active_subscriptions: base + 2, frozen: 1 });
    expect(reply.body.by_game).toContainEqual({ date: "2026-03-02", cheat_id: GAMES.dota2.id, held: base + 1, frozen: 0 });
    expect(reply.body.by_game).toContainEqual({ date: "2026-03-03", cheat_id: GAMES.cs2.id, held: 1, frozen: 1 });
    expect(reply.body.totals).toMatchObject({ payments: 1, revenue: 3000 });
    expect(reply.body.totals.new_users).toBe(d1.new_users + 1);
  });

  it("refuses a reversed or too long period and a malformed day, in the operator's language", async () => {
    const reversed = await shop.call("GET", "/v2/admin/stats?from=2026-03-05&to=2026-03-01", { token: owner.token, lang: "ru" });
    expect(reversed.status).toBe(400);
    expect(reversed.body.errors.from).toBe(shop.services.catalogs.t("ru")("validation.period"));
    expect((await stats(owner.token, "?from=2024-01-01&to=2026-03-01")).body.errors.to).toBe(shop.services.catalogs.t("en")("validation.period_long"));
    expect((await stats(owner.token, "?from=yesterday")).status).toBe(400);
  });
});
