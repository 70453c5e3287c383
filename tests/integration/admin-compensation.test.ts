// Bulk compensation (docs/product/back-office.md#compensation, issue 10 point 6): N days to every
// pass of a game held when the call started — active ones from their end, frozen ones in their
// freeze — never an expired pass, another game's or an operator's; a notification and a mail to each
// buyer in their language; one audit entry with the count. Idempotent by Idempotency-Key: a replay
// answers the first result before any step-up check; a call that died part-way resumes on replay and
// extends each pass once; a purchase made meanwhile is neither lost nor counted twice. (10,000
// passes on PostgreSQL: tests/postgres/admin-compensation-bench.test.ts.)
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { compensationItems, compensations, mailOutbox, notifications, subscriptions } from "../../db/schema/index.ts";
import { manualClock } from "../../core/shared/clock.ts";
import { GAMES, PRODUCTS, registerUser, subscriptionOf, subscriptionsOf, topUp, useShop, type Reply, type User } from "../kit/shop.ts";
import { auditEntries, makeOperator, type Operator } from "./admin-kit.ts";

const DAY = 86_400_000;
const clock = manualClock(new Date("2026-08-01T00:00:00.000Z"));
// Batches of three passes, so that a handful of buyers spans several transactions.
const shop = useShop({ clock, env: { COMPENSATION_BATCH: "3" } });

let owner: Operator;

beforeAll(async () => {
  owner = await makeOperator(shop, clock, "owner");
});

function compensate(body: Record<string, unknown>, key?: string): Promise<Reply> {
  return shop.call("POST", "/v2/admin/compensation", { token: owner.token, json: { reason: "servers down after the patch", ...body }, headers: key ? { "idempotency-key": key } : {} });
}

/** A buyer holding a pass of the game: bought from the balance (and frozen, when asked). */
async function holder(game: keyof typeof GAMES, options: { lang?: string; frozen?: boolean } = {}): Promise<User> {
  const buyer = await registerUser(shop, { balance: 10_000, lang: options.lang });
  const bought = await shop.call("POST", "/v2/web/user/purchase", { token: buyer.token, json: { product_id: PRODUCTS[game].days30.id } });
  expect(bought.status, bought.text).toBe(200);
  if (options.frozen) expect((await shop.call("POST", "/v2/web/user/subscriptions/freeze", { token: buyer.token, json: { cheat_id: GAMES[game].id } })).status).toBe(200);
  return buyer;
}

async function pass(user: User, cheatId: number) {
  const [row] = await shop.services.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, user.id), eq(subscriptions.cheatId, cheatId)));
  return row!;
}

async function notificationsOf(user: User) {
  return shop.services.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, user.id), eq(notifications.type, "days_granted")));
}

describe("a compensation", () => {
  it("extends every pass of the game held now, once, tells each buyer in their language, and is one audit entry with the count", async () => {
    const active = await holder("cs2", { lang: "en" });
    const frozen = await holder("cs2", { lang: "ru", frozen: true });
    const spanish = await holder("cs2", { lang: "es" });
    const suspended = await holder("cs2", { lang: "pt" });
    const expired = await holder("cs2");
    const otherGame = await holder("minecraft");
    const colleague = await makeOperator(shop, clock, "support");
    await topUp(shop, colleague.id, 1000);
    expect((await shop.call("POST", "/v2/web/user/purchase", { token: colleague.token, json: { product_id: PRODUCTS.cs2.days7.id } })).status).toBe(200);
    await shop.services.db
      .update(subscriptions)
      .set({ expiresAt: new Date(clock.now().getTime() - DAY) })
      .where(eq(subscriptions.userId, expired.id));
    expect((await shop.call("POST", `/v2/admin/users/${suspended.id}/suspend`, { token: owner.token, json: { reason: "fraud check" } })).status).toBe(200);
    const before = new Map<number, Awaited<ReturnType<typeof pass>>>();
    for (const user of [active, frozen, spanish, suspended, expired, colleague]) before.set(user.id, await pass(user, GAMES.cs2.id));
    const minecraftBefore = await pass(otherGame, GAMES.minecraft.id);

    const reply = await compensate({ cheat_id: GAMES.cs2.id, days: 2, code: owner.code() }, "cs2-patch-1");
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.affected).toBe(4);
    expect(reply.body.compensation).toMatchObject({ cheat_id: GAMES.cs2.id, days: 2 });

    for (const user of [active, spanish, suspended]) {
      expect((await pass(user, GAMES.cs2.id)).expiresAt.getTime() - before.get(user.id)!.expiresAt.getTime()).toBe(2 * DAY);
    }
    const frozenAfter = await pass(frozen, GAMES.cs2.id);
    expect(frozenAfter.frozenLength - before.get(frozen.id)!.frozenLength).toBe(2 * 86_400);
    expect(frozenAfter.expiresAt).toEqual(before.get(frozen.id)!.expiresAt);
    expect(await pass(expired, GAMES.cs2.id)).toEqual(before.get(expired.id));
    expect(await pass(colleague, GAMES.cs2.id)).toEqual(before.get(colleague.id));
    expect(await pass(otherGame, GAMES.minecraft.id)).toEqual(minecraftBefore);

    const notice = await shop.call("GET", "/v2/web/user/notification", { token: frozen.token, lang: "ru" });
    expect(notice.body.notifications[0]).toMatchObject({ type: "days_granted", content: "К вашей подписке на Counter-Strike 2 добавлено 2 дня." });
    for (const user of [active, frozen, spanish, suspended]) expect(await notificationsOf(user)).toHaveLength(1);
    expect(await notificationsOf(expired)).toHaveLength(0);

    // The mails follow the answer, one per buyer, in the buyer's language.
    await shop.services.background.drain();
    const mails = await shop.services.db.select().from(mailOutbox).where(eq(mailOutbox.template, "days_granted"));
    const byAddress = new Map(mails.map((m) => [m.to, m]));
    expect(mails).toHaveLength(4);
    expect(byAddress.get(frozen.email)).toMatchObject({ locale: "ru", subject: "Дни добавлены к вашей подписке на Counter-Strike 2" });
    expect(byAddress.get(spanish.email)).toMatchObject({ locale: "es", subject: "Días añadidos a tu suscripción de Counter-Strike 2" });
    expect(byAddress.get(active.email)!.text).toContain("We have added 2 days to your Counter-Strike 2 subscription, free of charge.");
    expect(byAddress.has(expired.email)).toBe(false);

    const [entry] = await auditEntries(shop, "compensation.run", 1);
    expect(entry).toMatchObject({ actorId: owner.id, targetType: "compensation", reason: "servers down after the patch", after: { cheat_id: GAMES.cs2.id, days: 2, passes: 4 } });

    // A replay with the key: the first answer, before any step-up check, and nothing changes.
    clock.advance(10 * 60_000);
    const replay = await compensate({ cheat_id: GAMES.cs2.id, days: 2 }, "cs2-patch-1");
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(reply.body);
    expect((await pass(active, GAMES.cs2.id)).expiresAt.getTime() - before.get(active.id)!.expiresAt.getTime()).toBe(2 * DAY);
    for (const user of [active, frozen]) expect(await notificationsOf(user)).toHaveLength(1);
    await shop.services.background.drain();
    expect(await shop.services.db.select().from(mailOutbox).where(eq(mailOutbox.template, "days_granted"))).toHaveLength(4);
    expect(await auditEntries(shop, "compensation.run")).toHaveLength(1);
  });

  it("needs an Idempotency-Key, and the same key with another body is a conflict", async () => {
    const none = await compensate({ cheat_id: GAMES.cs2.id, days: 1, code: owner.code() });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe("This request needs an Idempotency-Key header.");
    const other = await compensate({ cheat_id: GAMES.cs2.id, days: 3, code: owner.code() }, "cs2-patch-1");
    expect(other.status).toBe(409);
    expect(other.body.code).toBe("idempotency_mismatch");
    expect((await compensate({ cheat_id: 999, days: 1, code: owner.code() }, "no-such-game")).status).toBe(404);
    expect((await compensate({ cheat_id: GAMES.cs2.id, days: 366, code: owner.code() }, "too-long")).status).toBe(400);
  });
});

describe("a compensation that died part-way", () => {
  it("resumes on replay: each pass of the set fixed at the start extended once, a pass bought since not at all, a purchase meanwhile kept", async () => {
    const buyers: User[] = [];
    for (let i = 0; i < 7; i++) buyers.push(await holder("dota2", { lang: i % 2 ? "hi" : "id" }));
    const before = await Promise.all(buyers.map((b) => pass(b, GAMES.dota2.id)));
    // The third batch fails (its UPDATE hits a pass the trigger refuses): the first two are done.
    const victim = [...before].sort((a, b) => a.id - b.id)[6]!;
    await shop.services.db.execute(
      sql.raw(`create function refuse_one() returns trigger language plpgsql as $$ begin if new.id = ${victim.id} then raise exception 'disk full'; end if; return new; end $$`),
    );
    await shop.services.db.execute(sql.raw("create trigger refuse_one before update on subscriptions for each row execute function refuse_one()"));
    const died = await compensate({ cheat_id: GAMES.dota2.id, days: 5, code: owner.code() }, "dota-outage");
    expect(died.status).toBe(500);
    expect(died.text).not.toMatch(/disk full|stack/);
    const [started] = await shop.services.db.select().from(compensations).where(eq(compensations.idempotencyKey, "dota-outage"));
    // The set also holds whoever else had a dota2 pass (the demo user); batches go by pass id, three at a time.
    const fixed = (await shop.services.db.select().from(compensationItems).where(eq(compensationItems.compensationId, started!.id))).sort((a, b) => a.subscriptionId - b.subscriptionId);
    const failedBatch = Math.floor(fixed.findIndex((item) => item.subscriptionId === victim.id) / 3);
    expect(fixed.filter((item) => item.appliedAt !== null)).toHaveLength(failedBatch * 3);
    expect(failedBatch).toBeGreaterThanOrEqual(1);
    expect(started!.finishedAt).toBeNull();
    await shop.services.db.execute(sql.raw("drop trigger refuse_one on subscriptions"));
    await shop.services.db.execute(sql.raw("drop function refuse_one"));

    // Meanwhile: a newcomer buys a pass (not in the set), and a buyer of the set buys 7 days more.
    const newcomer = await holder("dota2");
    const newcomerBefore = await pass(newcomer, GAMES.dota2.id);
    const [resumed, bought] = await Promise.all([
      compensate({ cheat_id: GAMES.dota2.id, days: 5 }, "dota-outage"),
      shop.call("POST", "/v2/web/user/purchase", { token: buyers[6]!.token, json: { product_id: PRODUCTS.dota2.days7.id } }),
    ]);
    expect(resumed.status, resumed.text).toBe(200);
    expect(bought.status, bought.text).toBe(200);
    const set = await shop.services.db.select().from(compensationItems).where(eq(compensationItems.compensationId, started!.id));
    expect(set).toHaveLength(fixed.length);
    expect(resumed.body.affected).toBe(fixed.length);
    expect(set.every((item) => item.appliedAt !== null)).toBe(true);
    const ours = new Set(buyers.map((b) => b.id));
    for (const [i, buyer] of buyers.entries()) {
      const after = await pass(buyer, GAMES.dota2.id);
      const extra = i === 6 ? 7 * DAY : 0;
      expect(after.expiresAt.getTime() - before[i]!.expiresAt.getTime(), `buyer ${i}`).toBe(5 * DAY + extra);
      expect(await notificationsOf(buyer)).toHaveLength(1);
    }
    expect(set.filter((item) => ours.has(item.userId))).toHaveLength(7);
    expect(await pass(newcomer, GAMES.dota2.id)).toEqual(newcomerBefore);
    expect(await notificationsOf(newcomer)).toHaveLength(0);
    const buyer6 = subscriptionOf(await subscriptionsOf(shop, buyers[6]!.token), GAMES.dota2.id)!;
    expect(buyer6.state).toBe("active");
    await shop.services.background.drain();
    for (const buyer of buyers) {
      const mails = await shop.services.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.to, buyer.email), eq(mailOutbox.template, "days_granted")));
      expect(mails, buyer.email).toHaveLength(1);
    }
  });
});
