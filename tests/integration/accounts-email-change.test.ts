// E-mail change (docs/product/accounts.md#e-mail-change, issue 7 points 3, 9 and 13): a taken address is answered exactly
// like a free one and can never be taken; mails to typed addresses are limited per user; the old
// address is always told, with a link that undoes the change, ends every session and asks for a
// new password.
import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { oneTimeCodes } from "../../db/schema/index.ts";
import { codeIn, linksIn, login, mailsTo, meStatus, message, registerUser, uniqueEmail, useShop, type User } from "../kit/shop.ts";

const shop = useShop({ smtp: true, env: { RATE_MAIL_USER: "5/1h" } });

const HOUR = 3600 * 1000;

const changeEmail = (user: User, email: string, lang = "en") => shop.call("POST", "/v2/web/user/changeEmail", { token: user.token, json: { email }, lang });

/** Every mail to an address (after the background mails went out). */
async function mailsOf(address: string) {
  await shop.services.background.drain();
  return mailsTo(shop.smtp, address);
}

const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

/** The undo link of the newest notice to the old address. */
async function undoTokenFor(oldAddress: string): Promise<string> {
  const notice = (await mailsOf(oldAddress)).filter((m) => m.subject === message(shop, "en", "mail.email_changed_notice.subject")).at(-1)!;
  return tokenOf(linksIn(notice).find((l) => l.includes("/auth/undo-email?token="))!);
}

async function confirmTokenFor(newAddress: string): Promise<string> {
  return tokenOf(linksIn((await mailsOf(newAddress)).at(-1)!).find((l) => l.includes("/auth/confirm-email?token="))!);
}

describe("changeEmail to an address of another account", () => {
  it("answers exactly as for a free address, tells the taken address without a link, and can never take it", async () => {
    const [user, owner, control] = [await registerUser(shop, { username: null }), await registerUser(shop), await registerUser(shop, { username: null })];
    const free = uniqueEmail("free");
    const taken = await changeEmail(user, owner.email.toUpperCase());
    const open = await changeEmail(control, free);
    expect(taken.status).toBe(200);
    expect(open.status).toBe(200);
    // Same shape and message, the address aside.
    const blank = (body: { user: Record<string, unknown>; message: string }, address: string, self: User) =>
      JSON.parse(
        JSON.stringify(body)
          .replaceAll(address, "<new>")
          .replaceAll(self.email, "<old>")
          .replace(/"(id|referral_code|created_at)":("[^"]*"|\d+)/g, '"$1":"…"'),
      );
    expect(blank(taken.body, owner.email, user)).toEqual(blank(open.body, free, control));
    expect(taken.body.user.pending_email).toBe(owner.email);
    expect(taken.body.message).toBe(message(shop, "en", "account.email.pending", { email: owner.email }));

    // The taken address is told that someone tried; nothing in it could confirm anything.
    const toOwner = await mailsOf(owner.email);
    expect(toOwner).toHaveLength(1);
    expect(toOwner[0]!.subject).toBe(message(shop, "en", "mail.email_change_taken.subject"));
    expect(toOwner[0]!.text).toContain(owner.email);
    // Only the site pages every mail links in its footer (docs/product/routes.md#legal-and-support-pages).
    expect(linksIn(toOwner[0]!).filter((l) => !/\/(support|terms|privacy|refunds)$/.test(new URL(l).pathname))).toEqual([]);
    // The free address gets its confirmation link; both old addresses get the notice.
    expect((await mailsOf(free)).map((m) => m.subject)).toEqual([message(shop, "en", "mail.email_change_confirm.subject")]);
    for (const self of [user, control]) {
      expect((await mailsOf(self.email)).map((m) => m.subject)).toEqual([message(shop, "en", "mail.email_changed_notice.subject")]);
    }

    // The stored request for the taken address is marked, and confirming it fails even with its row's
    // token (which was never sent anywhere): the address stays its owner's.
    const [row] = await shop.services.db
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, "email_change")));
    expect(row!.payload).toEqual({ email: owner.email, taken: true });
    expect((await login(shop, owner.email, owner.password)).status).toBe(200);
    expect((await shop.call("GET", "/v2/web/user/me", { token: user.token })).body.user.email).toBe(user.email);
  });
});

describe("mails to typed addresses per user (RATE_MAIL_USER)", () => {
  it("sends 5 an hour; the 6th change is refused with 429 and changes and sends nothing", async () => {
    const user = await registerUser(shop);
    const addresses = Array.from({ length: 6 }, () => uniqueEmail("typed"));
    for (const address of addresses.slice(0, 5)) expect((await changeEmail(user, address)).status).toBe(200);
    const refused = await changeEmail(user, addresses[5]!);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ status: false, code: "rate_limited", message: message(shop, "en", "errors.rate_limited") });
    expect(Number(refused.headers.get("retry-after"))).toBe(3600);
    expect((await shop.call("GET", "/v2/web/user/me", { token: user.token })).body.user.pending_email).toBe(addresses[4]);
    for (const address of addresses.slice(0, 5)) expect(await mailsOf(address)).toHaveLength(1);
    expect(await mailsOf(addresses[5]!)).toHaveLength(0);
    expect(await mailsOf(user.email)).toHaveLength(5);
    shop.clock.advance(HOUR);
    expect((await changeEmail(user, addresses[5]!)).status).toBe(200);
  });
});

describe("the undo link mailed to the old address", () => {
  it("before the confirmation: cancels the change, ends every session, retires the password and mails a reset code", async () => {
    const user = await registerUser(shop);
    const other = (await login(shop, user.email, user.password)).body.token as string;
    const wanted = uniqueEmail("wanted");
    expect((await changeEmail(user, wanted)).status).toBe(200);
    const undo = await undoTokenFor(user.email);
    const confirm = await confirmTokenFor(wanted);
    expect(await shop.services.accounts.emailUndoTarget(undo)).toBe(user.email);

    expect(await shop.services.accounts.undoEmailChange(undo)).toEqual({ email: user.email });
    expect(await meStatus(shop, user.token)).toBe(401);
    expect(await meStatus(shop, other)).toBe(401);
    // Whoever asked for the change may know the password: it no longer signs in.
    expect((await login(shop, user.email, user.password)).status).toBe(401);
    // The confirmation link died with the change.
    await expect(shop.services.accounts.confirmEmailChange(confirm)).rejects.toMatchObject({ code: "invalid_link" });
    // The link works once.
    await expect(shop.services.accounts.undoEmailChange(undo)).rejects.toMatchObject({ code: "invalid_link" });
    expect(await shop.services.accounts.emailUndoTarget(undo)).toBeUndefined();

    // A reset code went to the old address: the owner sets a new password and signs in.
    const resetMail = (await mailsOf(user.email)).find((m) => m.subject === message(shop, "en", "mail.password_reset.subject"))!;
    const set = await shop.call("POST", "/auth/setPasswordReset", { json: { email: user.email, resetCode: codeIn(resetMail), password: "Harbor-Violet-77" } });
    expect(set.status, set.text).toBe(200);
    const back = await login(shop, user.email, "Harbor-Violet-77");
    expect(back.status).toBe(200);
    expect((await shop.call("GET", "/v2/web/user/me", { token: back.body.token })).body.user).toMatchObject({ email: user.email, pending_email: null });
  });

  it("after the confirmation: brings the old address back; an intruder's second change cannot undo the owner's undo", async () => {
    const owner = await registerUser(shop);
    const [first, second] = [uniqueEmail("intruder"), uniqueEmail("intruder")];
    // An intruder with the owner's session moves the address twice, confirming both.
    expect((await changeEmail(owner, first)).status).toBe(200);
    await shop.services.accounts.confirmEmailChange(await confirmTokenFor(first));
    const ownersUndo = await undoTokenFor(owner.email);
    expect((await changeEmail(owner, second)).status).toBe(200);
    await shop.services.accounts.confirmEmailChange(await confirmTokenFor(second));
    const intrudersUndo = await undoTokenFor(first);
    expect((await shop.call("GET", "/v2/web/user/me", { token: owner.token })).body.user.email).toBe(second);

    expect(await shop.services.accounts.undoEmailChange(ownersUndo)).toEqual({ email: owner.email });
    // The intruder's later link (to an address of theirs) died with it.
    await expect(shop.services.accounts.undoEmailChange(intrudersUndo)).rejects.toMatchObject({ code: "invalid_link" });
    expect((await login(shop, second, owner.password)).status).toBe(401);
    expect((await login(shop, first, owner.password)).status).toBe(401);
    const notes = await shop.call("GET", "/v2/web/user/notification", { token: (await signInAfterReset(owner)).token });
    // Newest first: the new password, then the address brought back.
    expect(notes.body.notifications.slice(0, 2).map((n: { type: string }) => n.type)).toEqual(["password_changed", "email_changed"]);
    expect(notes.body.notifications[1].content).toBe(message(shop, "en", "notification.email_changed.content", { email: owner.email }));
  });

  it("refuses while the old address belongs to another account, and keeps the link; dies after 7 days", async () => {
    const user = await registerUser(shop);
    const wanted = uniqueEmail("wanted");
    expect((await changeEmail(user, wanted)).status).toBe(200);
    await shop.services.accounts.confirmEmailChange(await confirmTokenFor(wanted));
    const undo = await undoTokenFor(user.email);
    // Someone registers the freed old address: nothing changes, and the link stays usable.
    await registerUser(shop, { email: user.email });
    await expect(shop.services.accounts.undoEmailChange(undo)).rejects.toMatchObject({ code: "email_taken" });
    expect(await meStatus(shop, user.token)).toBe(200);
    expect((await shop.call("GET", "/v2/web/user/me", { token: user.token })).body.user.email).toBe(wanted);
    expect(await shop.services.accounts.emailUndoTarget(undo)).toBe(user.email);
    shop.clock.advance(7 * 24 * HOUR);
    await expect(shop.services.accounts.undoEmailChange(undo)).rejects.toMatchObject({ code: "invalid_link" });
    expect(await meStatus(shop, user.token)).toBe(200);
    await expect(shop.services.accounts.undoEmailChange("not-a-token-of-ours-at-all")).rejects.toMatchObject({ code: "invalid_link" });
  });
});

/** After an undo: the reset code mailed to the restored address sets a password; signs in. */
async function signInAfterReset(user: User): Promise<{ token: string }> {
  const resetMail = (await mailsOf(user.email)).filter((m) => m.subject === message(shop, "en", "mail.password_reset.subject")).at(-1)!;
  const set = await shop.call("POST", "/auth/setPasswordReset", { json: { email: user.email, resetCode: codeIn(resetMail), password: "Harbor-Violet-78" } });
  expect(set.status, set.text).toBe(200);
  const reply = await login(shop, user.email, "Harbor-Violet-78");
  expect(reply.status).toBe(200);
  return { token: reply.body.token as string };
}
