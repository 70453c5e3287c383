// The JSON API of the spec (§7) and decisions §3: parse → call the core → envelope.
import { Hono } from "hono";
import type { HonoEnv } from "../context.ts";
import { ok } from "../http/envelope.ts";

export function apiRoutes() {
  const api = new Hono<HonoEnv>();

  api.get("/v2/web/frontend/data", (c) => {
    const { services, info } = { services: c.get("services"), info: c.get("info") };
    const { catalog } = services;
    c.header("Cache-Control", "no-store");
    return ok(c, {
      access_token: null,
      user: null,
      email_preferences: null,
      cheats: catalog.cheats().map((cheat) => ({ id: cheat.id, slug: cheat.slug, name: cheat.name })),
      shopping_area: info.shoppingArea,
      products: catalog.productsForArea(info.shoppingArea),
      subscriptions: [],
    });
  });

  return api;
}
