// The pages' finish (issue 9 point 8, docs/product/routes.md#header-and-account-menu): a skip link
// to <main id="main"> on every page, the account menu with sign-out for a signed-in visitor, the
// 404 with its title, suggested games and no canonical or alternates, robots.txt, og:image and a
// game page's Product data with an Offer per plan.
import { describe, expect, it } from "vitest";
import { DEMO } from "../../db/seed.ts";
import { useShop, registerUser } from "../kit/shop.ts";

const shop = useShop({ pages: true });
const en = (key: Parameters<ReturnType<typeof shop.services.catalogs.t>>[0], values?: Record<string, string | number>) => shop.services.catalogs.t("en")(key, values);

async function html(path: string, cookie?: string) {
  const res = await shop.request(path, { headers: { "user-agent": "Mozilla/5.0 Chrome/130.0", ...(cookie ? { cookie } : {}) } });
  return { status: res.status, html: await res.text() };
}

describe("every page", () => {
  it.each(["/en", "/en/dota2", "/en/terms", "/en/auth", "/en/no-such-page"])("%s has a skip link to its <main id=main>", async (path) => {
    const page = await html(path);
    expect(page.html).toContain(`<a class="skip-link" href="#main">${en("nav.skip")}</a>`);
    expect(page.html.match(/<main id="main"/g)).toHaveLength(1);
  });
});

describe("the account menu", () => {
  it("a guest's header offers sign-in; a buyer's has the account menu, with their last game's pages and a sign-out post", async () => {
    const guest = await html("/en/terms");
    expect(guest.html).not.toContain("account-menu");
    const user = await registerUser(shop);
    const cookie = `access_token=${user.token}; game=minecraft`;
    const page = await html("/en/terms", cookie);
    expect(page.status).toBe(200);
    const menu = /<details class="account-menu[^"]*">([\s\S]*?)<\/details>/.exec(page.html)?.[1] ?? "";
    for (const section of ["", "/subscription", "/balance", "/referral", "/settings"]) expect(menu).toContain(`href="/en/minecraft/profile${section}"`);
    const form = /<form [^>]*>\s*<button [^>]*>/.exec(menu)?.[0] ?? "";
    for (const attribute of ['method="post"', 'action="/en/minecraft/profile/settings"', 'type="submit"', 'name="intent"', 'value="signout"']) expect(form).toContain(attribute);

    // The menu's sign-out signs out.
    const out = await shop.request("/en/minecraft/profile/settings", {
      method: "POST",
      headers: { cookie, origin: new URL(shop.services.settings.PUBLIC_URL).origin, "content-type": "application/x-www-form-urlencoded" },
      body: "intent=signout",
      redirect: "manual",
    });
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/en/auth");
    expect((await shop.request("/v2/web/user/me", { headers: { authorization: `Bearer ${user.token}` } })).status).toBe(401);
  });
});

describe("the not-found page", () => {
  it("has a title, suggests the games and names no canonical link or alternates", async () => {
    const page = await html("/en/no-such-page");
    expect(page.status).toBe(404);
    expect(page.html).toContain(`<title>${en("notFound.title")} · NOVA</title>`);
    for (const game of Object.values(DEMO.games)) expect(page.html).toContain(`href="/en/${game.slug}"`);
    expect(page.html).not.toContain('rel="canonical"');
    expect(page.html).not.toContain("hreflang");
    // A real page still names them.
    expect((await html("/en/dota2")).html).toContain('rel="canonical"');
  });
});

describe("for crawlers and link previews", () => {
  it("robots.txt keeps private areas out and names every sitemap", async () => {
    const res = await shop.request("/robots.txt");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    for (const line of ["Disallow: /auth", "Disallow: /en/auth", "Disallow: /*/profile", "Disallow: /payment/", "Disallow: /v2/"]) expect(text.split("\n")).toContain(line);
    expect(text).not.toMatch(/^Disallow: \/$/m);
    expect(text).toContain(`Sitemap: ${shop.services.settings.PUBLIC_URL}/sitemap.xml`);
    expect(text).toContain(`Sitemap: ${shop.services.settings.PUBLIC_URL}/hi/sitemap.xml`);
  });

  it("a game page names og:image and carries Product data with an Offer per plan", async () => {
    const page = await html("/en/dota2");
    expect(page.html).toContain(`<meta property="og:image" content="${shop.services.settings.PUBLIC_URL}/og.png"/>`);
    const json = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(page.html)?.[1];
    expect(json).toBeDefined();
    const product = JSON.parse(json!) as { "@type": string; name: string; offers: { "@type": string; price: string; priceCurrency: string }[] };
    expect(product["@type"]).toBe("Product");
    expect(product.name).toBe(en("game.title", { game: DEMO.games.dota2.name }));
    const plans = Object.values(DEMO.products.dota2);
    expect(product.offers.map((o) => [o["@type"], o.price, o.priceCurrency])).toEqual(plans.map((p) => ["Offer", (p.price / 100).toFixed(2), "USD"]));
  });
});
