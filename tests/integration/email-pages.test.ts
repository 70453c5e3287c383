// The pages that send mail to an address the user typed (issue 7 points 3, 9 and 13), posted like
// a browser without JavaScript, with real mail through the loopback SMTP server: the settings
// page's e-mail change (limited per user, one counter with the API), the undo page of the old
// address (a GET changes nothing), and the gift page, which says "sent to that address" whether
// or not the address has an account.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessageKey, Params } from "../../i18n/translate.ts";
import { startTestApp, type TestApp } from "../kit/app.ts";
import { startSmtpServer, type TestSmtpServer } from "../kit/smtp.ts";
import { PRODUCTS } from "../kit/shop.ts";
import { forgetWelcomeMail, verifyEmail } from "../kit/verification.ts";

const PASSWORD = "Quartz-Lantern-42";
const RATE_LIMITED_EN = "Too many attempts. Please wait and try again.";
let shop: TestApp & { stop(): Promise<void> };
let smtp: TestSmtpServer;
let origin: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  shop = await startTestApp({ env: { SMTP_URL: smtp.url, TRUST_PROXY: "1" } });
  origin = shop.services.settings.PUBLIC_URL;
});
afterAll(async () => {
  await shop?.stop();
  await smtp?.stop();
});

const RUN = randomBytes(3).toString("hex");
let serial = 0;
const uniqueEmail = (tag: string) => `${tag}-${RUN}-${++serial}@example.com`;
const uniqueIp = () => `10.77.${serial >> 8}.${++serial % 256}`;
const t = (key: MessageKey, params?: Params) => shop.services.catalogs.t("en")(key, params);

function form(path: string, fields: Record<string, string>, cookie?: string) {
  return shop.request(path, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin,
      "sec-fetch-site": "same-origin",
      "x-forwarded-for": uniqueIp(),
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

async function newUser(options: { username?: string } = {}) {
  const email = uniqueEmail("page");
  const res = await shop.request("/v2/web/register", {
    method: "POST",
    headers: { "content-type": "application/json", "accept-language": "en", "x-forwarded-for": uniqueIp() },
    body: JSON.stringify({ email, password: PASSWORD, ...options }),
  });
  expect(res.status).toBe(200);
  const { token } = (await res.json()) as { token: string };
  const me = await shop.request("/v2/web/user/me", { headers: { authorization: `Bearer ${token}` } });
  const { user } = (await me.json()) as { user: { id: number } };
  // The address proven by the welcome mail's link, which the counts of this file leave out.
  await verifyEmail(shop, email);
  await forgetWelcomeMail(shop, smtp, email, t("mail.welcome.subject"));
  return { email, token, id: user.id, cookie: `access_token=${token}` };
}

async function mailsTo(address: string) {
  await shop.services.background.drain();
  return smtp.messages.filter((m) => m.envelope.to.includes(address));
}

/** The visible text of a page, for comparing answers. */
const textOf = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ");

describe("the settings page's e-mail change", () => {
  it("sends at most 5 mails to typed addresses for 100 posts, then answers 429 with the message on the page", async () => {
    const user = await newUser();
    const typed = Array.from({ length: 100 }, () => uniqueEmail("typed"));
    const statuses: number[] = [];
    for (const email of typed) {
      const res = await form("/en/dota2/profile/settings", { intent: "email", email }, user.cookie);
      statuses.push(res.status);
      const html = await res.text();
      if (res.status === 429) {
        expect(textOf(html)).toContain(RATE_LIMITED_EN);
        expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      }
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    await shop.services.background.drain();
    const toTyped = smtp.messages.filter((m) => m.envelope.to.some((to) => typed.includes(to)));
    expect(toTyped).toHaveLength(5);
    // The old address was told of each of the five.
    expect(await mailsTo(user.email)).toHaveLength(5);
  });

  it("shares one counter with the API", async () => {
    const user = await newUser();
    const api = (email: string) =>
      shop.request("/v2/web/user/changeEmail", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${user.token}`, "accept-language": "en" },
        body: JSON.stringify({ email }),
      });
    for (let i = 0; i < 3; i++) expect((await form("/en/dota2/profile/settings", { intent: "email", email: uniqueEmail("mixed") }, user.cookie)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await api(uniqueEmail("mixed"))).status).toBe(200);
    expect((await api(uniqueEmail("mixed"))).status).toBe(429);
    const page = await form("/en/dota2/profile/settings", { intent: "email", email: uniqueEmail("mixed") }, user.cookie);
    expect(page.status).toBe(429);
    expect(textOf(await page.text())).toContain(RATE_LIMITED_EN);
  });

  it("answers a taken address on the page exactly like a free one", async () => {
    const [user, control, owner] = [await newUser(), await newUser(), await newUser()];
    const free = uniqueEmail("free");
    const taken = await form("/en/dota2/profile/settings", { intent: "email", email: owner.email }, user.cookie);
    const open = await form("/en/dota2/profile/settings", { intent: "email", email: free }, control.cookie);
    expect(taken.status).toBe(200);
    expect(open.status).toBe(200);
    const same = (html: string, address: string, self: string) => textOf(html).replaceAll(address, "<new>").replaceAll(self, "<old>");
    expect(same(await taken.text(), owner.email, user.email)).toBe(same(await open.text(), free, control.email));
  });
});

describe("the undo page of the old address", () => {
  it("shows what it will do on GET and changes nothing; the POST undoes the change", async () => {
    const user = await newUser();
    const wanted = uniqueEmail("wanted");
    expect((await form("/en/dota2/profile/settings", { intent: "email", email: wanted }, user.cookie)).status).toBe(200);
    const notice = (await mailsTo(user.email)).find((m) => m.subject === t("mail.email_changed_notice.subject"))!;
    const link = (notice.text ?? "").match(/https?:\/\/\S+\/auth\/undo-email\?token=[A-Za-z0-9_-]+/)![0];
    const path = new URL(link).pathname + new URL(link).search;
    const token = new URL(link).searchParams.get("token")!;

    // A mail scanner opens the link twice: nothing happens.
    for (let i = 0; i < 2; i++) {
      const page = await shop.request(path);
      expect(page.status).toBe(200);
      const text = textOf(await page.text());
      expect(text).toContain(t("auth.undoEmail.lead", { email: user.email }));
    }
    const me = await shop.request("/v2/web/user/me", { headers: { authorization: `Bearer ${user.token}` } });
    expect(((await me.json()) as { user: { pending_email: string } }).user.pending_email).toBe(wanted);

    const undone = await form("/en/auth/undo-email", { token });
    expect(undone.status).toBe(200);
    expect(textOf(await undone.text())).toContain(t("auth.undoEmail.done", { email: user.email }));
    expect((await shop.request("/v2/web/user/me", { headers: { authorization: `Bearer ${user.token}` } })).status).toBe(401);
    expect((await mailsTo(user.email)).some((m) => m.subject === t("mail.password_reset.subject"))).toBe(true);

    // Spent: the page says so, on GET and on POST.
    expect(textOf(await (await shop.request(path)).text())).toContain(t("auth.undoEmail.invalid"));
    const again = await form("/en/auth/undo-email", { token });
    expect(again.status).toBe(400);
    expect(textOf(await again.text())).toContain(t("auth.undoEmail.invalid"));
  });
});

describe("the gift page, by e-mail", () => {
  it("says the same for a registered and an unknown address, and never names the recipient's account", async () => {
    const giver = await newUser({ username: `giver_${RUN}` });
    await shop.services.db.transaction((tx) => shop.services.ledger.post(tx, { userId: giver.id, type: "topup", amount: 5000, paid: 5000, source: "system" }, new Date()));
    const recipient = await newUser({ username: `friend_${RUN}` });
    const unknown = uniqueEmail("nobody");
    const give = (to: string) => form("/en/give/subscription", { intent: "give", product: String(PRODUCTS.dota2.days7.id), recipient: to }, giver.cookie);
    const [known, stranger] = [await give(recipient.email), await give(unknown)];
    expect(known.status).toBe(200);
    expect(stranger.status).toBe(200);
    const [knownText, strangerText] = [textOf(await known.text()), textOf(await stranger.text())];
    const sent = (to: string) => t("gift.give.sentToEmail", { recipient: to, days: 7, game: "Dota 2" });
    expect(knownText).toContain(sent(recipient.email));
    expect(strangerText).toContain(sent(unknown));
    expect(knownText).not.toContain(`friend_${RUN}`);
    // The pages differ only by the address and the balance shown.
    const same = (text: string, to: string) => text.replaceAll(to, "<to>").replace(/\$\d+\.\d\d/g, "$…");
    expect(same(knownText, recipient.email)).toBe(same(strangerText, unknown));
  });
});
