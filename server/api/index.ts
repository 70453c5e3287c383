// The JSON API (docs/product/api.md): parse → call the core → envelope.
import { Hono } from "hono";
import type { HonoEnv } from "../context.ts";
import { ok } from "../http/envelope.ts";
import { accountRoutes } from "./accounts.ts";
import { isApiPath } from "./paths.ts";
import { commerceRoutes } from "./commerce.ts";

export function apiRoutes() {
  const api = new Hono<HonoEnv>();

  // Answers depend on the session or change state: never cached (docs/product/api.md#caching).
  api.use("*", async (c, next) => {
    await next();
    if (isApiPath(c.req.path)) c.header("Cache-Control", "no-store");
  });

  // "Other state-changing calls": 60 a minute per user, 600 per client address (docs/product/api.md#rate-limits).
  api.on(["POST", "PUT", "PATCH", "DELETE"], ["/v2/web/user/*", "/v2/web/payment/paypal/order", "/v2/web/payment/paypal/capture"], async (c, next) => {
    const { settings, limiter } = c.get("services");
    const info = c.get("info");
    if (info.auth) await limiter.consume(`write:user:${info.auth.user.id}`, settings.RATE_WRITE_USER);
    await limiter.consume(`write:ip:${info.clientIp}`, settings.RATE_WRITE_IP);
    return next();
  });

  api.route("/", accountRoutes());
  api.route("/", commerceRoutes());

  api.get("/v2/web/frontend/data", async (c) => {
    const { services, info } = { services: c.get("services"), info: c.get("info") };
    const { catalog, accounts, ledger, subscriptions } = services;
    const auth = info.auth;
    const [transactions, subscriptionList] = auth
      ? await Promise.all([ledger.list(auth.user.id, { limit: 10 }), subscriptions.list(auth.user.id)])
      : [[], []];
    return ok(c, {
      access_token: auth?.token ?? null,
      user: auth ? { ...accounts.view(auth.user), transactions } : null,
      email_preferences: auth ? accounts.emailPreferences(auth.user) : null,
      cheats: catalog.cheats().map((cheat) => ({ id: cheat.id, slug: cheat.slug, name: cheat.name })),
      shopping_area: info.shoppingArea,
      products: catalog.productsForArea(info.shoppingArea),
      subscriptions: subscriptionList,
    });
  });

  return api;
}
