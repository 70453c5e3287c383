// The JSON API (docs/product/api.md): parse → call the core → envelope.
import { Hono } from "hono";
import type { HonoEnv } from "../context.ts";
import { accountRoutes } from "./accounts.ts";
import { isApiPath } from "./paths.ts";
import { commerceRoutes } from "./commerce.ts";
import { adminRoutes } from "./admin.ts";
import { catalogueRoutes } from "./catalogue.ts";
import { deliveryRoutes } from "./delivery.ts";
import { NO_STORE } from "../http/envelope.ts";
import { bearerToken, sessionToken, signIn } from "../middleware/session.ts";
import { emailPreferencesDto, userDto } from "./wire/accounts.ts";
import { productDto, subscriptionsDto, transactionDto } from "./wire/commerce.ts";
import type { Transaction } from "../../core/ledger/index.ts";

/** The JSON of a user's latest transactions, written once per list that frontend/data keeps (docs/decisions/0076-own-rows-by-version.md). */
const writtenTransactions = new WeakMap<readonly Transaction[], string>();
function transactionsJson(list: readonly Transaction[]): string {
  let json = writtenTransactions.get(list);
  if (json === undefined) {
    json = JSON.stringify(list.map(transactionDto));
    writtenTransactions.set(list, json);
  }
  return json;
}

export function apiRoutes() {
  const api = new Hono<HonoEnv>();

  // Answers depend on the session or change state: never cached (docs/product/api.md#caching).
  api.use("*", async (c, next) => {
    await next();
    // Most answers carry it already (`ok`, `failure`): setting it again would rebuild them.
    if (isApiPath(c.req.path) && c.res.headers.get("Cache-Control") !== "no-store") c.header("Cache-Control", "no-store");
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
    // The session middleware leaves this route alone: its lookup also reads the version of the user's row, transactions
    // and subscriptions, which this process keeps by version (docs/decisions/0076-own-rows-by-version.md).
    const token = sessionToken(c);
    const found = token ? await services.frontendDataSession(token) : null;
    if (token) await signIn(c, found, token);
    const auth = info.auth;
    const { transactions, subscriptionRows } = auth && found ? found : { transactions: [], subscriptionRows: [] };
    // docs/product/api.md#front-end-data: the Bearer token the request came with; null for the cookie alone, so that a page
    // script never reads the HttpOnly session.
    const accessToken = auth && bearerToken(c) === auth.token ? auth.token : null;
    // The envelope `ok` (server/http/envelope.ts) writes, with the user's transactions as the JSON written once for as
    // long as they are kept.
    const user = auth ? `${JSON.stringify(userDto(accounts.user(auth.user))).slice(0, -1)},"transactions":${transactionsJson(transactions)}}` : "null";
    const rest = JSON.stringify({
      email_preferences: auth ? emailPreferencesDto(accounts.emailPreferences(auth.user)) : null,
      cheats: catalog.cheats().map((cheat) => ({ id: cheat.id, slug: cheat.slug, name: cheat.name })),
      shopping_area: info.shoppingArea,
      products: catalog.productsForArea(info.shoppingArea).map(productDto),
      subscriptions: subscriptionsDto(services.subscriptions.viewAll(subscriptionRows)),
    });
    return c.body(`{"status":true,"access_token":${JSON.stringify(accessToken)},"user":${user},${rest.slice(1)}`, 200, { "Content-Type": "application/json", ...NO_STORE });
  });

  return api;
}
