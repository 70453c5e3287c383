// The accounts side of the core speaks domain (issue 8, point 3): its use cases answer in camelCase
// types with Dates and no secret (core/accounts/accounts.model.ts, core/notifications), and the
// API writes exactly those in the wire format (server/api/wire/). A dead link or SSO ticket is
// `invalid_link`, the code the pages branch on.
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { emailPreferencesDto, userDto } from "../../server/api/wire/accounts.ts";
import { notificationDto } from "../../server/api/wire/notifications.ts";
import { PASSWORD, linksIn, mailsTo, registerUser, totpNow, uniqueEmail, uniqueIp, useShop } from "../kit/shop.ts";

const shop = useShop({ smtp: true });

const USER_KEYS = ["id", "email", "username", "balance", "owed", "currency", "twoFaEnabled", "pendingEmail", "emailVerified", "referralCode", "createdAt"];

async function rowOf(id: number) {
  const [row] = await shop.services.db.select().from(users).where(eq(users.id, id));
  return row!;
}

/** A domain User: exactly its fields, createdAt a Date, nothing secret. */
function expectUser(value: unknown) {
  expect(Object.keys(value as object).sort()).toEqual([...USER_KEYS].sort());
  expect((value as { createdAt: unknown }).createdAt).toBeInstanceOf(Date);
  expect(JSON.stringify(value)).not.toContain("$argon2");
}

const meta = () => ({ ip: uniqueIp(), locale: "en" as const });

describe("the account", () => {
  it("accounts.user() is the owner's view in domain terms, and user/me and frontend/data are its wire form", async () => {
    const registered = await registerUser(shop);
    const user = shop.services.accounts.user(await rowOf(registered.id));
    expectUser(user);
    expect(user).toMatchObject({ id: registered.id, email: registered.email, twoFaEnabled: false, pendingEmail: null, currency: "USD", balance: 0, owed: 0 });

    const me = await shop.call("GET", "/v2/web/user/me", { token: registered.token });
    expect(me.body.user).toEqual(JSON.parse(JSON.stringify(userDto(user))));
    const data = await shop.call("GET", "/v2/web/frontend/data", { token: registered.token });
    expect(data.body.user).toEqual({ ...JSON.parse(JSON.stringify(userDto(user))), transactions: [] });
    expect(data.body.email_preferences).toEqual(emailPreferencesDto(shop.services.accounts.emailPreferences(await rowOf(registered.id))));
  });

  it("registration, sign-in and SSO answer with the domain User", async () => {
    const { accounts } = shop.services;
    const email = uniqueEmail("domain");
    const registered = await accounts.register({ email, password: PASSWORD, username: undefined }, meta());
    expectUser(registered.user);
    expect(registered.user.email).toBe(email);

    const signedIn = await accounts.login({ login: email, password: PASSWORD }, meta());
    expect(signedIn.twoFa).toBe(false);
    expectUser(signedIn.user);

    const ticket = await accounts.createSsoTicket(registered.user.id, "en");
    expect(Object.keys(ticket).sort()).toEqual(["ticket", "url"]);
    expect(await accounts.ssoTicketAccount(ticket.ticket)).toEqual({ userId: registered.user.id, email, username: null });
    expectUser((await accounts.consumeSsoTicket(ticket.ticket, meta())).user);
  });

  it("two-factor set-up and preferences answer in camelCase", async () => {
    const { accounts } = shop.services;
    const { id } = await registerUser(shop);
    const setup = await accounts.enableTwoFa(id);
    expect(Object.keys(setup).sort()).toEqual(["otpauthUrl", "qr", "secret"]);
    expect(setup.otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    const enabled = await accounts.confirmEnableTwoFa(id, totpNow(setup.secret, shop.clock));
    expect(Object.keys(enabled)).toEqual(["recoveryCodes"]);
    expect(enabled.recoveryCodes).toHaveLength(10);
    expect(accounts.user(await rowOf(id)).twoFaEnabled).toBe(true);

    expect(await accounts.setEmailPreferences(id, { allowMarketing: false, allowSecurity: true })).toEqual({ allowMarketing: false, allowSecurity: true, locale: "en" });
    expect(accounts.emailPreferences(await rowOf(id))).toEqual({ allowMarketing: false, allowSecurity: true, locale: "en" });
  });

  it("an e-mail change answers with the domain User, pendingEmail set, then the new address", async () => {
    const { accounts, background } = shop.services;
    const { id } = await registerUser(shop);
    const wanted = uniqueEmail("wanted");
    const asked = await accounts.changeEmail(id, { email: wanted });
    expectUser(asked.user);
    expect(asked.user.pendingEmail).toBe(wanted);
    await background.drain();
    const link = linksIn(mailsTo(shop.smtp, wanted).at(-1)!).find((l) => l.includes("confirm-email"))!;
    const confirmed = await accounts.confirmEmailChange(new URL(link).searchParams.get("token")!);
    expectUser(confirmed.user);
    expect(confirmed.user).toMatchObject({ email: wanted, pendingEmail: null });
  });
});

describe("notifications and the referral summary", () => {
  it("notifications.list gives createdAt as a Date; user/notification is its wire form", async () => {
    const registered = await registerUser(shop);
    await shop.services.notifications.create(registered.id, "password_changed");
    const list = await shop.services.notifications.list(registered.id, shop.services.catalogs.t("en"));
    expect(list).toHaveLength(1);
    expect(list[0]!.createdAt).toBeInstanceOf(Date);
    expect(Object.keys(list[0]!).sort()).toEqual(["content", "createdAt", "id", "read", "title", "type"]);
    const reply = await shop.call("GET", "/v2/web/user/notification", { token: registered.token });
    expect(reply.body.notifications).toEqual(JSON.parse(JSON.stringify(list.map(notificationDto))));
  });

  it("referrals.summary is what user/referral writes out, and the list of invited friends the profile page shows", async () => {
    const registered = await registerUser(shop);
    const { friends, ...summary } = await shop.services.referrals.summary(registered.id);
    expect(Object.keys(summary).sort()).toEqual(["code", "earned", "invited", "link", "percent"]);
    expect(friends).toEqual([]);
    const reply = await shop.call("GET", "/v2/web/user/referral", { token: registered.token });
    // The spec's answer is unchanged: the friends are the page's, not the API's.
    expect(reply.body.referral).toEqual(summary);
  });
});

describe("invalid_link", () => {
  it("is what a dead e-mail link or SSO ticket gets, with status 400 and its own message", async () => {
    const { accounts } = shop.services;
    const dead = "d".repeat(43);
    const expected = { code: "invalid_link", status: 400, messageKey: "errors.invalid_link" };
    await expect(accounts.confirmEmailChange(dead)).rejects.toMatchObject(expected);
    await expect(accounts.undoEmailChange(dead)).rejects.toMatchObject(expected);
    await expect(accounts.ssoTicketAccount(dead)).rejects.toMatchObject(expected);
    await expect(accounts.consumeSsoTicket(dead, meta())).rejects.toMatchObject(expected);
  });
});
