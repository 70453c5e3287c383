// What the shop stops keeping (issue 7, point 13), run by the background jobs on a controlled
// clock: ended sessions after a grace period, spent or expired one-time codes, ended rate-limit
// windows and the bodies of sent mail (the outbox rows stay); and frontend/data's access_token
// (docs/product/api.md#front-end-data): the Bearer token of the request, null for a request signed in by the cookie alone.
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox, oneTimeCodes, rateLimits, sessions } from "../../db/schema/index.ts";
import { runJobsOnce } from "../../server/jobs.ts";
import { TEST_ORIGIN, login, mailsTo, registerUser, uniqueEmail, useShop } from "../kit/shop.ts";

const shop = useShop({ smtp: true });
const HOUR = 3600_000;
const DAY = 24 * HOUR;

const sessionIds = async (userId: number) => (await shop.services.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId))).map((r) => r.id).sort();

describe("purges", () => {
  it("delete expired and revoked sessions only after the grace period", async () => {
    const user = await registerUser(shop);
    const [first] = await sessionIds(user.id);
    expect((await shop.call("POST", "/v2/web/logout", { token: user.token })).status).toBe(200);
    shop.clock.advance(6 * DAY);
    await runJobsOnce(shop.services);
    // Revoked six days ago: still kept.
    expect(await sessionIds(user.id)).toEqual([first]);

    const fresh = await login(shop, user.email, user.password);
    expect(fresh.status).toBe(200);
    shop.clock.advance(2 * DAY);
    await runJobsOnce(shop.services);
    // Revoked eight days ago: gone; the live one stays and still signs in.
    const left = await sessionIds(user.id);
    expect(left).toHaveLength(1);
    expect(left).not.toContain(first);
    expect((await shop.call("GET", "/v2/web/user/me", { token: fresh.body.token })).status).toBe(200);

    // Expired (336 h) and a week past it: gone too.
    shop.clock.advance(336 * HOUR + 7 * DAY + HOUR);
    await runJobsOnce(shop.services);
    expect(await sessionIds(user.id)).toEqual([]);
  });

  it("delete spent and expired one-time codes, and keep a live one", async () => {
    // Not verified: the welcome mail's link stays unspent, a live code for a week.
    const user = await registerUser(shop, { verified: false });
    // A spent one: an SSO ticket turned into a session.
    const ticket = await shop.call("POST", "/v2/web/sso/ticket", { token: user.token, headers: { origin: TEST_ORIGIN } });
    expect(ticket.status).toBe(200);
    await shop.services.accounts.consumeSsoTicket(ticket.body.ticket, { ip: "local", locale: "en" });
    // An expiring one: a reset code (10 minutes).
    expect((await shop.call("POST", "/auth/reset", { json: { email: user.email } })).status).toBe(200);
    await shop.services.background.drain();
    const codes = () => shop.services.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, user.id));
    // And the welcome mail's verification link, live for a week.
    const purposes = async () => (await codes()).map((c) => c.purpose).sort();
    expect(await purposes()).toEqual(["email_verify", "password_reset", "sso_ticket"]);

    await runJobsOnce(shop.services);
    expect(await purposes()).toEqual(["email_verify", "password_reset"]);
    shop.clock.advance(2 * HOUR);
    await runJobsOnce(shop.services);
    expect(await purposes()).toEqual(["email_verify"]);
    shop.clock.advance(7 * 24 * HOUR);
    await runJobsOnce(shop.services);
    expect(await codes()).toEqual([]);
  });

  it("delete rate-limit windows that ended, and keep live ones", async () => {
    const user = await registerUser(shop);
    expect((await login(shop, user.email, "Wrong-Password-1")).status).toBe(401);
    const keysOf = async () =>
      (
        await shop.services.db
          .select({ key: rateLimits.key })
          .from(rateLimits)
          .where(inArray(rateLimits.key, [`login:user:${user.id}`]))
      ).map((r) => r.key);
    await runJobsOnce(shop.services);
    expect(await keysOf()).toEqual([`login:user:${user.id}`]);
    shop.clock.advance(16 * 60_000);
    await runJobsOnce(shop.services);
    expect(await keysOf()).toEqual([]);
  });

  it("empty the subject and content of sent mail after an hour, keeping the record", async () => {
    const email = uniqueEmail("purged");
    const user = await registerUser(shop, { email });
    expect((await shop.call("POST", "/auth/reset", { json: { email: user.email } })).status).toBe(200);
    await shop.services.background.drain();
    expect(mailsTo(shop.smtp, email).length).toBeGreaterThan(0);
    const rows = () => shop.services.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    // Kept a while on a development run (/dev/mail shows them).
    await runJobsOnce(shop.services);
    expect((await rows()).every((r) => r.text !== "" && r.subject !== "")).toBe(true);

    shop.clock.advance(HOUR + 60_000);
    // A mail made now is kept whole; the older ones are emptied.
    const later = uniqueEmail("kept");
    const other = await registerUser(shop, { email: later });
    expect((await shop.call("POST", "/auth/reset", { json: { email: other.email } })).status).toBe(200);
    await shop.services.background.drain();
    await runJobsOnce(shop.services);
    const old = await rows();
    expect(old.length).toBeGreaterThan(0);
    for (const row of old) expect(row).toMatchObject({ to: email, status: "sent", subject: "", text: "", html: "" });
    const kept = await shop.services.db.select().from(mailOutbox).where(eq(mailOutbox.to, later));
    expect(kept.length).toBeGreaterThan(0);
    for (const row of kept) expect(row.text).not.toBe("");
  });
});

describe("frontend/data access_token (docs/product/api.md#front-end-data)", () => {
  it("is the Bearer token of a Bearer request and null for a request signed in by the cookie alone", async () => {
    const user = await registerUser(shop);
    const bearer = await shop.call("GET", "/v2/web/frontend/data", { token: user.token });
    expect(bearer.body).toMatchObject({ access_token: user.token, user: { id: user.id } });

    const cookie = await shop.call("GET", "/v2/web/frontend/data", { cookie: `access_token=${user.token}` });
    expect(cookie.body.user.id).toBe(user.id);
    expect(cookie.body.access_token).toBeNull();
    expect(cookie.text).not.toContain(user.token);

    const guest = await shop.call("GET", "/v2/web/frontend/data");
    expect(guest.body).toMatchObject({ access_token: null, user: null });
  });
});
