// Pieces shared by the commerce pages (overview, subscription, balance, payment, gifts): the
// subscription's state badge, durations and product names in the page's language.
import type { Translate } from "../../i18n/translate.ts";
import type { SubscriptionState } from "../../core/subscriptions/index.ts";
import { Badge } from "./ui/primitives.tsx";

/** A subscription's state, or "none" when the user has never had one for the game. */
export type SubscriptionStateOrNone = SubscriptionState | "none";

const TONE = { active: "success", frozen: "accent", expired: "warning", none: "muted" } as const;

export function SubscriptionBadge({ state, t }: { state: SubscriptionStateOrNone; t: Translate }) {
  return <Badge tone={TONE[state]}>{t(`sub.state.${state}`)}</Badge>;
}

/** "12 days 5 hours", "3 hours 20 minutes" or "20 minutes": the two largest units that matter. */
export function formatDuration(t: Translate, seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  const parts: string[] = [];
  if (days > 0) parts.push(t("plural.days", { count: days }));
  if (hours > 0) parts.push(t("plural.hours", { count: hours }));
  if (days === 0 && (minutes > 0 || hours === 0)) parts.push(t("plural.minutes", { count: minutes }));
  return parts.slice(0, 2).join(" ");
}

/** A product's name: the game and its number of days ("Dota 2 · 30 days"). */
export function productName(t: Translate, gameName: string, days: number): string {
  return t("product.name", { game: gameName, days: t("plural.days", { count: days }) });
}
