// The site pages there are (docs/product/routes.md#legal-and-support-pages), in a module with no
// dependencies so that the route table can read it. The schema's list (and its CHECK) must match.
import type { SitePageSlug } from "../../db/schema/index.ts";

export const SITE_PAGES = ["terms", "privacy", "refunds", "support"] as const satisfies readonly SitePageSlug[];

// Every stored slug is one of these, too.
export type Same = SitePageSlug extends (typeof SITE_PAGES)[number] ? true : never;
const same: Same = true;
void same;
