// The catalogue page's loader and form actions (app/routes/admin/catalogue.tsx), on the server only:
// the page's data, and every form run through the API's schemas and core (app/lib/admin.server.ts).
import { data, type AppLoadContext } from "react-router";
import {
  AreaCreateSchema,
  AreaUpdateSchema,
  GameCreateSchema,
  GameUpdateSchema,
  ProductCreateSchema,
  ProductUpdateSchema,
  RouteRuleCreateSchema,
  SitePageParamsSchema,
  SitePageUpdateSchema,
} from "../../core/catalog/manage.schema.ts";
import { ReasonOnlySchema } from "../../core/admin/index.ts";
import { SITE_PAGES } from "../../core/content/slugs.ts";
import { minorDigits } from "../../core/shared/money.ts";
import { LOCALES, type Locale } from "../../i18n/locales.ts";
import { gameTextInput } from "../../server/api/wire/catalogue.ts";
import { requireOperatorPage, runForm } from "./admin.server.ts";

type Args = { context: AppLoadContext; request: Request };

export async function catalogueData({ context, request }: Args) {
  const operator = requireOperatorPage(context, request);
  const { services, t } = context;
  const manage = services.catalogAdmin;
  const [games, products, areas, rules, pages] = await Promise.all([manage.games(), manage.products(), manage.areas(), manage.rules(), manage.sitePages()]);
  const q = new URL(request.url).searchParams;
  const gameId = Number(q.get("game") ?? games[0]?.id ?? 0);
  const lang = (LOCALES as readonly string[]).includes(q.get("lang") ?? "") ? (q.get("lang") as Locale) : context.locale;
  const page = (SITE_PAGES as readonly string[]).includes(q.get("page") ?? "") ? (q.get("page") as (typeof SITE_PAGES)[number]) : "terms";
  const plang = (LOCALES as readonly string[]).includes(q.get("plang") ?? "") ? (q.get("plang") as Locale) : context.locale;
  return data(
    {
      owner: operator.role === "owner",
      games: games.map((g) => ({ id: g.id, slug: g.slug, name: g.name, status: g.status, visible: g.visible, order: g.order, locales: Object.keys(g.texts) })),
      editing: { gameId, lang, text: games.find((g) => g.id === gameId)?.texts[lang] ?? null },
      products: products.map((p) => ({ id: p.id, cheatId: p.cheatId, area: p.shoppingArea, days: p.days, price: p.price, title: p.title, active: p.active })),
      areas,
      rules: rules.map((r) => ({ id: r.id, from: r.from, to: r.to, status: r.status })),
      sitePage: { slug: page, locale: plang, page: pages.find((p) => p.slug === page && p.locale === plang) ?? null },
      currency: services.settings.SHOP_CURRENCY,
      meta: { title: t("adminCatalogue.title"), description: t("adminCatalogue.title") },
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
};
const num = (form: FormData, name: string) => {
  const value = text(form, name);
  return value === undefined || value.trim() === "" ? undefined : Number(value);
};

export async function catalogueAction({ context, request }: Args) {
  const form = await request.formData();
  const intent = text(form, "intent") ?? "";
  const manage = context.services.catalogAdmin;
  const reason = text(form, "reason");
  const id = num(form, "id") ?? 0;
  const digits = minorDigits(context.services.settings.SHOP_CURRENCY);
  /** A price typed in the currency's units ("19.99") → minor units; anything else stays as typed, for the schema to refuse. */
  const price = (name: string) => {
    const value = text(form, name)?.trim().replace(",", ".");
    return value && /^\d+(\.\d+)?$/.test(value) ? Math.round(Number(value) * 10 ** digits) : value;
  };
  switch (intent) {
    case "game-create":
      return runForm(
        context,
        request,
        intent,
        GameCreateSchema,
        {
          slug: text(form, "slug"),
          name: text(form, "name"),
          status: text(form, "status"),
          order: num(form, "order") ?? 0,
          visible: form.has("visible"),
          texts: { [text(form, "locale") ?? "en"]: { name: text(form, "name"), tagline: text(form, "tagline"), description: text(form, "description") } },
          reason,
        },
        ({ reason, texts, ...input }, actor) => manage.createGame(actor, { ...input, texts: Object.fromEntries(Object.entries(texts).map(([l, v]) => [l, gameTextInput(v!)])) }, reason),
      );
    case "game-update":
      return runForm(
        context,
        request,
        intent,
        GameUpdateSchema,
        { status: text(form, "status"), order: num(form, "order"), visible: form.has("visible"), reason },
        ({ reason, texts: _, ...input }, actor) => manage.updateGame(actor, id, input, reason),
      );
    case "game-texts": {
      let parsed: unknown = text(form, "texts");
      try {
        parsed = JSON.parse(String(parsed));
      } catch {
        // The schema says what is wrong with it.
      }
      return runForm(context, request, intent, GameUpdateSchema, { texts: { [text(form, "locale") ?? ""]: parsed }, reason }, ({ reason, texts }, actor) =>
        manage.updateGame(actor, id, { texts: Object.fromEntries(Object.entries(texts ?? {}).map(([l, v]) => [l, gameTextInput(v!)])) }, reason),
      );
    }
    case "product-create":
      return runForm(
        context,
        request,
        intent,
        ProductCreateSchema,
        { cheat_id: num(form, "cheat_id"), area: text(form, "area"), days: num(form, "days"), price: price("price"), active: true, reason },
        ({ reason, cheat_id, ...input }, actor) => manage.createProduct(actor, { ...input, cheatId: cheat_id }, reason),
      );
    case "product-update":
      return runForm(context, request, intent, ProductUpdateSchema, { price: price("price"), active: form.has("active"), reason }, ({ reason, ...input }, actor) =>
        manage.updateProduct(actor, id, input, reason),
      );
    case "area-create":
    case "area-update": {
      const countries = (text(form, "countries") ?? "").split(/[\s,;]+/).filter(Boolean);
      if (intent === "area-create")
        return runForm(context, request, intent, AreaCreateSchema, { id: text(form, "area"), name: text(form, "name"), countries, reason }, ({ reason, ...input }, actor) =>
          manage.createArea(actor, input, reason),
        );
      return runForm(context, request, intent, AreaUpdateSchema, { name: text(form, "name"), countries, reason }, ({ reason, ...input }, actor) =>
        manage.updateArea(actor, text(form, "area") ?? "", input, reason),
      );
    }
    case "rule-create":
      return runForm(context, request, intent, RouteRuleCreateSchema, { from: text(form, "from"), to: text(form, "to"), status: num(form, "status"), reason }, ({ reason, ...input }, actor) =>
        manage.addRule(actor, input, reason),
      );
    case "rule-delete":
      return runForm(context, request, intent, ReasonOnlySchema, { reason }, ({ reason }, actor) => manage.removeRule(actor, id, reason));
    case "page-write": {
      const where = SitePageParamsSchema.safeParse({ slug: text(form, "slug"), locale: text(form, "locale") });
      if (!where.success) throw data("errors.validation_failed", { status: 400 });
      return runForm(
        context,
        request,
        intent,
        SitePageUpdateSchema,
        { title: text(form, "title"), summary: text(form, "summary") ?? "", body: text(form, "body"), reason },
        ({ reason, ...input }, actor) => manage.writeSitePage(actor, where.data.slug, where.data.locale, input, reason),
      );
    }
    default:
      throw data("errors.validation_failed", { status: 400 });
  }
}
