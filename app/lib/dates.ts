// Dates in the visitor's time zone (docs/product/routes.md#dates-and-amounts): the one formatter
// (i18n/format.ts) with the zone the root loader read from the `tz` cookie, named in the page's
// language ("15.03.2026 17:30 CET"). The server's render and the browser's agree, since both take
// the zone from the root's data.
import { formatDate } from "../../i18n/format.ts";
import { useRootData } from "../root.tsx";
import { useLocale } from "./i18n.tsx";

export type FormatDate = (value: Date | string, options?: { time?: boolean }) => string;

export function useFormatDate(): FormatDate {
  const locale = useLocale();
  const timeZone = useRootData()?.timeZone ?? "UTC";
  return (value, options = {}) => formatDate(value, { timeZone, locale, time: options.time });
}
