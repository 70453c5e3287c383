// The back office's catalogue calls, `/v2/admin/games|products|areas|route-rules|pages`
// (docs/product/back-office.md#catalogue): behind the operator guard like every `/v2/admin` call;
// reads for every operator, writes for owners only (`catalog`), each with a reason, audited by the core.
import { Hono, type Context } from "hono";
import {
  AreaCreateSchema,
  AreaUpdateSchema,
  GameCreateSchema,
  GameUpdateSchema,
  ProductCreateSchema,
  ProductsQuerySchema,
  ProductUpdateSchema,
  RouteRuleCreateSchema,
  SitePageParamsSchema,
  SitePageUpdateSchema,
  StatsQuerySchema,
} from "../../core/catalog/manage.schema.ts";
import type { GameTextInput } from "../../core/catalog/manage.ts";
import { ReasonOnlySchema } from "../../core/admin/index.ts";
import { DomainError } from "../../core/shared/errors.ts";
import { IdTextSchema } from "../../core/shared/schema.ts";
import type { Locale } from "../../i18n/locales.ts";
import type { HonoEnv } from "../context.ts";
import { jsonBody, query, validate } from "../http/body.ts";
import { ok } from "../http/envelope.ts";
import { actorOf, operatorGuard, permit } from "../middleware/operator.ts";
import { dashboardDto } from "./wire/dashboard.ts";
import { adminGameDto, adminProductDto, areaDto, gameTextInput, routeRuleDto, sitePageDto } from "./wire/catalogue.ts";

function idParam(c: Context<HonoEnv>): number {
  const parsed = IdTextSchema.safeParse(c.req.param("id"));
  if (!parsed.success) throw new DomainError("not_found");
  return parsed.data;
}

function textsInput(texts: Partial<Record<Locale, Parameters<typeof gameTextInput>[0]>> | undefined): Partial<Record<Locale, GameTextInput>> | undefined {
  if (!texts) return undefined;
  return Object.fromEntries(Object.entries(texts).map(([locale, text]) => [locale, gameTextInput(text!)]));
}

export function catalogueRoutes() {
  const api = new Hono<HonoEnv>();
  const manage = (c: Context<HonoEnv>) => c.get("services").catalogAdmin;
  const guard = operatorGuard();
  // The same guard as the rest of /v2/admin (it runs once, whichever router comes first).
  api.use("/v2/admin/*", (c, next) => (c.get("operator") ? next() : guard(c, next)));
  const owner = permit("catalog");

  // ---- games ----

  api.get("/v2/admin/games", async (c) => ok(c, { games: (await manage(c).games()).map(adminGameDto) }));

  api.get("/v2/admin/games/:id", async (c) => ok(c, { game: adminGameDto(await manage(c).game(idParam(c))) }));

  api.post("/v2/admin/games", owner, async (c) => {
    const { reason, texts, ...input } = await jsonBody(c, GameCreateSchema);
    const game = await manage(c).createGame(actorOf(c), { ...input, texts: textsInput(texts)! }, reason);
    return ok(c, { game: adminGameDto(game) });
  });

  api.patch("/v2/admin/games/:id", owner, async (c) => {
    const id = idParam(c);
    const { reason, texts, ...input } = await jsonBody(c, GameUpdateSchema);
    const game = await manage(c).updateGame(actorOf(c), id, { ...input, texts: textsInput(texts) }, reason);
    return ok(c, { game: adminGameDto(game) });
  });

  // ---- products ----

  api.get("/v2/admin/products", async (c) => {
    const q = query(c, ProductsQuerySchema);
    return ok(c, { products: (await manage(c).products(q.cheat_id)).map(adminProductDto) });
  });

  api.post("/v2/admin/products", owner, async (c) => {
    const { reason, cheat_id, ...input } = await jsonBody(c, ProductCreateSchema);
    return ok(c, { product: adminProductDto(await manage(c).createProduct(actorOf(c), { ...input, cheatId: cheat_id }, reason)) });
  });

  api.patch("/v2/admin/products/:id", owner, async (c) => {
    const id = idParam(c);
    const { reason, ...input } = await jsonBody(c, ProductUpdateSchema);
    return ok(c, { product: adminProductDto(await manage(c).updateProduct(actorOf(c), id, input, reason)) });
  });

  // ---- shopping areas ----

  api.get("/v2/admin/areas", async (c) => ok(c, { areas: (await manage(c).areas()).map(areaDto) }));

  api.post("/v2/admin/areas", owner, async (c) => {
    const { reason, ...input } = await jsonBody(c, AreaCreateSchema);
    return ok(c, { area: areaDto(await manage(c).createArea(actorOf(c), input, reason)) });
  });

  api.patch("/v2/admin/areas/:area", owner, async (c) => {
    const id = c.req.param("area").toLowerCase();
    const { reason, ...input } = await jsonBody(c, AreaUpdateSchema);
    return ok(c, { area: areaDto(await manage(c).updateArea(actorOf(c), id, input, reason)) });
  });

  // ---- route rules ----

  const rules = async (c: Context<HonoEnv>) => ok(c, { rules: (await manage(c).rules()).map(routeRuleDto) });

  api.get("/v2/admin/route-rules", rules);

  api.post("/v2/admin/route-rules", owner, async (c) => {
    const { reason, ...input } = await jsonBody(c, RouteRuleCreateSchema);
    await manage(c).addRule(actorOf(c), input, reason);
    return rules(c);
  });

  api.delete("/v2/admin/route-rules/:id", owner, async (c) => {
    const id = idParam(c);
    const { reason } = await jsonBody(c, ReasonOnlySchema);
    await manage(c).removeRule(actorOf(c), id, reason);
    return rules(c);
  });

  // ---- legal and support texts ----

  api.get("/v2/admin/pages", async (c) => ok(c, { pages: (await manage(c).sitePages()).map(sitePageDto) }));

  api.patch("/v2/admin/pages/:slug/:locale", owner, async (c) => {
    const { slug, locale } = validate(SitePageParamsSchema, c.req.param());
    const { reason, ...input } = await jsonBody(c, SitePageUpdateSchema);
    return ok(c, { page: sitePageDto(await manage(c).writeSitePage(actorOf(c), slug, locale, input, reason)) });
  });

  // ---- the dashboard ----

  api.get("/v2/admin/stats", async (c) => ok(c, dashboardDto(await c.get("services").dashboard.stats(query(c, StatsQuerySchema)))));

  return api;
}
