// The checkout a URL names (docs/product/routes.md#guards-and-redirects): `/{game}/profile/payment?product=ID`
// with one of the game's current products for the visitor's shopping area. The payment page's
// guard reads it, and the sign-in pages read it from `redirectTo` to show what the buyer is buying.
import type { AppLoadContext } from "react-router";
import { splitLocale } from "../../i18n/locales.ts";
import { IdTextSchema } from "../../core/shared/schema.ts";
import type { Cheat, Product } from "../../core/catalog/index.ts";
import { safeRedirectPath } from "./guards.server.ts";

/** One of the game's current products for the visitor's area, by the `product` query value. */
export function checkoutProduct(context: AppLoadContext, gameId: number, productParam: string | null): Product | undefined {
  const id = IdTextSchema.safeParse(productParam).data;
  return id === undefined ? undefined : context.services.catalog.productsFor(gameId, context.shoppingArea).find((p) => p.id === id);
}

/** The game and product of a checkout a sign-in will lead to (`redirectTo`), if it leads to one. */
export function checkoutOf(context: AppLoadContext, redirectTo: string | null | undefined): { game: Cheat; product: Product } | undefined {
  const origin = context.services.settings.PUBLIC_URL;
  const target = safeRedirectPath(redirectTo, origin);
  if (!target) return undefined;
  const url = new URL(target, origin);
  const slug = /^\/([^/]+)\/profile\/payment$/.exec(splitLocale(url.pathname).path)?.[1];
  const game = slug === undefined ? undefined : context.services.catalog.cheatBySlug(slug);
  const product = game && checkoutProduct(context, game.id, url.searchParams.get("product"));
  return game && product ? { game, product } : undefined;
}
