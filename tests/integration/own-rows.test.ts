// frontend/data keeps a signed-in user's transactions and subscriptions by the version of those rows
// (docs/decisions/0076-own-rows-by-version.md): a request at an unchanged version answers them from
// memory; every change, by the shop or by anything else that writes the database, is in the next
// answer; what depends on the time alone moves with it; and the version counts every change
// however many connections write at once, while each user keeps about one row of it.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GAMES, PRODUCTS, registerUser, useShop, type User } from "../kit/shop.ts";

const shop = useShop();

type Data = {
  user: { balance: number; username: string | null; transactions: { id: number; type: string; status: string; amount: number }[] };
  subscriptions: { cheat_id: number; expires_at: string; state: string; remaining_seconds: number }[];
};

/** The signed-in answer, and where its own rows came from (the metric's counts before and after). */
async function frontendData(user: User): Promise<{ data: Data; source: "kept" | "read" }> {
  const before = await counts();
  const answer = await shop.call("GET", "/v2/web/frontend/data", { token: user.token });
  expect(answer.status).toBe(200);
  expect(answer.headers.get("cache-control")).toBe("no-store");
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
  const after = await counts();
  const source = after.kept === before.kept + 1 && after.read === before.read ? "kept" : after.read === before.read + 1 && after.kept === before.kept ? "read" : null;
  if (!source) throw new Error(`neither kept nor read once: ${JSON.stringify({ before, after })}`);
  return { data: answer.body as Data, source };
}

async function counts(): Promise<{ kept: number; read: number }> {
  const text = await shop.services.metrics.text();
  const count = (source: string) => Number(new RegExp(`shop_own_rows_total\\{source="${source}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
  return { kept: count("kept"), read: count("read") };
}

/** What the calls that read the rows every time answer: the latest 10 transactions and the subscriptions. */
async function uncached(user: User) {
  const transactions = await shop.call("GET", "/v2/web/user/transactions?limit=10", { token: user.token });
  const subscriptions = await shop.call("GET", "/v2/web/user/subscriptions", { token: user.token });
  expect([transactions.status, subscriptions.status]).toEqual([200, 200]);
  return { transactions: (transactions.body as { data: unknown[] }).data, subscriptions: (subscriptions.body as { subscriptions: unknown[] }).subscriptions };
}

async function expectSameAsUncached(user: User, data: Data) {
  const fresh = await uncached(user);
  expect(data.user.transactions).toEqual(fresh.transactions);
  expect(data.subscriptions).toEqual(fresh.subscriptions);
}

const versionRows = async (user: User) => {
  const result = (await shop.services.db.execute(sql`select count(*)::int as rows, coalesce(sum(n), 0)::int as version from user_data_changes where user_id = ${user.id}`)) as unknown as {
    rows: { rows: number; version: number }[];
  };
  return result.rows[0]!;
};

describe("frontend/data's own rows, kept by version", () => {
  it("answers a repeated request from memory, and each change the shop makes in the next answer", async () => {
    const user = await registerUser(shop, { balance: 5000 });
    const first = await frontendData(user);
    expect(first.source).toBe("read");
    const again = await frontendData(user);
    expect(again.source).toBe("kept");
    expect(again.data).toEqual(first.data);
    await expectSameAsUncached(user, again.data);

    const bought = await shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: PRODUCTS.minecraft.days30.id } });
    expect(bought.status).toBe(200);
    const afterPurchase = await frontendData(user);
    expect(afterPurchase.source).toBe("read");
    expect(afterPurchase.data.user.transactions[0]).toMatchObject({ type: "purchase" });
    expect(afterPurchase.data.subscriptions.map((s) => [s.cheat_id, s.state])).toEqual([[GAMES.minecraft.id, "active"]]);
    await expectSameAsUncached(user, afterPurchase.data);

    expect((await shop.call("POST", "/v2/web/user/subscriptions/freeze", { token: user.token, json: { cheat_id: GAMES.minecraft.id } })).status).toBe(200);
    const frozen = await frontendData(user);
    expect(frozen.source).toBe("read");
    expect(frozen.data.subscriptions[0]!.state).toBe("frozen");
    await expectSameAsUncached(user, frozen.data);
    expect((await frontendData(user)).source).toBe("kept");

    expect((await shop.call("POST", "/v2/web/user/subscriptions/unfreeze", { token: user.token, json: { cheat_id: GAMES.minecraft.id } })).status).toBe(200);
    const unfrozen = await frontendData(user);
    expect(unfrozen.source).toBe("read");
    expect(unfrozen.data.subscriptions[0]!.state).toBe("active");
    await expectSameAsUncached(user, unfrozen.data);
  });

  it("has in the next answer a change written to the database by anything else", async () => {
    const user = await registerUser(shop, { balance: 5000 });
    expect((await shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: PRODUCTS.cs2.days1.id } })).status).toBe(200);
    const before = await frontendData(user);
    expect((await frontendData(user)).source).toBe("kept");

    await shop.services.db.execute(sql`update subscriptions set expires_at = expires_at + interval '1 day' where user_id = ${user.id}`);
    const extended = await frontendData(user);
    expect(extended.source).toBe("read");
    expect(Date.parse(extended.data.subscriptions[0]!.expires_at) - Date.parse(before.data.subscriptions[0]!.expires_at)).toBe(86_400_000);

    const purchase = before.data.user.transactions.find((t) => t.type === "purchase")!;
    await shop.services.db.execute(sql`update transactions set status = 'reversed' where id = ${purchase.id}`);
    const reversed = await frontendData(user);
    expect(reversed.source).toBe("read");
    expect(reversed.data.user.transactions.find((t) => t.id === purchase.id)!.status).toBe("reversed");
    await expectSameAsUncached(user, reversed.data);

    await shop.services.db.execute(sql`delete from subscriptions where user_id = ${user.id}`);
    const removed = await frontendData(user);
    expect(removed.source).toBe("read");
    expect(removed.data.subscriptions).toEqual([]);

    // The user's own row is kept with them, under the same version.
    expect((await frontendData(user)).source).toBe("kept");
    await shop.services.db.execute(sql`update users set balance = balance + 123, username = ${`renamed${user.id}`} where id = ${user.id}`);
    const renamed = await frontendData(user);
    expect(renamed.source).toBe("read");
    expect(renamed.data.user).toMatchObject({ balance: removed.data.user.balance + 123, username: `renamed${user.id}` });
  });

  it("never outlives the session: a revoked session or a suspended user is signed out at once", async () => {
    const revoked = await registerUser(shop, { balance: 100 });
    expect((await frontendData(revoked)).data.user).not.toBeNull();
    expect((await frontendData(revoked)).source).toBe("kept");
    await shop.services.db.execute(sql`update sessions set revoked_at = now() where user_id = ${revoked.id}`);
    const afterRevoke = await shop.call("GET", "/v2/web/frontend/data", { token: revoked.token });
    expect((afterRevoke.body as Data).user).toBeNull();

    const suspended = await registerUser(shop, { balance: 100 });
    expect((await frontendData(suspended)).data.user).not.toBeNull();
    expect((await frontendData(suspended)).source).toBe("kept");
    await shop.services.db.execute(sql`update users set suspended_at = now(), suspended_reason = 'a test' where id = ${suspended.id}`);
    const afterSuspension = await shop.call("GET", "/v2/web/frontend/data", { token: suspended.token });
    expect((afterSuspension.body as Data).user).toBeNull();
  });

  it("moves what depends on the time alone while the rows stay kept", async () => {
    const user = await registerUser(shop, { balance: 5000 });
    expect((await shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: PRODUCTS.cs2.days1.id } })).status).toBe(200);
    const now = await frontendData(user);
    shop.clock.advance(3_600_000);
    const hourLater = await frontendData(user);
    expect(hourLater.source).toBe("kept");
    expect(now.data.subscriptions[0]!.remaining_seconds - hourLater.data.subscriptions[0]!.remaining_seconds).toBe(3600);
    shop.clock.advance(86_400_000);
    const dayLater = await frontendData(user);
    expect(dayLater.source).toBe("kept");
    expect(dayLater.data.subscriptions[0]).toMatchObject({ state: "expired", remaining_seconds: 0 });
    await expectSameAsUncached(user, dayLater.data);
  });

  it("counts every change however many connections write at once, in about one row per user", async () => {
    const user = await registerUser(shop, { balance: 5000 });
    const other = await registerUser(shop, { balance: 5000 });
    expect((await shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: PRODUCTS.cs2.days1.id } })).status).toBe(200);
    const start = await versionRows(user);
    const otherStart = await versionRows(other);
    // 20 statements at once, each changing the user's one subscription row: before and after, 2 each.
    await Promise.all(Array.from({ length: 20 }, () => shop.services.db.execute(sql`update subscriptions set frozen_length = frozen_length where user_id = ${user.id}`)));
    const during = await versionRows(user);
    expect(during.version).toBe(start.version + 40);
    expect(during.rows).toBeLessThanOrEqual(20);
    // One more change takes in every earlier row, none being held now.
    await shop.services.db.execute(sql`update subscriptions set frozen_length = frozen_length where user_id = ${user.id}`);
    expect(await versionRows(user)).toEqual({ rows: 1, version: start.version + 42 });
    // Nobody else's version moved.
    expect(await versionRows(other)).toEqual(otherStart);
  });
});
