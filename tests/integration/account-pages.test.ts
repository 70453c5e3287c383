// The profile pages read the accounts module's domain types as loader data (issue 8, point 3): the
// overview writes the account's createdAt (a Date) with i18n/format.ts and its two-factor state,
// the settings page shows the pending address and the e-mail preferences — rendered on the server
// and in the `.data` answer a client navigation reads.
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { manualClock } from "../../core/shared/clock.ts";
import { formatDate } from "../../i18n/format.ts";
import { useTestApp } from "../kit/app.ts";

const clock = manualClock(new Date("2026-02-03T04:05:06Z"));
const shop = useTestApp({ clock });
const PASSWORD = "Quartz-Lantern-42";
let serial = 0;

async function newUser() {
  const email = `pages-${Date.now().toString(36)}-${++serial}@example.com`;
  const res = await shop.request("/v2/web/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password: PASSWORD }) });
  const { token } = (await res.json()) as { token: string };
  const [row] = await shop.services.db.select().from(users).where(eq(users.email, email));
  return { email, token, id: row!.id, cookie: `access_token=${token}` };
}

async function page(path: string, cookie: string): Promise<string> {
  const res = await shop.request(path, { headers: { cookie } });
  expect(res.status, path).toBe(200);
  return res.text();
}

/** Text as React writes it into HTML. */
const html = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

describe("the profile overview", () => {
  it("writes the account's creation day and its two-factor state", async () => {
    const user = await newUser();
    const t = shop.services.catalogs.t("en");
    const since = t("profile.overview.since", { date: formatDate(new Date("2026-02-03T04:05:06Z"), { time: false }) });
    expect(since).toContain("03.02.2026");
    const overview = await page("/en/dota2/profile", user.cookie);
    expect(overview).toContain(html(since));
    expect(overview).toContain(html(t("profile.overview.enableTwoFa")));
    // The same data for a client navigation.
    const data = await page("/en/dota2/profile.data", user.cookie);
    expect(data).toContain(user.email);

    await shop.services.db.update(users).set({ twoFaEnabled: true }).where(eq(users.id, user.id));
    expect(await page("/en/dota2/profile", user.cookie)).not.toContain(html(t("profile.overview.enableTwoFa")));
  });
});

describe("the settings page", () => {
  it("shows the pending address and the e-mail preferences as stored", async () => {
    const user = await newUser();
    const t = shop.services.catalogs.t("en");
    const wanted = `wanted-${Date.now().toString(36)}-${++serial}@example.com`;
    await shop.services.accounts.changeEmail(user.id, { email: wanted });
    await shop.services.accounts.setEmailPreferences(user.id, { allowMarketing: false, allowSecurity: true });
    const settings = await page("/en/dota2/profile/settings", user.cookie);
    expect(settings).toContain(html(t("settings.email.pending", { email: wanted })));
    const checkbox = (name: string) => new RegExp(`<input[^>]*\\sname="${name}"[^>]*>`).exec(settings)?.[0] ?? "";
    expect(checkbox("allow_security")).toMatch(/type="checkbox".*checked=""/);
    expect(checkbox("allow_marketing")).toMatch(/type="checkbox"/);
    expect(checkbox("allow_marketing")).not.toContain("checked");
  });
});
