// Input schemas of the catalogue calls of the back office (docs/product/back-office.md#catalogue):
// games with their texts per language, products, shopping areas, route rules and the site pages.
// The wire's snake_case; messages are i18n keys ("validation.*"), translated at the edge.
import { z } from "zod";
import { GAME_STATUSES, SITE_PAGES } from "../../db/schema/index.ts";
import { LOCALES } from "../../i18n/locales.ts";
import { ReasonSchema } from "../admin/admin.schema.ts";
import { IdSchema, IdTextSchema } from "../shared/schema.ts";

/**
 * Words a game's slug may not take (docs/product/back-office.md#catalogue): the locale prefixes and
 * every first path segment the shop itself answers.
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  ...LOCALES,
  "admin",
  "auth",
  "profile",
  "payment",
  "give",
  "presentation",
  ...SITE_PAGES,
  "dev",
  "v2",
  "api",
  "assets",
  "media",
  "sitemap.xml",
  "robots.txt",
  "favicon.ico",
  "favicon.svg",
  "healthz",
  "readyz",
  "metrics",
]);

/** Lower-case letters, digits and dashes, 2–32, starting with a letter or digit; no reserved word. */
export const SlugSchema = z
  .string({ message: "validation.required" })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9-]{1,31}$/, "validation.slug")
  .refine((slug) => !RESERVED_SLUGS.has(slug), "validation.slug_reserved");

const line = (max: number) => z.string({ message: "validation.required" }).trim().max(max, "validation.too_long");
const required = (max: number) => line(max).min(1, "validation.required");

/** An illustration's address: a path of ours ("/media/…", never "//host") or an https URL. */
const MediaSrc = z
  .string({ message: "validation.required" })
  .trim()
  .max(500, "validation.too_long")
  .refine((src) => /^\/(?![/\\])[\x21-\x7e]*$/.test(src) || (URL.canParse(src) && new URL(src).protocol === "https:"), "validation.media_src");

const list = <T extends z.ZodType>(item: T, max = 30) => z.array(item, { message: "validation.invalid" }).max(max, "validation.too_long");

/** What a game's page says in one language (docs/product/data.md#game-content). */
export const GameTextSchema = z.object({
  name: required(100),
  tagline: line(300).default(""),
  description: line(5000).default(""),
  features: list(z.object({ title: required(100), text: line(500) })).default([]),
  requirements: list(z.object({ label: required(100), value: required(300) })).default([]),
  modes: list(z.object({ name: required(100), text: line(500) })).default([]),
  changelog: list(z.object({ version: required(40), date: z.iso.date({ message: "validation.date" }), notes: list(required(500), 20) }), 50).default([]),
  faq: list(z.object({ question: required(300), answer: required(2000) })).default([]),
  media: list(z.object({ src: MediaSrc, alt: line(300), caption: line(300) }), 12).default([]),
  status_note: line(300).default(""),
});

/** Texts by language: any of the seven; a language left out keeps what it had (or falls back). */
const TextsSchema = z.partialRecord(z.enum(LOCALES, { message: "validation.invalid" }), GameTextSchema, { message: "validation.invalid" });

const GameStatusSchema = z.enum(GAME_STATUSES, { message: "validation.game_status" });
const OrderSchema = z.number({ message: "validation.required" }).int("validation.invalid").min(-100_000, "validation.invalid").max(100_000, "validation.invalid");

/** `POST /v2/admin/games`: a new game (and its one cheat); texts in at least one language. */
export const GameCreateSchema = z.object({
  slug: SlugSchema,
  name: required(100),
  status: GameStatusSchema.default("working"),
  visible: z.boolean({ message: "validation.boolean" }).default(true),
  order: OrderSchema.default(0),
  texts: TextsSchema.refine((texts) => Object.keys(texts).length > 0, "validation.texts_required"),
  reason: ReasonSchema,
});

/** `PATCH /v2/admin/games/{id}`: what is given changes; texts per language replace that language's. */
export const GameUpdateSchema = z.object({
  slug: SlugSchema.optional(),
  name: required(100).optional(),
  status: GameStatusSchema.optional(),
  visible: z.boolean({ message: "validation.boolean" }).optional(),
  order: OrderSchema.optional(),
  texts: TextsSchema.optional(),
  reason: ReasonSchema,
});

/** A shopping area's id: "global", "cis", "latam"… */
const AreaIdSchema = z
  .string({ message: "validation.required" })
  .trim()
  .toLowerCase()
  .regex(/^[a-z][a-z0-9_-]{1,31}$/, "validation.area_id");

/** Minor units, as prices are everywhere. */
const PriceSchema = z.number({ message: "validation.required" }).int("validation.invalid").min(1, "validation.price").max(100_000_000, "validation.price");

/** `POST /v2/admin/products`: days of one game's pass in one area, at a price. */
export const ProductCreateSchema = z.object({
  cheat_id: IdSchema,
  area: AreaIdSchema,
  days: z.number({ message: "validation.required" }).int("validation.invalid").min(1, "validation.days_range").max(3650, "validation.days_range"),
  price: PriceSchema,
  title: line(100).optional(),
  active: z.boolean({ message: "validation.boolean" }).default(true),
  reason: ReasonSchema,
});

/** `PATCH /v2/admin/products/{id}`: the price, the title, on sale or not (game, area and days stay: a new product for those). */
export const ProductUpdateSchema = z.object({
  price: PriceSchema.optional(),
  title: required(100).optional(),
  active: z.boolean({ message: "validation.boolean" }).optional(),
  reason: ReasonSchema,
});

export const ProductsQuerySchema = z.object({ cheat_id: IdTextSchema.optional() });

/** Two-letter country codes (ISO 3166-1 alpha-2), as the country header carries them. */
const CountriesSchema = z
  .array(
    z
      .string({ message: "validation.country" })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, "validation.country"),
    { message: "validation.invalid" },
  )
  .max(250, "validation.too_long")
  .transform((codes) => [...new Set(codes)]);

/** `POST /v2/admin/areas`. A country already in another area moves to this one. */
export const AreaCreateSchema = z.object({ id: AreaIdSchema, name: required(100), countries: CountriesSchema.default([]), reason: ReasonSchema });

/** `PATCH /v2/admin/areas/{id}`: `countries` replaces the area's list. */
export const AreaUpdateSchema = z.object({ name: required(100).optional(), countries: CountriesSchema.optional(), reason: ReasonSchema });

/** `POST /v2/admin/route-rules`. */
export const RouteRuleCreateSchema = z.object({
  from: required(2000),
  to: required(2000),
  status: z.union([z.literal(301), z.literal(302)], { message: "validation.redirect_status" }).default(302),
  reason: ReasonSchema,
});

/** `PATCH /v2/admin/pages/{slug}/{locale}`: a site page's text in one language (docs/product/routes.md#legal-and-support-pages). */
export const SitePageUpdateSchema = z.object({ title: required(200), summary: line(500), body: required(50_000), reason: ReasonSchema });

export const SitePageParamsSchema = z.object({
  slug: z.enum(SITE_PAGES, { message: "validation.invalid" }),
  locale: z.enum(LOCALES, { message: "validation.invalid" }),
});

/** `GET /v2/admin/stats?from&to`: days (YYYY-MM-DD) in the shop's time zone, both included. */
export const StatsQuerySchema = z.object({ from: z.iso.date({ message: "validation.date" }).optional(), to: z.iso.date({ message: "validation.date" }).optional() });
