// Times in the buyer's zone (docs/product/routes.md#dates-and-amounts): every page carries the
// little script that writes the `tz` cookie; a signed-in page shows its times in that zone with the
// zone's short name, UTC until it is known; the zone is kept on the account for the times in mails.
import { runInNewContext } from "node:vm";
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

  it("is named on a signed-in page, the zone its times were drawn in; a guest's page names none", async () => {
    const { user } = await buyer();
    expect(await page("/en/dota2/profile/subscription", `access_token=${user.token}; tz=Asia%2FTokyo`)).toContain(' data-tz="Asia/Tokyo"');
    // Without the cookie: the zone kept on the account, which the script compares all the same.
    expect(await page("/en/dota2/profile", `access_token=${user.token}`)).toContain(' data-tz="Asia/Tokyo"');
    expect(await page("/en/dota2/profile", `access_token=${(await buyer()).user.token}`)).toContain(' data-tz="UTC"');
    for (const path of ["/en", "/en/auth", "/en/dota2"]) expect(await page(path, "tz=Asia%2FTokyo"), path).not.toContain(" data-tz=");
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

/**
 * Runs the time zone's script as a page would, in a browser in `zone`, on a page whose `<html>`
 * names `drawnIn` (or nothing: a guest's page); answers the cookie it leaves and the reloads it asked for.
 */
function runScript(zone: string, options: { cookie?: string; drawnIn?: string; storage?: Map<string, string>; blocked?: boolean; temporal?: boolean }) {
  let cookie = options.cookie ?? "";
  const replaced: string[] = [];
  const storage = options.storage ?? new Map<string, string>();
  const document = {
    documentElement: { getAttribute: (name: string) => (name === "data-tz" ? (options.drawnIn ?? null) : null) },
    get cookie() {
      return cookie;
    },
    set cookie(value: string) {
      if (options.blocked) return;
      const pair = value.split(";")[0]!;
      const name = pair.split("=")[0]!;
      cookie = [...cookie.split("; ").filter((c) => c && !c.startsWith(`${name}=`)), pair].join("; ");
    },
  };
  const formatters: string[] = [];
  runInNewContext(PAGE_SCRIPTS.timeZone, {
    // A browser with Temporal answers from it; one without (Node's own context has none) from a formatter.
    ...(options.temporal ? { Temporal: { Now: { timeZoneId: () => zone } } } : {}),
    Intl: {
      DateTimeFormat: () => {
        formatters.push(zone);
        return { resolvedOptions: () => ({ timeZone: zone }) };
      },
    },
    document,
    location: { protocol: "http:", href: "http://shop.test/en/dota2/profile", replace: (href: string) => replaced.push(href) },
    sessionStorage: { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => storage.set(k, v) },
  });
  return { cookie, replaced, storage, formatters };
}

describe("the time zone's script (docs/decisions/0031-the-zone-before-the-cookie.md)", () => {
  it("writes the cookie when it is missing or stale, and leaves a right one alone", () => {
    expect(runScript("Asia/Tokyo", {}).cookie).toBe("tz=Asia%2FTokyo");
    expect(runScript("Asia/Tokyo", { cookie: "t=abc; tz=America%2FNew_York; locale=en" }).cookie).toBe("t=abc; locale=en; tz=Asia%2FTokyo");
    expect(runScript("Asia/Tokyo", { cookie: "tz=Asia%2FTokyo; t=abc" }).cookie).toBe("tz=Asia%2FTokyo; t=abc");
  });

  it("reads the zone from Temporal where the browser has it, without building a date formatter; from Intl elsewhere", () => {
    const withTemporal = runScript("Asia/Tokyo", { temporal: true });
    expect(withTemporal).toMatchObject({ cookie: "tz=Asia%2FTokyo", formatters: [] });
    expect(runScript("Asia/Tokyo", { temporal: true, drawnIn: "UTC" }).replaced).toEqual(["http://shop.test/en/dota2/profile"]);
    expect(runScript("Asia/Tokyo", {})).toMatchObject({ cookie: "tz=Asia%2FTokyo", formatters: ["Asia/Tokyo"] });
  });

  it("asks again for a signed-in page drawn in another zone, once per zone in a tab", () => {
    const first = runScript("Asia/Tokyo", { drawnIn: "UTC" });
    expect(first.replaced).toEqual(["http://shop.test/en/dota2/profile"]);
    // The page came back still in another zone (a zone the server does not know): no second reload.
    expect(runScript("Asia/Tokyo", { cookie: first.cookie, drawnIn: "UTC", storage: first.storage }).replaced).toEqual([]);
    // A trip later, in the same tab: once more.
    expect(runScript("Europe/Berlin", { cookie: first.cookie, drawnIn: "Asia/Tokyo", storage: first.storage }).replaced).toHaveLength(1);
  });

  it("never reloads a page drawn in the browser's zone, a guest's page, or when the cookie cannot be written", () => {
    expect(runScript("Asia/Tokyo", { drawnIn: "Asia/Tokyo" }).replaced).toEqual([]);
    expect(runScript("Asia/Tokyo", {}).replaced).toEqual([]);
    expect(runScript("Asia/Tokyo", { drawnIn: "UTC", blocked: true }).replaced).toEqual([]);
  });
});
