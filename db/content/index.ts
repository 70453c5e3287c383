// The demo content: the three demo games' pages and the default site pages, in every language
// (docs/product/data.md#demo-data). Translations are written for each language, not word for word.
import type { Locale } from "../../i18n/locales.ts";
import type { DemoGameSlug, GameTextsSeed, SitePagesSeed } from "./types.ts";
import { cn as gamesCn } from "./games/cn.ts";
import { en as gamesEn } from "./games/en.ts";
import { es as gamesEs } from "./games/es.ts";
import { hi as gamesHi } from "./games/hi.ts";
import { id as gamesId } from "./games/id.ts";
import { pt as gamesPt } from "./games/pt.ts";
import { ru as gamesRu } from "./games/ru.ts";
import { cn as pagesCn } from "./pages/cn.ts";
import { en as pagesEn } from "./pages/en.ts";
import { es as pagesEs } from "./pages/es.ts";
import { hi as pagesHi } from "./pages/hi.ts";
import { id as pagesId } from "./pages/id.ts";
import { pt as pagesPt } from "./pages/pt.ts";
import { ru as pagesRu } from "./pages/ru.ts";

export type * from "./types.ts";

/** The illustrations of each demo game (public/media/games/): the first is the page's cover. */
export const DEMO_MEDIA: Record<DemoGameSlug, string[]> = {
  dota2: ["/media/games/dota2/cover.svg", "/media/games/dota2/cooldowns.svg", "/media/games/dota2/runes.svg"],
  minecraft: ["/media/games/minecraft/cover.svg", "/media/games/minecraft/waypoints.svg", "/media/games/minecraft/ores.svg"],
  cs2: ["/media/games/cs2/cover.svg", "/media/games/cs2/radar.svg", "/media/games/cs2/lineups.svg"],
};

/** The status of each demo game, and how many days ago its software was last updated. */
export const DEMO_STATUS: Record<DemoGameSlug, { status: "working" | "updating"; daysAgo: number }> = {
  dota2: { status: "working", daysAgo: 2 },
  minecraft: { status: "working", daysAgo: 5 },
  cs2: { status: "updating", daysAgo: 1 },
};

export const DEMO_GAME_TEXTS: Record<Locale, GameTextsSeed> = { ru: gamesRu, en: gamesEn, cn: gamesCn, es: gamesEs, hi: gamesHi, pt: gamesPt, id: gamesId };

export const DEFAULT_SITE_PAGES: Record<Locale, SitePagesSeed> = { ru: pagesRu, en: pagesEn, cn: pagesCn, es: pagesEs, hi: pagesHi, pt: pagesPt, id: pagesId };
