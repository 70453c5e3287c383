// Messages as the shop shows them, on PGlite and PostgreSQL: counts written with each language's
// plural forms (ICU) in stored notifications and on a signed-in page; a stored notification of a
// type this code does not know is left out rather than shown as raw keys; the browser gets
// compiled messages and no message parser (docs/decisions/0007).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { notifications as notificationRows } from "../../db/schema/index.ts";
import { BUILD_DIR } from "../../server/main.ts";
import { useTestApp } from "../kit/app.ts";

// A longest freeze of 21 days needs the genitive singular in Russian ("до 21 дня"), which the
// old key-suffix plurals could not write; a 1-day cooldown needs the singular everywhere.
const shop = useTestApp({ env: { FREEZE_MAX_DAYS: "21", FREEZE_COOLDOWN_DAYS: "1" } });
let serial = 0;

async function registerUser(): Promise<{ id: number; token: string }> {
  const email = `messages-${Date.now().toString(36)}-${++serial}@example.com`;
  const reply = await shop.request("/v2/web/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "Quartz-Lantern-42" }),
  });
  const { token } = (await reply.json()) as { token: string };
  expect(reply.status).toBe(200);
  const me = await shop.request("/v2/web/user/me", { headers: { authorization: `Bearer ${token}` } });
  const { user } = (await me.json()) as { user: { id: number } };
  return { id: user.id, token };
}

async function notificationsIn(token: string, language: string) {
  const reply = await shop.request("/v2/web/user/notification", { headers: { authorization: `Bearer ${token}`, "accept-language": language } });
  expect(reply.status).toBe(200);
  return ((await reply.json()) as { notifications: { type: string; title: string; content: string }[] }).notifications;
}

describe("counts in the reader's language", () => {
  it("stored gift notifications say 1 day, 2 days, 5 days with the language's forms", async () => {
    const user = await registerUser();
    for (const days of [5, 2, 1]) await shop.services.notifications.create(user.id, "gift_received", { from: "eve", days, game: "Dota 2" });
    await shop.services.notifications.create(user.id, "gift_sent", { to: "bob", days: 21, game: "CS2" });

    expect((await notificationsIn(user.token, "en")).map((n) => n.content)).toEqual([
      "You gave 21 days of CS2 to bob.",
      "eve gave you 1 day of Dota 2.",
      "eve gave you 2 days of Dota 2.",
      "eve gave you 5 days of Dota 2.",
    ]);
    expect((await notificationsIn(user.token, "ru")).map((n) => n.content)).toEqual([
      "Подарок отправлен: 21 день подписки на CS2 для bob.",
      "eve дарит вам 1 день подписки на Dota 2.",
      "eve дарит вам 2 дня подписки на Dota 2.",
      "eve дарит вам 5 дней подписки на Dota 2.",
    ]);
  });

  it("the subscription page writes the freeze rules from the settings with the right case forms", async () => {
    const user = await registerUser();
    const page = await shop.request("/dota2/profile/subscription", { headers: { cookie: `access_token=${user.token}; locale=ru`, accept: "text/html" } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("на срок до 21 дня; после разморозки следующая заморозка возможна через 1 день.");
    expect(html).toContain("<h3>1 день</h3>");
    expect(html).toContain("<h3>7 дней</h3>");

    const english = await shop.request("/en/dota2/profile/subscription", { headers: { cookie: `access_token=${user.token}; locale=en`, accept: "text/html" } });
    expect(await english.text()).toContain("for up to 21 days; after an unfreeze, the next freeze is possible in 1 day.");
  });
});

describe("stored notifications", () => {
  it("leave out a type this code does not know, instead of showing its message keys", async () => {
    const user = await registerUser();
    await shop.services.notifications.create(user.id, "password_changed");
    await shop.services.db.insert(notificationRows).values({ userId: user.id, type: "retired_type", data: {} });
    const shown = await notificationsIn(user.token, "en");
    expect(shown.map((n) => n.type)).toEqual(["password_changed"]);
    expect(JSON.stringify(shown)).not.toContain("notification.");
  });
});

describe("the browser", () => {
  it("gets compiled messages and no ICU parser in any script", async () => {
    // A page that hydrates (its copy button) preloads the catalogue.
    const user = await registerUser();
    const page = await (await shop.request("/en/dota2/profile/referral", { headers: { accept: "text/html", cookie: `access_token=${user.token}` } })).text();
    const url = /<link[^>]+id="i18n-messages"[^>]+href="([^"]+)"|<link[^>]+href="([^"]+)"[^>]+id="i18n-messages"/.exec(page);
    const href = url?.[1] ?? url?.[2];
    expect(href).toMatch(/^\/_i18n\/[0-9a-f]{12}\/en\/messages\.json$/);
    const messages = (await (await shop.request(href!)).json()) as Record<string, unknown>;
    expect(messages["plural.days"]).toEqual([["count", "plural", { one: [0, " day"], other: [0, " days"] }, 0]]);
    expect(messages["nav.home"]).toBe("Home");

    const assets = path.join(BUILD_DIR, "client", "assets");
    const scripts = readdirSync(assets).filter((name) => name.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(0);
    // The parser's error kinds are strings that survive minification.
    const withParser = scripts.filter((name) => /EXPECT_ARGUMENT_CLOSING_BRACE|icu-messageformat-parser/.test(readFileSync(path.join(assets, name), "utf8")));
    expect(withParser).toEqual([]);
  });
});
