// The route table (docs/product/routes.md#pages). Every page exists once per language: Russian without a prefix, the
// others under /{lang}. Route ids carry the locale ("en/home") so each copy is its own route.
import { type RouteConfig, type RouteConfigEntry, index, layout, prefix, route } from "@react-router/dev/routes";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../i18n/locales.ts";
import { SITE_PAGES } from "../core/content/slugs.ts";

function pages(locale: Locale): RouteConfigEntry[] {
  const id = (name: string) => ({ id: `${locale}/${name}` });
  return [
    layout("routes/layouts/site.tsx", id("layout-site"), [
      index("routes/storefront/home.tsx", id("home")),
      route("presentation", "routes/storefront/presentation.tsx", id("presentation")),
      // The site pages (docs/product/routes.md#legal-and-support-pages): one module, the page named by the path.
      ...SITE_PAGES.map((slug) => route(slug, "routes/storefront/site-page.tsx", id(slug))),
      // The most specific route wins, whatever the order: ":game" never shadows "auth" or "profile".
      route(":game", "routes/storefront/game.tsx", id("game")),
      route("*", "routes/storefront/not-found.tsx", id("not-found")),
    ]),
    layout("routes/layouts/id.tsx", id("layout-id"), [
      route("auth", "routes/auth/login.tsx", id("auth")),
      route("auth/register", "routes/auth/register.tsx", id("register")),
      route("auth/restore-password", "routes/auth/restore-password.tsx", id("restore-password")),
    ]),
    layout("routes/layouts/empty.tsx", id("layout-empty"), [
      route("auth/sso", "routes/auth/sso.tsx", id("sso")),
      route("auth/confirm-email", "routes/auth/confirm-email.tsx", id("confirm-email")),
      route("auth/undo-email", "routes/auth/undo-email.tsx", id("undo-email")),
      route("auth/verify-email", "routes/auth/verify-email.tsx", id("verify-email")),
    ]),
    route("profile", "routes/profile/redirect.tsx", id("profile-redirect")),
    route(":game/profile", "routes/layouts/profile.tsx", id("layout-profile"), [
      index("routes/profile/overview.tsx", id("profile")),
      route("subscription", "routes/profile/subscription.tsx", id("subscription")),
      route("balance", "routes/profile/balance.tsx", id("balance")),
      route("referral", "routes/profile/referral.tsx", id("referral")),
      route("settings", "routes/profile/settings.tsx", id("settings")),
    ]),
    layout("routes/layouts/purchase.tsx", id("layout-purchase"), [
      route(":game/profile/payment", "routes/profile/payment.tsx", id("payment")),
      route("give/subscription", "routes/purchase/give-subscription.tsx", id("give-subscription")),
    ]),
    // The back office (docs/product/back-office.md#pages): one layout, its sections as children.
    route("admin", "routes/admin/layout.tsx", id("layout-admin"), adminPages(locale)),
    route("payment/paypal", "routes/payment/paypal.tsx", id("payment-paypal")),
    route("payment/demo", "routes/payment/demo.tsx", id("payment-demo")),
  ];
}

/**
 * The back office's sections (the nav is app/routes/admin/layout.tsx's ADMIN_SECTIONS). The
 * dashboard is the index (`routes/admin/dashboard.tsx`), the catalogue `routes/admin/catalogue*.tsx`
 * and delivery `routes/admin/delivery*.tsx` join here; until the index exists, /admin shows the
 * layout's welcome.
 */
function adminPages(locale: Locale): RouteConfigEntry[] {
  const id = (name: string) => ({ id: `${locale}/admin-${name}` });
  return [
    index("routes/admin/dashboard.tsx", id("dashboard")),
    route("catalogue", "routes/admin/catalogue.tsx", id("catalogue")),
    route("customers", "routes/admin/customers.tsx", id("customers")),
    route("customers/:id", "routes/admin/customer.tsx", id("customer")),
    route("payments", "routes/admin/payments.tsx", id("payments")),
    route("payments/:id", "routes/admin/payment.tsx", id("payment")),
    route("compensation", "routes/admin/compensation.tsx", id("compensation")),
    route("audit", "routes/admin/audit.tsx", id("audit")),
    // Delivery (docs/product/delivery.md#operator-calls): builds and webhook endpoints, owners only, under their tabs.
    route("delivery", "routes/admin/delivery-layout.tsx", id("delivery"), [
      route("builds", "routes/admin/delivery-builds.tsx", id("delivery-builds")),
      route("webhooks", "routes/admin/delivery-webhooks.tsx", id("delivery-webhooks")),
    ]),
  ];
}

export default [...pages(DEFAULT_LOCALE), ...LOCALES.filter((l) => l !== DEFAULT_LOCALE).flatMap((l) => prefix(l, pages(l)))] satisfies RouteConfig;
