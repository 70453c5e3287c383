// Gifts to an e-mail address (docs/product/money.md#gifts, issue 7 points 3, 9 and 13): the giver's answer is the
// same whether the address is registered (the days go straight to it) or not (the code goes to it
// by mail, redeemable after sign-up); mails to typed addresses share one limit per user with the
// e-mail change; the giver is named by username, or "a NOVA user", never by e-mail.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../core/shared/clock.ts";
import type { MessageKey, Params } from "../../i18n/translate.ts";
import { gifts } from "../../db/schema/index.ts";
import { GIFT_CODE } from "../../core/gifts/gift-code.ts";
import { GAMES, PRODUCTS, balanceOf, expectConsistentLedger, registerUser, subscriptionOf, subscriptionsOf, uniqueEmail, useShop, type User } from "../kit/shop.ts";
import { TEST_ORIGIN } from "../kit/app.ts";

// The mail limit at its default (the shop kit lifts it for the parallel tests).
const shop = useShop({ smtp: true, clock: systemClock, env: { RATE_MAIL_USER: "5/1h" } });

const gift = (user: User, recipient: string, productId: number = PRODUCTS.dota2.days7.id) =>
  shop.call("POST", "/v2/web/user/gift", { token: user.token, json: { product_id: productId, recipient } });

async function mailsTo(address: string) {
  await shop.services.background.drain();
  return shop.smtp.messages.filter((m) => m.envelope.to.includes(address));
}

async function notifications(user: User, lang = "en") {
  const reply = await shop.call("GET", "/v2/web/user/notification", { token: user.token, lang });
  return reply.body.notifications as { type: string; content: string }[];
}

/** A user registered without a username. */
const anonymous = (balance: number) => registerUser(shop, { tag: "nameless", username: null, balance });

const t = (key: MessageKey, params?: Params) => shop.services.catalogs.t("en")(key, params);

describe("gifts by e-mail", () => {
  it("answer the same for a registered and an unknown address; the registered one gets the days, the unknown one a code to redeem after sign-up", async () => {
    const giver = await registerUser(shop, { tag: "giver", balance: 5000 });
    const friend = await registerUser(shop, { tag: "friend" });
    const stranger = uniqueEmail("stranger");

    const known = await gift(giver, friend.email);
    const unknown = await gift(giver, stranger.toUpperCase());
    expect(known.status, known.text).toBe(200);
    expect(unknown.status, unknown.text).toBe(200);
    expect(known.body.gift).toEqual({ code: null, cheat_id: GAMES.dota2.id, days: 7, recipient: friend.email, redeemed: null, delivered: true });
    expect(unknown.body.gift).toEqual({ ...known.body.gift, recipient: stranger });
    expect(unknown.body.balance).toBe(known.body.balance - 799);
    expect(Object.keys(unknown.body).sort()).toEqual(Object.keys(known.body).sort());

    // The registered address: the days at once, a notification and a mail.
    expect(subscriptionOf(await subscriptionsOf(shop, friend.token), GAMES.dota2.id)?.state).toBe("active");
    expect((await notifications(friend))[0]).toMatchObject({ type: "gift_received", content: `${giver.username} gave you 7 days of Dota 2.` });
    expect((await mailsTo(friend.email)).map((m) => m.subject)).toEqual([`${giver.username} sent you a gift`]);

    // The unknown address: the code by mail, in the giver's language, with the way to sign up.
    const [invite] = await mailsTo(stranger);
    expect(invite!.subject).toBe(t("mail.gift_invite.subject", { from: giver.username }));
    // The code stands on a line of its own.
    const code = (invite!.text ?? "")
      .split("\n")
      .map((line) => line.trim())
      .find((line) => GIFT_CODE.test(line))!;
    expect(code).toBeDefined();
    expect(invite!.text).toContain(`${TEST_ORIGIN}/en/auth/register`);
    // The stranger signs up and redeems it.
    const newcomer = await registerUser(shop, { tag: "newcomer" });
    const redeemed = await shop.call("POST", "/v2/web/user/gift/redeem", { token: newcomer.token, json: { code } });
    expect(redeemed.status, redeemed.text).toBe(200);
    expect(subscriptionOf(redeemed, GAMES.dota2.id)?.state).toBe("active");

    // The giver is told of the addresses as typed, both alike.
    expect((await notifications(giver)).map((n) => n.content)).toEqual([`You gave 7 days of Dota 2 to ${stranger}.`, `You gave 7 days of Dota 2 to ${friend.email}.`]);
    const rows = await shop.services.db.select().from(gifts).where(eq(gifts.giverId, giver.id));
    expect(rows).toHaveLength(2);
    expect(await expectConsistentLedger(shop, giver.id)).toBe(5000 - 2 * 799);
    // The giver's e-mail is in none of the mails.
    for (const mail of [...(await mailsTo(friend.email)), ...(await mailsTo(stranger))]) expect(`${mail.subject}\n${mail.text}\n${mail.html}`).not.toContain(giver.email);
  });

  it("name a giver without a username as a NOVA user, in the reader's language, never by e-mail", async () => {
    const giver = await anonymous(5000);
    const friend = await registerUser(shop, { tag: "friend" });
    const stranger = uniqueEmail("stranger");
    expect((await gift(giver, friend.email)).status).toBe(200);
    expect((await gift(giver, stranger)).status).toBe(200);
    const coded = await shop.call("POST", "/v2/web/user/gift", { token: giver.token, json: { product_id: PRODUCTS.dota2.days7.id } });
    const taker = await registerUser(shop, { tag: "taker" });
    expect((await shop.call("POST", "/v2/web/user/gift/redeem", { token: taker.token, json: { code: coded.body.gift.code } })).status).toBe(200);

    const someone = t("gift.anonymousGiver");
    expect((await mailsTo(friend.email))[0]!.subject).toBe(`${someone} sent you a gift`);
    expect((await mailsTo(stranger))[0]!.subject).toBe(t("mail.gift_invite.subject", { from: someone }));
    for (const user of [friend, taker]) {
      expect((await notifications(user))[0]!.content).toBe(`${someone} gave you 7 days of Dota 2.`);
      const ru = (await notifications(user, "ru"))[0]!.content;
      expect(ru).toBe(shop.services.catalogs.t("ru")("notification.gift_received.content", { from: shop.services.catalogs.t("ru")("gift.anonymousGiver"), days: 7, game: "Dota 2" }));
    }
    for (const mail of [...(await mailsTo(friend.email)), ...(await mailsTo(stranger))]) expect(`${mail.subject}\n${mail.text}\n${mail.html}`).not.toContain(giver.email);
    for (const user of [friend, taker]) expect(JSON.stringify(await notifications(user))).not.toContain(giver.email);
  });

  it("share RATE_MAIL_USER with the e-mail change: past 5 an hour, 429 before any money moves; gifts by username are not mail to a typed address", async () => {
    const giver = await registerUser(shop, { tag: "giver", balance: 10_000 });
    const friend = await registerUser(shop, { tag: "friend" });
    for (let i = 0; i < 3; i++) {
      const change = await shop.call("POST", "/v2/web/user/changeEmail", { token: giver.token, json: { email: uniqueEmail("moved") } });
      expect(change.status, change.text).toBe(200);
    }
    expect((await gift(giver, uniqueEmail("one"))).status).toBe(200);
    expect((await gift(giver, friend.email)).status).toBe(200);
    const balance = await balanceOf(shop, giver.id);
    const refused = await gift(giver, uniqueEmail("six"));
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    expect(await balanceOf(shop, giver.id)).toBe(balance);
    expect(await shop.services.db.select().from(gifts).where(eq(gifts.giverId, giver.id))).toHaveLength(2);
    // The change of e-mail is refused too; a gift by username or as a code is not limited by it.
    expect((await shop.call("POST", "/v2/web/user/changeEmail", { token: giver.token, json: { email: uniqueEmail("moved") } })).status).toBe(429);
    expect((await gift(giver, friend.username)).status).toBe(200);
    expect((await shop.call("POST", "/v2/web/user/gift", { token: giver.token, json: { product_id: PRODUCTS.dota2.days7.id } })).status).toBe(200);
    expect(await expectConsistentLedger(shop, giver.id)).toBe(10_000 - 4 * 799);
  });

  it("refuse a malformed address (400) and the giver's own address in any letter case (400)", async () => {
    const giver = await registerUser(shop, { tag: "giver", balance: 5000 });
    for (const recipient of ["nobody@", "a b@example.com", "x@@example.com"]) {
      const reply = await gift(giver, recipient);
      expect(reply.status, recipient).toBe(400);
      expect(reply.body.errors).toEqual({ recipient: t("validation.email") });
    }
    const self = await gift(giver, ` ${giver.email.toUpperCase()} `);
    expect(self.status).toBe(400);
    expect(self.body.errors).toEqual({ recipient: t("validation.recipient_self") });
    expect(await balanceOf(shop, giver.id)).toBe(5000);
  });
});
