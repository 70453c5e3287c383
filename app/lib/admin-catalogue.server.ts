// The catalogue page's loader and form actions (app/routes/admin/catalogue.tsx), on the server only:
// the page's data, and every form of the page read with Conform (app/lib/forms.server.ts) against
// one discriminated union on `intent` built from the JSON API's schemas (core/catalog/manage.schema.ts),
// then run through the same core calls (docs/decisions/0009-forms-on-the-server.md).
import { data, type AppLoadContext } from "react-router";
import { z } from "zod";
import {
  AreaCreateSchema,
  AreaUpdateSchema,
  GameCreateSchema,
  GameTextSchema,
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
import { IdSchema } from "../../core/shared/schema.ts";
import { LOCALES, type Locale } from "../../i18n/locales.ts";
import { gameTextInput } from "../../server/api/wire/catalogue.ts";
import { actorOf, requireOperatorPage } from "./admin.server.ts";
import { readSubmission, refuse } from "./forms.server.ts";

type Args = { context: AppLoadContext; request: Request; url: URL };

export async function catalogueData({ context, request, url }: Args) {
  const operator = requireOperatorPage(context, request, url);
  const { services, t } = context;
  const manage = services.catalogAdmin;
  const [games, products, areas, rules, pages] = await Promise.all([manage.games(), manage.products(), manage.areas(), manage.rules(), manage.sitePages()]);
  const q = url.searchParams;
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

const task = <I extends string>(intent: I) => ({ intent: z.literal(intent) });

/** A checkbox: posted ("on") when checked, absent when not — never "leave as it was". */
const Checkbox = z.boolean({ message: "validation.boolean" }).default(false);

/** A price typed in the currency's units ("19.99", "19,99") → minor units; anything else is no number, for the API's check to refuse. */
const priceField = (digits: number) =>
  z
    .string({ message: "validation.required" })
    .trim()
    .transform((typed) => {
      const value = typed.replace(",", ".");
      return /^\d+(\.\d+)?$/.test(value) ? Math.round(Number(value) * 10 ** digits) : Number.NaN;
    })
    .pipe(ProductUpdateSchema.shape.price.unwrap());

/** Countries typed as a list ("DE, FR IT"); an empty field (or the global area's, which is not posted) is none. */
const countriesField = z
  .string()
  .default("")
  .transform((typed) => typed.split(/[\s,;]+/).filter(Boolean))
  .pipe(AreaCreateSchema.shape.countries.unwrap());

/** A language's texts as the JSON the texts form edits (the wire's field names). */
const textsField = z
  .string({ message: "validation.required" })
  .transform((typed, ctx) => {
    try {
      return JSON.parse(typed) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "validation.invalid" });
      return z.NEVER;
    }
  })
  .pipe(GameTextSchema);

/**
 * Every form of the page, by its intent: the fields as the page posts them, each checked by the
 * API's schema of that call (`digits`: of the shop's currency, for prices). A form repeated per
 * row (a game, a product, an area, a rule) posts the row's `id`.
 */
export function catalogueForms(digits: number) {
  return z.discriminatedUnion("intent", [
    GameCreateSchema.omit({ texts: true }).extend({
      ...task("game-create"),
      visible: Checkbox,
      locale: z.enum(LOCALES, { message: "validation.invalid" }),
      tagline: GameTextSchema.shape.tagline,
      description: GameTextSchema.shape.description,
    }),
    GameUpdateSchema.pick({ status: true, order: true, reason: true }).extend({ ...task("game-update"), id: IdSchema, visible: Checkbox }),
    ReasonOnlySchema.extend({ ...task("game-texts"), id: IdSchema, locale: z.enum(LOCALES, { message: "validation.invalid" }), texts: textsField }),
    ProductCreateSchema.omit({ title: true }).extend({ ...task("product-create"), price: priceField(digits) }),
    ProductUpdateSchema.omit({ title: true }).extend({ ...task("product-update"), id: IdSchema, price: priceField(digits), active: Checkbox }),
    AreaCreateSchema.extend({ ...task("area-create"), countries: countriesField }),
    AreaUpdateSchema.extend({ ...task("area-update"), id: z.string({ message: "validation.required" }), name: AreaCreateSchema.shape.name, countries: countriesField }),
    RouteRuleCreateSchema.extend(task("rule-create")),
    ReasonOnlySchema.extend({ ...task("rule-delete"), id: IdSchema }),
    SitePageUpdateSchema.extend({ ...task("page-write"), ...SitePageParamsSchema.shape, summary: SitePageUpdateSchema.shape.summary.default("") }),
  ]);
}

export type CatalogueIntent = z.infer<ReturnType<typeof catalogueForms>>["intent"];

/**
 * Runs the form the page posted as the operator: a refusal (by the schema, or by the core — support
 * may not write) goes back to that form as Conform's reply; a done one says so (200) and the page
 * shows the catalogue as it is now.
 */
export async function catalogueAction({ context, request, url }: Args) {
  const operator = requireOperatorPage(context, request, url);
  const digits = minorDigits(context.services.settings.SHOP_CURRENCY);
  const submission = await readSubmission(context, request, catalogueForms(digits));
  if (submission.status !== "success") return refuse(context, submission);
  const form = submission.value;
  const actor = actorOf(context, operator);
  const manage = context.services.catalogAdmin;
  try {
    switch (form.intent) {
      case "game-create": {
        const { intent: _, locale, tagline, description, reason, ...game } = form;
        const texts = { [locale]: gameTextInput(GameTextSchema.parse({ name: game.name, tagline, description })) };
        await manage.createGame(actor, { ...game, texts }, reason);
        break;
      }
      case "game-update": {
        const { intent: _, id, reason, ...change } = form;
        await manage.updateGame(actor, id, change, reason);
        break;
      }
      case "game-texts":
        await manage.updateGame(actor, form.id, { texts: { [form.locale]: gameTextInput(form.texts) } }, form.reason);
        break;
      case "product-create": {
        const { intent: _, reason, cheat_id, ...product } = form;
        await manage.createProduct(actor, { ...product, cheatId: cheat_id }, reason);
        break;
      }
      case "product-update": {
        const { intent: _, id, reason, ...change } = form;
        await manage.updateProduct(actor, id, change, reason);
        break;
      }
      case "area-create": {
        const { intent: _, reason, ...area } = form;
        await manage.createArea(actor, area, reason);
        break;
      }
      case "area-update": {
        const { intent: _, id, reason, ...change } = form;
        await manage.updateArea(actor, id, change, reason);
        break;
      }
      case "rule-create": {
        const { intent: _, reason, ...rule } = form;
        await manage.addRule(actor, rule, reason);
        break;
      }
      case "rule-delete":
        await manage.removeRule(actor, form.id, form.reason);
        break;
      case "page-write": {
        const { intent: _, slug, locale, reason, ...page } = form;
        await manage.writeSitePage(actor, slug, locale, page, reason);
        break;
      }
    }
  } catch (error) {
    return refuse(context, submission, error);
  }
  return { ok: true as const, intent: form.intent, message: context.t("adminCatalogue.saved") };
}
