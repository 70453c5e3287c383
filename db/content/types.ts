// The shape of the demo content the seed loads (db/seed.ts): game texts per language and the
// default site pages per language. Operators change both later; the seed never writes over them.
import type { GameFeature, GameMode, GameQuestion, GameRequirement, SitePageSlug } from "../schema/index.ts";

export type DemoGameSlug = "dota2" | "minecraft" | "cs2";

/** A release of the demo changelog, dated relative to the day the demo data is loaded. */
export type DemoRelease = { version: string; daysAgo: number; notes: string[] };

export type GameTextSeed = {
  tagline: string;
  description: string;
  features: GameFeature[];
  requirements: GameRequirement[];
  modes: GameMode[];
  changelog: DemoRelease[];
  faq: GameQuestion[];
  /** Text alternatives and captions of the game's illustrations, in the order of DEMO_MEDIA. */
  media: { alt: string; caption: string }[];
  statusNote?: string;
};

/** One language's texts of the three demo games. */
export type GameTextsSeed = Record<DemoGameSlug, GameTextSeed>;

export type SitePageSeed = { title: string; summary: string; body: string };

/** One language's default site pages. */
export type SitePagesSeed = Record<SitePageSlug, SitePageSeed>;
