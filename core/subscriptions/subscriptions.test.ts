// Subscriptions on an in-memory database and a manual clock: days granted to a missing, live,
// expired or frozen subscription; days revoked; freezes kept to the second and ended by the job as
// of their scheduled end; the expiry notice claimed once per expiry.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { openTestDatabase } from "../../tests/kit/database.ts";
import { users } from "../../db/schema/index.ts";
import { DEMO, seedCatalog } from "../../db/seed.ts";
import { manualClock } from "../shared/clock.ts";
import { createSubscriptions, isEntitled, type Subscriptions } from "./index.ts";

const DAY = 86_400_000;
const DOTA2 = DEMO.games.dota2.id;
const MINECRAFT = DEMO.games.minecraft.id;
const clock = manualClock(new Date("2026-05-01T00:00:00.000Z"));
let database: Database;
let subs: Subscriptions;
let serial = 0;

beforeAll(async () => {
  database = await openTestDatabase();
  await seedCatalog(database.db, "USD");
  subs = createSubscriptions({ db: database.db, clock, freezeMaxDays: 30, freezeCooldownDays: 7 });
});
afterAll(async () => {
  await database.close();
});

async function newUser(): Promise<number> {
  const n = ++serial;
  const [row] = await database.db
    .insert(users)
    .values({ email: `subs-${n}@example.com`, passwordHash: "x", referralCode: `SUBS${n}` })
    .returning({ id: users.id });
  return row!.id;
}

const grant = (userId: number, days: number, cheatId: number = DOTA2) => database.db.transaction((tx) => subs.grantDays(tx, userId, cheatId, days));
const revoke = (userId: number, days: number, cheatId: number = DOTA2) => database.db.transaction((tx) => subs.revokeSeconds(tx, userId, cheatId, days * 86_400));
const one = async (userId: number, cheatId: number = DOTA2) => (await subs.forCheat(userId, cheatId))!;
const now = () => clock.now().getTime();
const at = (ms: number) => new Date(ms);

describe("grantDays", () => {
  it("starts a missing subscription now, extends a live one, restarts an expired one", async () => {
    const userId = await newUser();
    const start = now();
    await grant(userId, 7);
    expect((await one(userId)).expiresAt).toEqual(at(start + 7 * DAY));
    clock.advance(DAY);
    await grant(userId, 30);
    expect((await one(userId)).expiresAt).toEqual(at(start + 37 * DAY));
    clock.advance(40 * DAY);
    expect((await one(userId)).state).toBe("expired");
    await grant(userId, 1);
    expect((await one(userId)).expiresAt).toEqual(at(now() + DAY));
    await expect(grant(userId, 0)).rejects.toMatchObject({ code: "validation_failed" });
  });

  it("adds to the frozen time of a frozen subscription", async () => {
    const userId = await newUser();
    await grant(userId, 10);
    clock.advance(3 * DAY);
    const [frozen] = await subs.freeze(userId, DOTA2);
    expect(frozen!.frozenLength).toBe(7 * 86_400);
    await grant(userId, 2);
    expect(await one(userId)).toMatchObject({ state: "frozen", frozenLength: 9 * 86_400, expiresAt: frozen!.expiresAt });
  });
});

describe("revokeSeconds", () => {
  it("takes time off the end, never before now; from a freeze, never below nothing", async () => {
    const userId = await newUser();
    await grant(userId, 10);
    expect(await revoke(userId, 3)).toBe(3 * 86_400);
    expect((await one(userId)).expiresAt).toEqual(at(now() + 7 * DAY));
    expect(await revoke(userId, 30)).toBe(7 * 86_400);
    expect((await one(userId)).expiresAt).toEqual(at(now()));
    expect(await revoke(await newUser(), 1)).toBe(0);

    const frozenUser = await newUser();
    await grant(frozenUser, 10);
    await subs.freeze(frozenUser, DOTA2);
    expect(await revoke(frozenUser, 4)).toBe(4 * 86_400);
    expect(await one(frozenUser)).toMatchObject({ state: "frozen", frozenLength: 6 * 86_400 });
    expect(await revoke(frozenUser, 10)).toBe(6 * 86_400);
    expect(await one(frozenUser)).toMatchObject({ state: "expired", frozenLength: 0, frozenAt: null });
  });
});

describe("isEntitled", () => {
  it("is an active pass of an account that is not suspended", async () => {
    const userId = await newUser();
    await grant(userId, 3);
    const active = await one(userId);
    expect(isEntitled(active, { suspendedAt: null })).toBe(true);
    expect(isEntitled(active, { suspendedAt: new Date() })).toBe(false);
    await subs.freeze(userId, DOTA2);
    expect(isEntitled(await one(userId), { suspendedAt: null })).toBe(false);
    expect(isEntitled({ state: "expired" }, { suspendedAt: null })).toBe(false);
  });
});

describe("freeze", () => {
  it("keeps the remaining time to the second and restores it at the unfreeze", async () => {
    const userId = await newUser();
    await grant(userId, 5);
    clock.advance(DAY + 1500);
    const [frozen] = await subs.freeze(userId, DOTA2);
    const kept = 4 * 86_400 - 2;
    expect(frozen).toMatchObject({ state: "frozen", frozenLength: kept, remainingSeconds: kept, canFreeze: false, freezeBlock: "frozen" });
    clock.advance(10 * DAY);
    const [running] = await subs.unfreeze(userId, DOTA2);
    expect(running).toMatchObject({ state: "active", expiresAt: at(now() + kept * 1000), nextFreezeAt: at(now() + 7 * DAY), freezeBlock: "cooldown" });
    await expect(subs.unfreeze(userId, DOTA2)).rejects.toMatchObject({ code: "conflict" });
    await expect(subs.freeze(userId, DOTA2)).rejects.toMatchObject({ code: "freeze_not_allowed", messageKey: "subscription.block.cooldown", details: { reason: "cooldown" } });
    await expect(subs.freeze(userId, MINECRAFT)).rejects.toMatchObject({ code: "freeze_not_allowed", messageKey: "subscription.block.missing", details: { reason: "missing" } });
  });

  it("ends long freezes as of their scheduled end, once, however late the job runs", async () => {
    const userId = await newUser();
    await grant(userId, 20);
    const frozenAt = now();
    await subs.freeze(userId, DOTA2);
    clock.advance(30 * DAY - 1);
    expect((await subs.endLongFreezes()).filter((r) => r.userId === userId)).toEqual([]);
    clock.advance(5 * DAY + 1);
    expect((await subs.endLongFreezes()).filter((r) => r.userId === userId)).toEqual([{ userId, cheatId: DOTA2 }]);
    expect(await one(userId)).toMatchObject({
      state: "active",
      expiresAt: at(frozenAt + 30 * DAY + 20 * DAY),
      unfrozenAt: at(frozenAt + 30 * DAY),
      nextFreezeAt: at(frozenAt + 37 * DAY),
    });
    expect((await subs.endLongFreezes()).filter((r) => r.userId === userId)).toEqual([]);
  });
});

describe("claimExpiring", () => {
  it("claims a subscription within three days of its end once, and again for a later expiry", async () => {
    const userId = await newUser();
    await grant(userId, 5);
    const mine = async () => (await subs.claimExpiring()).filter((r) => r.userId === userId);
    expect(await mine()).toEqual([]);
    clock.advance(2 * DAY);
    expect(await mine()).toEqual([{ userId, cheatId: DOTA2, expiresAt: expect.any(Date), owner: { email: expect.stringMatching(/^subs-\d+@example\.com$/), locale: "ru", timeZone: null } }]);
    expect(await mine()).toEqual([]);
    // A freeze and an unfreeze move the expiry far away; when it comes near again, once more.
    await subs.freeze(userId, DOTA2);
    clock.advance(20 * DAY);
    expect(await mine()).toEqual([]);
    await subs.unfreeze(userId, DOTA2);
    expect(await mine()).toHaveLength(1); // three days left: near at once
    expect(await mine()).toEqual([]);
    await grant(userId, 30);
    expect(await mine()).toEqual([]);
    clock.advance(31 * DAY);
    expect(await mine()).toHaveLength(1);
    clock.advance(10 * DAY);
    expect(await mine()).toEqual([]); // expired: nothing to announce
  });
});
