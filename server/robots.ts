// /robots.txt: crawlers index the public pages (the sitemaps list them) and leave the signed-in
// area, the sign-in forms, the checkout returns and the API alone (docs/product/routes.md#pages).
import { LOCALES, DEFAULT_LOCALE } from "../i18n/locales.ts";

const PRIVATE = ["/auth", "/profile", "/*/profile", "/give/", "/payment/"];

export function robotsTxt(publicUrl: string): string {
  const prefixes = LOCALES.map((l) => (l === DEFAULT_LOCALE ? "" : `/${l}`));
  const disallow = [...new Set(prefixes.flatMap((p) => PRIVATE.map((path) => p + path))), "/v2/", "/dev/"];
  const sitemaps = LOCALES.map((l) => `${publicUrl}${l === DEFAULT_LOCALE ? "" : `/${l}`}/sitemap.xml`);
  return ["User-agent: *", "Allow: /", ...disallow.map((d) => `Disallow: ${d}`), "", ...sitemaps.map((s) => `Sitemap: ${s}`), ""].join("\n");
}
