// The notification inbox (docs/product/accounts.md#notifications): `POST
// /v2/web/user/notification/read` with `ids` or `all: true`, answering `notifications` as the GET
// does; the header's bell with the unread count on every signed-in page; its form, posted to
// /profile without JavaScript, marks one or all read and comes back.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { notifications } from "../../db/schema/index.ts";
import { registerUser, useShop, type User } from "../kit/shop.ts";

const shop = useShop({ pages: true });
const origin = () => shop.services.settings.PUBLIC_URL;

/** Three notifications for the user, oldest first; their ids. */
async function threeFor(user: User): Promise<number[]> {
  const { notifications: store } = shop.services;
  await store.create(user.id, "payment_completed", { amount: 1500, currency: "USD" });
  await store.create(user.id, "gift_received", { game: "CS2", days: 7, from: "alex" });
  await store.create(user.id, "freeze_ended", { game: "Dota 2" });
  const rows = await shop.services.db.select({ id: notifications.id }).from(notifications).where(eq(notifications.userId, user.id)).orderBy(notifications.id);
  return rows.map((r) => r.id);
}

const list = async (user: User) => (await shop.call("GET", "/v2/web/user/notification", { token: user.token })).body.notifications as { id: number; read: boolean }[];
const read = (user: User, json: unknown) => shop.call("POST", "/v2/web/user/notification/read", { token: user.token, json });

describe("POST /v2/web/user/notification/read", () => {
  it("marks the given ids read and answers the list as GET user/notification does", async () => {
    const user = await registerUser(shop);
    const [a, b, c] = await threeFor(user);
    const reply = await read(user, { ids: [a, c] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get("cache-control")).toBe("no-store");
    const get = await shop.call("GET", "/v2/web/user/notification", { token: user.token });
    expect(reply.body).toEqual(get.body);
    expect(reply.body.notifications.map((n: { id: number; read: boolean }) => [n.id, n.read])).toEqual([
      [c, true],
      [b, false],
      [a, true],
    ]);
    expect(Object.keys(reply.body.notifications[0]).sort()).toEqual(["content", "created_at", "id", "read", "title", "type"]);
    // Marking again changes nothing and is no error.
    expect((await read(user, { ids: [a] })).status).toBe(200);
  });

  it("marks all read with all: true", async () => {
    const user = await registerUser(shop);
    await threeFor(user);
    const reply = await read(user, { all: true });
    expect(reply.status).toBe(200);
    expect(reply.body.notifications.every((n: { read: boolean }) => n.read)).toBe(true);
    expect(await shop.services.notifications.unreadCount(user.id)).toBe(0);
  });

  it("never touches another user's notifications, and does not tell they exist", async () => {
    const owner = await registerUser(shop, { tag: "owner" });
    const other = await registerUser(shop, { tag: "other" });
    const [a] = await threeFor(owner);
    const reply = await read(other, { ids: [a, 2_000_000_000] });
    expect(reply.status).toBe(200);
    expect(reply.body.notifications).toEqual([]);
    expect((await list(owner)).find((n) => n.id === a)!.read).toBe(false);
    expect((await read(other, { all: true })).status).toBe(200);
    expect(await shop.services.notifications.unreadCount(owner.id)).toBe(3);
  });

  it("refuses what is neither ids nor all: true, and guests", async () => {
    const user = await registerUser(shop);
    for (const json of [
      {},
      { ids: [] },
      { ids: [1], all: true },
      { all: false },
      { ids: ["1"] },
      { ids: [0] },
      { ids: [1.5] },
      { ids: 1 },
      { ids: Array.from({ length: 101 }, (_, i) => i + 1) },
    ]) {
      const reply = await read(user, json);
      expect(reply.status, JSON.stringify(json)).toBe(400);
      expect(reply.body.code).toBe("validation_failed");
    }
    const guest = await shop.call("POST", "/v2/web/user/notification/read", { json: { all: true } });
    expect(guest.status).toBe(401);
  });

  it("refuses a cross-site post riding on the cookie", async () => {
    const user = await registerUser(shop);
    await threeFor(user);
    const res = await shop.request("/v2/web/user/notification/read", {
      method: "POST",
      headers: { "content-type": "application/json", cookie: `access_token=${user.token}`, origin: "https://evil.example" },
      body: JSON.stringify({ all: true }),
    });
    expect(res.status).toBe(403);
    expect(await shop.services.notifications.unreadCount(user.id)).toBe(3);
  });
});

describe("the header's bell", () => {
  const page = async (user: User | null, path: string) => (await shop.request(path, { headers: user ? { cookie: `access_token=${user.token}` } : {} })).text();

  it("shows the unread count and the latest notifications on signed-in pages, and nothing to guests", async () => {
    const user = await registerUser(shop);
    await threeFor(user);
    for (const path of ["/en/dota2/profile/balance", "/en/minecraft", "/en"]) {
      const html = await page(user, path);
      expect(html, path).toContain('aria-label="Notifications: 3 unread" data-unread="3"');
      expect(html).toContain("You received a gift");
      expect(html).toContain("Freeze ended");
    }
    expect(await page(null, "/en/minecraft")).not.toContain("data-unread");
    const ru = await page(user, "/dota2/profile");
    expect(ru).toContain('aria-label="Уведомления: 3 новых"');
  });

  async function form(user: User | null, fields: Record<string, string>) {
    return shop.request("/en/profile", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: origin(),
        "sec-fetch-site": "same-origin",
        ...(user ? { cookie: `access_token=${user.token}` } : {}),
      },
      body: new URLSearchParams(fields).toString(),
      redirect: "manual",
    });
  }

  it("marks one read from the page without JavaScript, and comes back to the page", async () => {
    const user = await registerUser(shop);
    const [a, b] = await threeFor(user);
    const res = await form(user, { intent: "read", id: String(b), back: "/en/minecraft?x=1" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/en/minecraft?x=1");
    const state = await list(user);
    expect(state.find((n) => n.id === b)!.read).toBe(true);
    expect(state.find((n) => n.id === a)!.read).toBe(false);
    expect(await page(user, "/en/minecraft")).toContain('data-unread="2"');
  });

  it("marks all read, and goes to the profile rather than another site", async () => {
    const user = await registerUser(shop);
    await threeFor(user);
    const res = await form(user, { intent: "read", all: "1", back: "//evil.example/x" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/en/dota2/profile");
    expect(await shop.services.notifications.unreadCount(user.id)).toBe(0);
    const html = await page(user, "/en/dota2/profile");
    expect(html).toContain('aria-label="Notifications: none unread" data-unread="0"');
  });

  it("refuses a form that names neither one nor all, and sends a guest to sign in", async () => {
    const user = await registerUser(shop);
    await threeFor(user);
    expect((await form(user, { intent: "read", back: "/en" })).status).toBe(400);
    expect((await form(user, { intent: "read", id: "x" })).status).toBe(400);
    expect((await form(user, { intent: "other", all: "1" })).status).toBe(400);
    expect(await shop.services.notifications.unreadCount(user.id)).toBe(3);
    const guest = await form(null, { intent: "read", all: "1" });
    expect(guest.status).toBe(302);
    expect(guest.headers.get("location")).toMatch(/^\/en\/auth\?redirectTo=/);
  });
});
