// The JSON API (docs/product/api.md): parse → call the core → envelope.
import { Hono } from "hono";
import type { HonoEnv } from "../context.ts";
import { ok } from "../http/envelope.ts";
import { accountRoutes } from "./accounts.ts";
import { isApiPath } from "./paths.ts";
import { commerceRoutes } from "./commerce.ts";
import { adminRoutes } from "./admin.ts";
import { catalogueRoutes } from "./catalogue.ts";
import { deliveryRoutes } from "./delivery.ts";
import { bearerToken, sessionToken, signIn } from "../middleware/session.ts";
import { emailPreferencesDto, userDto } from "./wire/accounts.ts";
import { productDto, subscriptionsDto, transactionDto } from "./wire/commerce.ts";

export function apiRoutes() {
  const api = new Hono<HonoEnv>();

  // Answers depend on the session or change state: never cached (docs/product/api.md#caching).
  api.use("*", async (c, next) => {
    await next();
    if (isApiPath(c.req.path)) c.header("Cache-Control", "no-store");
  });

  // The write limits ("other state-changing calls", docs/product/api.md#rate-limits) are taken for every request in
  // server/middleware/write-limit.ts, pages and API alike.

  api.route("/", accountRoutes());
  api.route("/", commerceRoutes());
  api.route("/", adminRoutes());
  api.route("/", catalogueRoutes());
  api.route("/", deliveryRoutes());

  api.get("/v2/web/frontend/data", async (c) => {
    const { services, info } = { services: c.get("services"), info: c.get("info") };
    const { catalog, accounts } = services;
    // The session middleware leaves this route alone: its lookup reads the user's transactions and
    // subscriptions too, one statement for the whole answer (docs/decisions/0056-signed-in-data-in-one-statement.md).
    const token = sessionToken(c);
    const found = token ? await services.frontendDataSession(token) : null;
    if (token) await signIn(c, found, token);
    const auth = info.auth;
    const { transactions, subscriptions } = auth && found ? found : { transactions: [], subscriptions: [] };
    return ok(c, {
      // docs/product/api.md#front-end-data: the Bearer token the request came with; null for the cookie alone, so that a
      // page script never reads the HttpOnly session.
      access_token: auth && bearerToken(c) === auth.token ? auth.token : null,
      user: auth ? { ...userDto(accounts.user(auth.user)), transactions: transactions.map(transactionDto) } : null,
      email_preferences: auth ? emailPreferencesDto(accounts.emailPreferences(auth.user)) : null,
      cheats: catalog.cheats().map((cheat) => ({ id: cheat.id, slug: cheat.slug, name: cheat.name })),
      shopping_area: info.shoppingArea,
      products: catalog.productsForArea(info.shoppingArea).map(productDto),
      subscriptions: subscriptionsDto(subscriptions),
    });
  });

  return api;
}
