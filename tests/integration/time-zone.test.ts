// Times in the buyer's zone (docs/product/routes.md#dates-and-amounts): every page carries the
// little script that writes the `tz` cookie; a signed-in page shows its times in that zone with the
// zone's short name, UTC until it is known; the zone is kept on the account for the times in mails.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { subscriptions, users } from "../../db/schema/index.ts";
import { formatDate } from "../../i18n/format.ts";
import { PAGE_SCRIPTS } from "../../server/http/page-scripts.ts";
import { runJobsOnce } from "../../server/jobs.ts";
import { PRODUCTS, registerUser, useShop, type User } from "../kit/shop.ts";

const shop = useShop({ pages: true, smtp: true });

async function page(path: string, cookie: string): Promise<string> {
  const res = await shop.request(path, { headers: { cookie } });
  expect(res.status).toBe(200);
  return res.text();
}

async function buyer(): Promise<{ user: User; expiresAt: Date }> {
  const user = await registerUser(shop, { balance: 10_000 });
  const bought = await shop.call("POST", "/v2/web/user/purchase", { token: user.token, json: { product_id: PRODUCTS.dota2.days7.id } });
  expect(bought.status, bought.text).toBe(200);
  const [sub] = await shop.services.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
  return { user, expiresAt: sub!.expiresAt };
}

async function storedZone(userId: number): Promise<string | null> {
  const [row] = await shop.services.db.select({ timeZone: users.timeZone }).from(users).where(eq(users.id, userId));
  return row!.timeZone;
}

describe("the tz cookie", () => {
  it("is written by an inline script on every page, guest or signed in, hydrating or not", async () => {
    const { user } = await buyer();
    for (const [path, cookie] of [
      ["/en", "locale=en"],
      ["/en/auth", ""],
      ["/en/dota2/profile/subscription", `access_token=${user.token}`],
    ] as const) {
      const html = await page(path, cookie);
      expect(html, path).toContain(`<script>${PAGE_SCRIPTS.timeZone}</script>`);
    }
  });

  it("shows a signed-in page's times in the visitor's zone, with the zone's name in the page's language", async () => {
    const { user, expiresAt } = await buyer();
    const html = await page("/en/dota2/profile/subscription", `access_token=${user.token}; tz=Asia%2FTokyo`);
    const tokyo = formatDate(expiresAt, { timeZone: "Asia/Tokyo", locale: "en" });
    expect(tokyo).toMatch(/ GMT\+9$/);
    expect(html).toContain(tokyo);
    const ru = await page("/dota2/profile/subscription", `access_token=${user.token}; tz=America%2FNew_York`);
    expect(ru).toContain(formatDate(expiresAt, { timeZone: "America/New_York", locale: "ru" }));
  });

  it("speaks UTC, named, until the zone is known, and ignores a zone nobody has", async () => {
    const { user, expiresAt } = await buyer();
    const utc = formatDate(expiresAt, { timeZone: "UTC", locale: "en" });
    expect(await page("/en/dota2/profile/subscription", `access_token=${user.token}`)).toContain(utc);
    expect(await page("/en/dota2/profile/subscription", `access_token=${user.token}; tz=Mars%2FOlympus`)).toContain(utc);
    expect(await storedZone(user.id)).toBeNull();
  });

  it("is kept on the account, which later pages and mails use", async () => {
    const { user, expiresAt } = await buyer();
    await page("/en/dota2/profile", `access_token=${user.token}; tz=Asia%2FKolkata`);
    expect(await storedZone(user.id)).toBe("Asia/Kolkata");
    // Another device without the cookie yet: the stored zone.
    expect(await page("/en/dota2/profile/subscription", `access_token=${user.token}`)).toContain(formatDate(expiresAt, { timeZone: "Asia/Kolkata", locale: "en" }));

    // The expiry mail (the job announces a pass that ends within three days) names the time there.
    const soon = new Date(shop.clock.now().getTime() + 86_400_000);
    await shop.services.db.update(subscriptions).set({ expiresAt: soon }).where(eq(subscriptions.userId, user.id));
    await runJobsOnce(shop.services);
    const mail = await shop.smtp.waitFor((m) => m.to.includes(user.email) && m.subject.includes("Dota"));
    expect(mail.text).toContain(formatDate(soon, { timeZone: "Asia/Kolkata", locale: "en" }));
  });
});
