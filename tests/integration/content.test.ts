// What a game's page sells (docs/product/data.md#game-content, issue 9 point 6): the demo games'
// texts in all seven languages, seeded once and never over an operator's; the page showing them
// with the status, the last update, the plans with their savings and "Extend" for a holder; an
// operator's change showing at once; a hidden game having no page; the illustrations served.
import { existsSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { cheats, gameTexts } from "../../db/schema/index.ts";
import { DEMO_GAME_TEXTS } from "../../db/content/index.ts";
import { seedCatalog } from "../../db/seed.ts";
import { LOCALES, localePath, type Locale } from "../../i18n/locales.ts";
import { formatDate, formatMoney } from "../../i18n/format.ts";
import { GAMES, PRODUCTS, registerUser, useShop } from "../kit/shop.ts";
import { pageText } from "../kit/html.ts";

const shop = useShop({ pages: true });
const t = (locale: Locale) => shop.services.catalogs.t(locale);
const publicDir = path.resolve(import.meta.dirname, "../../public");

async function open(pathname: string, cookie?: string) {
  const res = await shop.request(pathname, { headers: cookie ? { cookie } : {} });
  const html = await res.text();
  return { status: res.status, html, text: pageText(html) };
}

describe("the demo games' texts", () => {
  it.each(LOCALES)("are seeded in %s for every demo game, complete, with illustrations that exist", (locale) => {
    for (const game of Object.values(GAMES)) {
      const content = shop.services.catalog.gameContent(game.id, locale)!;
      expect(content.locale, `${game.slug} ${locale}`).toBe(locale);
      expect(content.name).toBe(game.name);
      expect(content.description.length).toBeGreaterThan(60);
      expect(content.features).toHaveLength(5);
      expect(content.requirements.length).toBeGreaterThanOrEqual(4);
      expect(content.modes.length).toBeGreaterThanOrEqual(3);
      expect(content.faq.length).toBeGreaterThanOrEqual(4);
      // Newest release first, each with a day and what changed.
      expect(content.changelog.length).toBeGreaterThanOrEqual(3);
      const days = content.changelog.map((r) => r.date);
      expect([...days].sort().reverse()).toEqual(days);
      for (const release of content.changelog) expect(release.notes.length).toBeGreaterThan(0);
      // Our own artwork: files of public/media, each with a text alternative in the language.
      expect(content.media).toHaveLength(3);
      for (const media of content.media) {
        expect(media.src).toMatch(/^\/media\/games\/[a-z0-9]+\/[a-z-]+\.svg$/);
        expect(existsSync(path.join(publicDir, media.src))).toBe(true);
        expect(media.alt.length).toBeGreaterThan(10);
      }
    }
  });

  it("are written for each language, not copied from English", () => {
    for (const locale of LOCALES.filter((l) => l !== "en")) {
      for (const slug of ["dota2", "minecraft", "cs2"] as const) {
        const own = DEMO_GAME_TEXTS[locale][slug];
        const english = DEMO_GAME_TEXTS.en[slug];
        expect(own.description, `${slug} ${locale}`).not.toBe(english.description);
        for (const [i, feature] of own.features.entries()) expect(feature.text).not.toBe(english.features[i]!.text);
        for (const [i, item] of own.faq.entries()) expect(item.answer).not.toBe(english.faq[i]!.answer);
      }
    }
  });

  it("are never written over: loading the demo data again keeps an operator's text", async () => {
    const { db } = shop.services;
    await db.update(gameTexts).set({ tagline: "An operator's own tagline." }).where(eq(gameTexts.cheatId, GAMES.minecraft.id));
    await seedCatalog(db, shop.services.settings.SHOP_CURRENCY);
    const rows = await db.select({ tagline: gameTexts.tagline }).from(gameTexts).where(eq(gameTexts.cheatId, GAMES.minecraft.id));
    expect(rows).toHaveLength(LOCALES.length);
    for (const row of rows) expect(row.tagline).toBe("An operator's own tagline.");
    await shop.services.catalog.reload();
  });
});

describe("a game's page", () => {
  it.each(LOCALES)("in %s shows what is sold: texts, status with the last update, plans with their savings", async (locale) => {
    const page = await open(localePath(locale, "/cs2"));
    expect(page.status).toBe(200);
    const content = shop.services.catalog.gameContent(GAMES.cs2.id, locale)!;
    const cheat = shop.services.catalog.cheatById(GAMES.cs2.id)!;
    // The content's no-break spaces (Russian short words) are folded like the page's own.
    expect(page.text).toContain(pageText(content.tagline));
    expect(page.text).toContain(pageText(content.description));
    for (const f of content.features) expect(page.text).toContain(pageText(f.title));
    for (const m of content.modes) expect(page.text).toContain(pageText(m.name));
    for (const r of content.requirements) expect(page.text).toContain(pageText(r.value));
    for (const q of content.faq) expect(page.text).toContain(pageText(q.question));
    for (const release of content.changelog) expect(page.text).toContain(t(locale)("game.changelog.version", { version: release.version }));
    for (const m of content.media) expect(page.html).toContain(`src="${m.src}"`);
    // The demo CS2 is being updated: its badge, the day of its last update and the operator's note.
    expect(cheat.status).toBe("updating");
    expect(page.text).toContain(t(locale)("game.status.updating"));
    expect(page.text).toContain(t(locale)("game.updated", { date: formatDate(cheat.lastUpdatedAt, { time: false }) }));
    expect(page.text).toContain(content.statusNote);
    // Every plan but the 1-day one saves per day against it; one plan is emphasised.
    const base = PRODUCTS.cs2.days1;
    for (const plan of [PRODUCTS.cs2.days7, PRODUCTS.cs2.days30, PRODUCTS.cs2.days90]) {
      const saving = Math.round(base.price - plan.price / plan.days);
      const percent = Math.round((100 * (base.price - plan.price / plan.days)) / base.price);
      // (The page's text has its no-break spaces folded, as pageText folds every space.)
      expect(page.text).toContain(pageText(t(locale)("game.product.saving", { amount: formatMoney(saving, "USD", locale), percent })));
    }
    expect(page.html.match(/class="card plan plan-best"/g)).toHaveLength(1);
    expect(page.html).toContain(`<html lang="${locale === "cn" ? "zh-CN" : locale}"`);
  });

  it("says Buy to a guest and Extend to a holder, with when the pass ends", async () => {
    const guest = await open("/en/dota2");
    expect(guest.text).toContain(t("en")("game.product.buy"));
    expect(guest.text).not.toContain(t("en")("game.product.extend"));

    const buyer = await registerUser(shop, { balance: 5000 });
    const bought = await shop.call("POST", "/v2/web/user/purchase", { token: buyer.token, json: { product_id: PRODUCTS.dota2.days7.id } });
    expect(bought.status, bought.text).toBe(200);
    const expiresAt = new Date(bought.body.subscriptions.find((s: { cheat_id: number }) => s.cheat_id === GAMES.dota2.id).expires_at);
    // The end is a time: in the buyer's zone, named (docs/product/routes.md#dates-and-amounts).
    const holder = await open("/en/dota2", `access_token=${buyer.token}; tz=Asia%2FTokyo`);
    expect(holder.text).toContain(t("en")("game.subscriber.active", { date: formatDate(expiresAt, { timeZone: "Asia/Tokyo", locale: "en" }) }));
    expect(holder.html).toContain(`aria-label="${t("en")("game.product.extendLabel", { days: t("en")("plural.days", { count: 30 }) })}"`);
    expect(holder.html).not.toContain(`aria-label="${t("en")("game.product.buyLabel", { days: t("en")("plural.days", { count: 30 }) })}"`);
    // Another game's page still says Buy to the same visitor.
    expect((await open("/en/minecraft", `access_token=${buyer.token}`)).html).toContain(`aria-label="${t("en")("game.product.buyLabel", { days: t("en")("plural.days", { count: 30 }) })}"`);
  });

  it("shows an operator's change at once, and a hidden game has no page nor a place in the lists", async () => {
    const { db, catalog } = shop.services;
    expect((await open("/en/minecraft")).status).toBe(200); // now in the page cache
    await db.update(cheats).set({ status: "maintenance" }).where(eq(cheats.id, GAMES.minecraft.id));
    await db.update(gameTexts).set({ statusNote: "Back online tonight." }).where(eq(gameTexts.cheatId, GAMES.minecraft.id));
    await catalog.reload();
    const changed = await open("/en/minecraft");
    expect(changed.text).toContain(t("en")("game.status.maintenance"));
    expect(changed.text).toContain("Back online tonight.");

    await db.update(cheats).set({ visible: false }).where(eq(cheats.id, GAMES.minecraft.id));
    await catalog.reload();
    try {
      expect((await open("/en/minecraft")).status).toBe(404);
      expect((await open("/en")).html).not.toContain(`aria-label="${t("en")("home.games.openLabel", { game: "Minecraft" })}"`);
      const sitemap = await (await shop.request("/en/sitemap.xml")).text();
      expect(sitemap).not.toContain("/en/minecraft<");
      expect(sitemap).toContain("/en/dota2<");
    } finally {
      await db.update(cheats).set({ visible: true, status: "working" }).where(eq(cheats.id, GAMES.minecraft.id));
      await catalog.reload();
    }
  });

  it("serves its illustrations as SVG images of ours, cached for a day", async () => {
    const res = await shop.request("/media/games/dota2/cover.svg");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(await res.text()).toMatch(/^<svg /);
    expect((await shop.request("/media/games/dota2/missing.svg")).status).toBe(404);
  });
});
