// The back office's dashboard and catalogue pages (docs/product/back-office.md#pages): a guest is
// sent to sign in, a buyer refused; an owner sees the dashboard's charts (SVG drawn on the server)
// and the catalogue in English and Russian, and a form of the catalogue page changes a price, which
// the storefront shows at once; support sees the page and is refused the write. Every other form of
// the page (games, texts, areas, route rules, site pages) writes through its intent, and a refusal
// comes back to the form that posted it.
import { describe, expect, it } from "vitest";
import { manualClock } from "../../core/shared/clock.ts";
import { formatMoney } from "../../i18n/format.ts";
import { PRODUCTS, TEST_ORIGIN, useShop } from "../kit/shop.ts";
import { useStaff } from "./admin-kit.ts";

const clock = manualClock(new Date("2026-08-01T00:00:00.000Z"));
const shop = useShop({ clock, pages: true });

const { owner, support, buyer } = useStaff(shop, clock);

const open = async (path: string, token?: string) => {
  const res = await shop.request(path, { headers: token ? { cookie: `access_token=${token}` } : {}, redirect: "manual" });
  return { status: res.status, location: res.headers.get("location"), html: await res.text() };
};

const post = async (path: string, token: string, fields: Record<string, string>) => {
  const res = await shop.request(path, {
    method: "POST",
    headers: { cookie: `access_token=${token}`, origin: TEST_ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, html: await res.text() };
};

const t = (locale: "en" | "ru") => shop.services.catalogs.t(locale);
const escaped = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");

describe("the dashboard and catalogue pages", () => {
  it("send a guest to sign in and refuse a buyer, in the page's language", async () => {
    const guest = await open("/en/admin/catalogue");
    expect(guest.status).toBe(302);
    expect(guest.location).toBe(`/en/auth?redirectTo=${encodeURIComponent("/en/admin/catalogue")}`);
    const bought = await open("/admin", buyer.token);
    expect(bought.status).toBe(403);
    expect(bought.html).toContain(escaped(t("ru")("errors.admin_operators_only")));
  });

  it.each(["en", "ru"] as const)("show an owner the dashboard's charts and the catalogue in %s", async (locale) => {
    const prefix = locale === "ru" ? "" : "/en";
    const dashboard = await open(`${prefix}/admin?from=2026-07-01&to=2026-08-01`, owner.token);
    expect(dashboard.status).toBe(200);
    for (const key of ["adminDashboard.revenuePerDay", "adminDashboard.paymentsPerDay", "adminDashboard.newUsersPerDay", "adminDashboard.heldByGame", "adminDashboard.frozenPerDay"] as const) {
      expect(dashboard.html).toContain(`<svg viewBox="0 0 640 220" role="img" aria-label="${escaped(t(locale)(key))}"`);
    }
    // Bars for each of the 32 days, and a line per game with passes.
    expect((dashboard.html.match(/<rect /g) ?? []).length).toBeGreaterThanOrEqual(32 * 4);
    const catalogue = await open(`${prefix}/admin/catalogue`, owner.token);
    expect(catalogue.status).toBe(200);
    expect(catalogue.html).toContain(escaped(t(locale)("adminCatalogue.products")));
    expect(catalogue.html).toContain("Counter-Strike 2");
  });

  it("change a price through the catalogue page's form; the storefront shows it; support is refused", async () => {
    const product = PRODUCTS.cs2.days30;
    const refused = await post("/en/admin/catalogue", support.token, { intent: "product-update", id: String(product.id), price: "12.34", active: "on", reason: "try" });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain(escaped(t("en")("errors.admin_owner_only")));
    const noReason = await post("/en/admin/catalogue", owner.token, { intent: "product-update", id: String(product.id), price: "12.34", active: "on", reason: "" });
    expect(noReason.status).toBe(400);
    expect(noReason.html).toContain(escaped(t("en")("validation.reason_required")));
    const saved = await post("/en/admin/catalogue", owner.token, { intent: "product-update", id: String(product.id), price: "12.34", active: "on", reason: "autumn price" });
    expect(saved.status).toBe(200);
    expect(saved.html).toContain(escaped(t("en")("adminCatalogue.saved")));
    const page = await open("/en/cs2");
    expect(page.html).toContain(formatMoney(1234, "USD", "en"));
  });

  it("run every form of the catalogue page by its intent; a refusal goes back to the form (and row) that posted it", async () => {
    const manage = shop.services.catalogAdmin;
    const reason = "catalogue forms";
    const save = async (fields: Record<string, string>) => {
      const reply = await post("/en/admin/catalogue", owner.token, { ...fields, reason });
      expect(reply.status, reply.html.slice(0, 200)).toBe(200);
      expect(reply.html).toContain(escaped(t("en")("adminCatalogue.saved")));
    };
    // A new game, its visibility unchecked (no field posted): hidden, with its texts in English.
    const slug = `forms-${process.pid}`;
    await save({ intent: "game-create", slug, name: "Forms Game", locale: "en", status: "updating", order: "5", tagline: "A tagline", description: "A description" });
    const created = (await manage.games()).find((g) => g.slug === slug)!;
    expect(created).toMatchObject({ name: "Forms Game", status: "updating", visible: false, order: 5 });
    expect(created.texts.en).toMatchObject({ name: "Forms Game", tagline: "A tagline", description: "A description" });
    await save({ intent: "game-update", id: String(created.id), status: "working", visible: "on", order: "7" });
    expect((await manage.games()).find((g) => g.id === created.id)).toMatchObject({ status: "working", visible: true, order: 7 });
    // The texts as JSON (the game's, opened by the query): not JSON, or JSON the schema refuses (said by its place), or saved.
    const texts = `/en/admin/catalogue?game=${created.id}&lang=en`;
    const notJson = await post(texts, owner.token, { intent: "game-texts", id: String(created.id), locale: "en", texts: "{not json", reason });
    expect(notJson.status).toBe(400);
    expect(notJson.html).toContain(escaped(t("en")("validation.invalid")));
    const noName = await post(texts, owner.token, { intent: "game-texts", id: String(created.id), locale: "en", texts: JSON.stringify({ name: "", faq: [{ question: "Q?" }] }), reason });
    expect(noName.status).toBe(400);
    expect(noName.html).toContain("<code>name</code>");
    expect(noName.html).toContain("<code>faq[0].answer</code>");
    await save({ intent: "game-texts", id: String(created.id), locale: "en", texts: JSON.stringify({ name: "Forms Game", tagline: "New tagline" }) });
    expect((await manage.games()).find((g) => g.id === created.id)!.texts.en).toMatchObject({ tagline: "New tagline" });
    // An area and its countries, typed as a list.
    await save({ intent: "area-create", id: "forms", name: "Forms area", countries: "de, fr" });
    expect((await manage.areas()).find((a) => a.id === "forms")).toMatchObject({ name: "Forms area", countries: ["DE", "FR"] });
    await save({ intent: "area-update", id: "forms", name: "Forms area 2", countries: "IT" });
    expect((await manage.areas()).find((a) => a.id === "forms")).toMatchObject({ name: "Forms area 2", countries: ["IT"] });
    // A route rule, then removed.
    await save({ intent: "rule-create", from: `/en/forms-${process.pid}`, to: "/en/cs2", status: "301" });
    const rule = (await manage.rules()).find((r) => r.from === `/en/forms-${process.pid}`)!;
    expect(rule).toMatchObject({ to: "/en/cs2", status: 301 });
    await save({ intent: "rule-delete", id: String(rule.id) });
    expect((await manage.rules()).some((r) => r.id === rule.id)).toBe(false);
    // Removed again from an older page: no row of the page is its own, so the message is at the top.
    const gone = await post("/en/admin/catalogue", owner.token, { intent: "rule-delete", id: String(rule.id), reason });
    expect(gone.status).toBe(404);
    expect(gone.html).toContain(escaped(t("en")("errors.route_rule_not_found")));
    // A site page's text, with no summary.
    await save({ intent: "page-write", slug: "terms", locale: "en", title: "Terms (forms)", summary: "", body: "The terms, written by the form." });
    expect((await manage.sitePages()).find((p) => p.slug === "terms" && p.locale === "en")).toMatchObject({ title: "Terms (forms)", summary: "", body: "The terms, written by the form." });
    // A refused row form: the message and the invalid reason in that row's form only.
    const [first, second] = (await manage.products()).slice(0, 2);
    const refused = await post("/en/admin/catalogue", owner.token, { intent: "product-update", id: String(second!.id), price: "abc", active: "on", reason: "" });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain(`id="product-update-${second!.id}-reason" form="product-update-${second!.id}" aria-invalid="true"`);
    expect(refused.html).toContain(`id="product-update-${second!.id}-price" form="product-update-${second!.id}" aria-invalid="true"`);
    expect(refused.html).toContain(`id="product-update-${first!.id}-reason" form="product-update-${first!.id}" aria-describedby=`);
    // An intent the page does not have: no form to answer, the error page.
    expect((await post("/en/admin/catalogue", owner.token, { intent: "game-delete", id: String(created.id), reason })).status).toBe(400);
  });
});
