// Bulk compensation at scale (issue 10 point 6, docs/product/back-office.md#compensation): 10,000
// passes of one game — users inserted in bulk with SQL, not through Argon2 registration; 8,500
// active, 1,500 frozen, and 500 expired ones that must not move — extended by one call on
// PostgreSQL, timed (the figure is printed and written to test-results/bench-compensation.json). A
// purchase made while the call runs is neither lost nor counted twice; a replay with the same key
// changes nothing. The mails to the 10,000 buyers follow in the background and are timed too.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { compensationItems, compensations, subscriptions } from "../../db/schema/index.ts";
import { manualClock } from "../../core/shared/clock.ts";
import { GAMES, PRODUCTS, registerUser, useShop, type User } from "../kit/shop.ts";
import { makeOperator, type Operator } from "../integration/admin-kit.ts";

const PASSES = 10_000;
const FROZEN = 1_500;
const EXPIRED = 500;
const DAY = 86_400_000;
const clock = manualClock(new Date("2026-09-01T00:00:00.000Z"));
const shop = useShop({ clock, env: { DB_STATEMENT_TIMEOUT_MS: "20000" } });
const LOCALES = ["ru", "en", "cn", "es", "hi", "pt", "id"];

/** The rows of a raw query. */
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

let owner: Operator;
let racer: User;

beforeAll(async () => {
  owner = await makeOperator(shop, clock, "owner");
  racer = await registerUser(shop, { balance: 10_000 });
  expect((await shop.call("POST", "/v2/web/user/purchase", { token: racer.token, json: { product_id: PRODUCTS.minecraft.days30.id } })).status).toBe(200);
  // 10,500 buyers in one statement each: users, then their minecraft passes.
  const now = clock.now().toISOString();
  const total = PASSES - 1 + EXPIRED; // the racer holds one of the 10,000
  await shop.services.db.execute(sql`
    insert into users (email, password_hash, referral_code, locale, created_at, updated_at)
    select 'bulk-' || n || '@bench.test', 'not-a-hash', 'BULK' || n, (${`{${LOCALES.join(",")}}`}::text[])[1 + n % 7], ${now}::timestamptz, ${now}::timestamptz
    from generate_series(1, ${total}) n`);
  await shop.services.db.execute(sql`
    insert into subscriptions (user_id, cheat_id, expires_at, frozen_length, frozen_at, created_at, updated_at)
    select u.id, ${GAMES.minecraft.id},
      case when n <= ${EXPIRED} then ${now}::timestamptz - interval '1 day' else ${now}::timestamptz + (n % 60 + 1) * interval '1 day' end,
      case when n > ${EXPIRED} and n <= ${EXPIRED + FROZEN} then 86400 * (n % 20 + 1) else 0 end,
      case when n > ${EXPIRED} and n <= ${EXPIRED + FROZEN} then ${now}::timestamptz - interval '1 hour' else null end,
      ${now}::timestamptz, ${now}::timestamptz
    from users u join lateral (select substring(u.email from 'bulk-(\\d+)@')::int as n) s on true
    where u.email like 'bulk-%@bench.test'`);
});

describe("10,000 passes", () => {
  it("are extended by one call, timed; a purchase during it is kept once; the replay changes nothing", async () => {
    const sum = async () => {
      const [row] = rowsOf<{ n: number; expires: number; frozen: number }>(
        await shop.services.db.execute(
          sql`select count(*)::int as n, sum(extract(epoch from expires_at))::float8 as expires, sum(frozen_length)::float8 as frozen from subscriptions where cheat_id = ${GAMES.minecraft.id}`,
        ),
      );
      return row!;
    };
    const before = await sum();
    expect(before.n).toBe(PASSES + EXPIRED);
    const [racerBefore] = await shop.services.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, racer.id), eq(subscriptions.cheatId, GAMES.minecraft.id)));

    const started = performance.now();
    const call = shop.call("POST", "/v2/admin/compensation", {
      token: owner.token,
      json: { cheat_id: GAMES.minecraft.id, days: 2, reason: "two days down", code: owner.code() },
      headers: { "idempotency-key": "bench-10k" },
    });
    // Once the set is fixed, the racer buys 7 more days while the batches run.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const [fixed] = await shop.services.db.select({ total: compensations.total }).from(compensations).where(eq(compensations.idempotencyKey, "bench-10k"));
      if (fixed && fixed.total > 0) break;
      if (Date.now() > deadline) throw new Error("the set was never fixed");
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const bought = await shop.call("POST", "/v2/web/user/purchase", { token: racer.token, json: { product_id: PRODUCTS.minecraft.days7.id } });
    const reply = await call;
    const seconds = (performance.now() - started) / 1000;
    expect(reply.status, reply.text).toBe(200);
    expect(bought.status, bought.text).toBe(200);
    expect(reply.body.affected).toBe(PASSES);

    const after = await sum();
    const active = PASSES - FROZEN;
    // Active passes ran on from their end by 2 days; frozen ones keep 2 days more in the freeze; expired ones did not move.
    expect(after.expires - before.expires).toBeCloseTo(active * 2 * 86_400 + 7 * 86_400, 0);
    expect(after.frozen - before.frozen).toBe(FROZEN * 2 * 86_400);
    const [racerAfter] = await shop.services.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, racer.id), eq(subscriptions.cheatId, GAMES.minecraft.id)));
    expect(racerAfter!.expiresAt.getTime() - racerBefore!.expiresAt.getTime()).toBe(9 * DAY);
    const countNotes = async () => rowsOf<{ n: number }>(await shop.services.db.execute(sql`select count(*)::int as n from notifications where type = 'days_granted'`))[0]!.n;
    expect(await countNotes()).toBe(PASSES);

    // The replay: the first answer, nothing more.
    const replay = await shop.call("POST", "/v2/admin/compensation", {
      token: owner.token,
      json: { cheat_id: GAMES.minecraft.id, days: 2, reason: "two days down" },
      headers: { "idempotency-key": "bench-10k" },
    });
    expect(replay.body).toEqual(reply.body);
    expect(await sum()).toEqual(after);
    expect(await countNotes()).toBe(PASSES);

    // The mails follow in the background.
    const mailsStarted = performance.now();
    await shop.services.background.drain();
    const mailSeconds = (performance.now() - mailsStarted) / 1000;
    const [mails] = rowsOf<{ n: number }>(await shop.services.db.execute(sql`select count(*)::int as n from mail_outbox where template = 'days_granted'`));
    expect(mails!.n).toBe(PASSES);
    const unmailed = await shop.services.db
      .select()
      .from(compensationItems)
      .where(sql`${compensationItems.mailedAt} is null`);
    expect(unmailed).toHaveLength(0);

    const figure = { passes: PASSES, frozen: FROZEN, seconds: Number(seconds.toFixed(2)), passesPerSecond: Math.round(PASSES / seconds), mailSeconds: Number(mailSeconds.toFixed(2)) };
    console.info(`bench: compensation of ${PASSES} passes on PostgreSQL in ${figure.seconds} s (${figure.passesPerSecond}/s); ${PASSES} mails after it in ${figure.mailSeconds} s`);
    mkdirSync(path.resolve("test-results"), { recursive: true });
    writeFileSync(path.resolve("test-results", "bench-compensation.json"), `${JSON.stringify(figure, null, 2)}\n`);
  }, 180_000);
});
