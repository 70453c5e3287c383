// The back office's dashboard and catalogue pages (docs/product/back-office.md#pages): a guest is
// sent to sign in, a buyer refused; an owner sees the dashboard's charts (SVG drawn on the server)
// and the catalogue in English and Russian, and a form of the catalogue page changes a price, which
// the storefront shows at once; support sees the page and is refused the write.
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
});
