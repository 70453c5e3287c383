// Freezing subscriptions on a manual clock: the remaining time kept to the second, the cooldown
// after an unfreeze, days bought while frozen, the automatic end after FREEZE_MAX_DAYS by the
// background jobs (however late they run), and the three-day expiry notice once per expiry.
import { describe, expect, it } from "vitest";
import { manualClock } from "../../core/shared/clock.ts";
import { runJobsOnce } from "../../server/jobs.ts";
import { GAMES, PRODUCTS, registerUser, signIn, subscriptionOf, subscriptionsOf, useShop, type Reply, type User } from "../kit/shop.ts";

const clock = manualClock(new Date("2026-03-01T10:00:00.000Z"));
const shop = useShop({ clock, smtp: true, env: { FREEZE_MAX_DAYS: "30", FREEZE_COOLDOWN_DAYS: "7" } });

const SECOND = 1000;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const now = () => clock.now().getTime();

function purchase(user: User, productId: number): Promise<Reply> {
  return shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: productId } });
}

function freezeCall(user: User, action: "freeze" | "unfreeze", cheatId: number = GAMES.dota2.id): Promise<Reply> {
  return shop.call("POST", `/v2/web/user/subscriptions/${action}`, { token: user.token, json: { cheat_id: cheatId } });
}

async function dota(user: User) {
  return subscriptionOf(await subscriptionsOf(shop, user.token), GAMES.dota2.id)!;
}

/** Moves the clock on; sessions live 336 h, so the user signs in again. */
async function advance(ms: number, ...users: User[]) {
  clock.advance(ms);
  for (const user of users) await signIn(shop, user);
}

async function notificationsOf(user: User, type: string) {
  const reply = await shop.call("GET", "/v2/web/user/notification", { token: user.token });
  expect(reply.status).toBe(200);
  return (reply.body.notifications as { type: string; content: string }[]).filter((n) => n.type === type);
}

describe("freeze and unfreeze", () => {
  it("keeps the remaining time to the second, never reads as expired while frozen, then waits out the cooldown", async () => {
    const user = await registerUser(shop, { balance: 1999 });
    const t0 = now();
    expect((await purchase(user, PRODUCTS.dota2.days30.id)).status).toBe(200);
    expect((await dota(user)).expires_at).toBe(iso(t0 + 30 * DAY));

    await advance(5 * DAY + 12_345, user);
    const frozenAt = now();
    const frozen = await freezeCall(user, "freeze");
    expect(frozen.status, frozen.text).toBe(200);
    const kept = 25 * 86_400 - 13; // 25 days less 12.345 s, to the whole second
    expect(subscriptionOf(frozen, GAMES.dota2.id)).toMatchObject({
      state: "frozen",
      frozen_length: kept,
      remaining_seconds: kept,
      frozen_at: iso(frozenAt),
      freeze_ends_at: iso(frozenAt + 30 * DAY),
      can_freeze: false,
      freeze_block: "frozen",
    });

    // Past the old expiry, still frozen and whole.
    await advance(29 * DAY, user);
    expect(now()).toBeGreaterThan(t0 + 30 * DAY);
    expect(await dota(user)).toMatchObject({ state: "frozen", frozen_length: kept, remaining_seconds: kept });

    const unfrozenAt = now();
    const unfrozen = await freezeCall(user, "unfreeze");
    expect(unfrozen.status, unfrozen.text).toBe(200);
    expect(subscriptionOf(unfrozen, GAMES.dota2.id)).toMatchObject({
      state: "active",
      expires_at: iso(unfrozenAt + kept * SECOND),
      frozen_length: 0,
      remaining_seconds: kept,
      unfrozen_date: iso(unfrozenAt),
      next_froze_date: iso(unfrozenAt + 7 * DAY),
      frozen_at: null,
      can_freeze: false,
      freeze_block: "cooldown",
    });

    // FREEZE_COOLDOWN_DAYS: refused until the cooldown has passed, to the second.
    const early = await freezeCall(user, "freeze");
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ status: false, code: "freeze_not_allowed", message: "The next freeze is possible after the waiting period." });
    await advance(7 * DAY - SECOND, user);
    expect((await freezeCall(user, "freeze")).status).toBe(409);
    clock.advance(SECOND);
    expect((await dota(user)).can_freeze).toBe(true);
    const again = await freezeCall(user, "freeze");
    expect(again.status, again.text).toBe(200);
    expect(subscriptionOf(again, GAMES.dota2.id)!.frozen_length).toBe(kept - 7 * 86_400);
    const stats = await shop.call("GET", `/v2/web/user/statistics?cheat_id=${GAMES.dota2.id}`, { token: user.token });
    expect(stats.body.statistics.freezes).toBe(2);
  });

  it("refuses to freeze what is missing or expired, and to unfreeze what is not frozen", async () => {
    const user = await registerUser(shop, { balance: 199 });
    const missing = await freezeCall(user, "freeze");
    expect(missing.status).toBe(409);
    expect(missing.body.message).toBe("You have no subscription for this game yet.");
    expect((await purchase(user, PRODUCTS.dota2.days1.id)).status).toBe(200);
    expect((await freezeCall(user, "unfreeze")).status).toBe(409);
    await advance(DAY, user);
    const expired = await freezeCall(user, "freeze");
    expect(expired.status).toBe(409);
    expect(expired.body.message).toBe("The subscription has expired.");
    expect((await dota(user)).state).toBe("expired");
    expect((await shop.call("POST", "/v2/web/user/subscriptions/freeze", { token: user.token, json: { cheat_id: "1" } })).status).toBe(400);
  });

  it("days bought or given while frozen add to the frozen time", async () => {
    const user = await registerUser(shop, { balance: 799 + 1999 });
    const giver = await registerUser(shop, { tag: "giver", balance: 199 });
    expect((await purchase(user, PRODUCTS.dota2.days7.id)).status).toBe(200);
    await advance(3600 * SECOND);
    const frozen = await freezeCall(user, "freeze");
    expect(frozen.status).toBe(200);
    const before = subscriptionOf(frozen, GAMES.dota2.id)!;
    expect(before.frozen_length).toBe(7 * 86_400 - 3600);

    const bought = await purchase(user, PRODUCTS.dota2.days30.id);
    expect(bought.status, bought.text).toBe(200);
    expect(subscriptionOf(bought, GAMES.dota2.id)).toMatchObject({ state: "frozen", frozen_length: before.frozen_length + 30 * 86_400, expires_at: before.expires_at });
    const given = await shop.call("POST", "/v2/web/user/gift", { token: giver.token, json: { product_id: PRODUCTS.dota2.days1.id, recipient: user.email } });
    expect(given.status, given.text).toBe(200);
    const total = before.frozen_length + 31 * 86_400;
    expect(await dota(user)).toMatchObject({ state: "frozen", frozen_length: total });

    await advance(2 * DAY, user);
    const unfrozen = await freezeCall(user, "unfreeze");
    expect(subscriptionOf(unfrozen, GAMES.dota2.id)!.expires_at).toBe(iso(now() + total * SECOND));
  });
});

describe("background jobs", () => {
  it("end a freeze after FREEZE_MAX_DAYS as of its scheduled end, even when they run days late", async () => {
    const user = await registerUser(shop, { balance: 1999 });
    expect((await purchase(user, PRODUCTS.dota2.days30.id)).status).toBe(200);
    await advance(2 * DAY);
    const frozenAt = now();
    expect((await freezeCall(user, "freeze")).status).toBe(200);
    const kept = 28 * 86_400;

    await advance(30 * DAY - SECOND, user);
    await runJobsOnce(shop.services);
    expect(await dota(user)).toMatchObject({ state: "frozen", frozen_length: kept });

    await advance(3 * DAY + SECOND, user); // the jobs did not run for three days
    await runJobsOnce(shop.services);
    const end = frozenAt + 30 * DAY;
    const after = await dota(user);
    expect(after).toMatchObject({
      state: "active",
      frozen_length: 0,
      expires_at: iso(end + kept * SECOND),
      unfrozen_date: iso(end),
      next_froze_date: iso(end + 7 * DAY),
      freeze_block: "cooldown",
    });
    expect(after.remaining_seconds).toBe(kept - 3 * 86_400);
    expect(await notificationsOf(user, "freeze_ended")).toHaveLength(1);

    // Running again changes nothing and tells nobody twice.
    await runJobsOnce(shop.services);
    expect((await dota(user)).expires_at).toBe(after.expires_at);
    expect(await notificationsOf(user, "freeze_ended")).toHaveLength(1);
    expect((await freezeCall(user, "freeze")).status).toBe(409);
  });

  it("announce an expiry three days ahead once (notification and mail), and again for a new expiry after an extension", async () => {
    const user = await registerUser(shop, { balance: 2 * 799 });
    expect((await purchase(user, PRODUCTS.dota2.days7.id)).status).toBe(200);
    const expiry = new Date((await dota(user)).expires_at).getTime();
    const mails = () => shop.smtp.messages.filter((m) => m.envelope.to.includes(user.email) && m.subject === "Your Dota 2 subscription ends soon");

    await advance(expiry - 3 * DAY - SECOND - now());
    await runJobsOnce(shop.services);
    expect(await notificationsOf(user, "subscription_expiring")).toHaveLength(0);

    await advance(SECOND);
    await runJobsOnce(shop.services);
    await runJobsOnce(shop.services);
    await advance(DAY, user);
    await runJobsOnce(shop.services);
    const notices = await notificationsOf(user, "subscription_expiring");
    expect(notices).toHaveLength(1);
    expect(notices[0]!.content).toBe("Your Dota 2 subscription ends in less than three days.");
    expect(mails()).toHaveLength(1);
    expect(mails()[0]!.text).toContain("Dota 2");

    // Seven more days: the new expiry is far, so nothing yet; then it comes near, and is announced once.
    expect((await purchase(user, PRODUCTS.dota2.days7.id)).status).toBe(200);
    const extended = new Date((await dota(user)).expires_at).getTime();
    expect(extended).toBe(expiry + 7 * DAY);
    await runJobsOnce(shop.services);
    expect(await notificationsOf(user, "subscription_expiring")).toHaveLength(1);
    await advance(extended - 2 * DAY - now(), user);
    await runJobsOnce(shop.services);
    await runJobsOnce(shop.services);
    expect(await notificationsOf(user, "subscription_expiring")).toHaveLength(2);
    expect(mails()).toHaveLength(2);
  });
});
