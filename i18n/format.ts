// The one way dates, money and file sizes are written, for pages (server render and hydration alike) and
// e-mails. Intl formatters are costly to build and immutable, so each is made once.
import { LANG_TAG, type Locale } from "./locales.ts";

const pad = (n: number) => String(n).padStart(2, "0");

export type DateOptions = {
  /**
   * IANA time zone ("America/New_York", "UTC"): the time is shown there, followed by the zone's
   * short name as Intl writes it in `locale` ("15.03.2026 17:30 EDT", "16.03.2026 00:30 GMT+3").
   * Without one the time is UTC with no name. Pages pass the visitor's zone from the `tz` cookie
   * (docs/product/routes.md#dates-and-amounts), or "UTC" to name it; mails the one stored on the
   * account. An unknown zone is UTC.
   */
  timeZone?: string;
  /** The language of the zone's name; English by default. */
  locale?: Locale;
  /** false: the day only, dd.MM.yyyy (the day in that zone; no name is shown). */
  time?: boolean;
};

/** Whether a value names a time zone Intl knows ("Europe/Berlin", "UTC"): what a `tz` cookie may hold. */
export function isTimeZone(value: unknown): value is string {
  if (typeof value !== "string" || value.length === 0 || value.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

// Keyed by zone and language; only zones Intl knows are kept, so the map stays bounded.
const zoned = new Map<string, { parts: Intl.DateTimeFormat; name: Intl.DateTimeFormat }>();

function zoneFormats(timeZone: string, locale: Locale): { parts: Intl.DateTimeFormat; name: Intl.DateTimeFormat } {
  const key = `${timeZone}|${locale}`;
  const cached = zoned.get(key);
  if (cached) return cached;
  const fields = { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" } as const;
  let formats;
  try {
    formats = {
      parts: new Intl.DateTimeFormat("en-GB", { ...fields, timeZone }),
      name: new Intl.DateTimeFormat(LANG_TAG[locale], { timeZone, timeZoneName: "short" }),
    };
  } catch {
    return zoneFormats("UTC", locale); // RangeError: not a time zone
  }
  zoned.set(key, formats);
  return formats;
}

/** A date as the spec shows it (docs/product/routes.md#dates-and-amounts): dd.MM.yyyy HH:mm, or dd.MM.yyyy with `time: false`. */
export function formatDate(value: Date | string, options: DateOptions = {}): string {
  const date = typeof value === "string" ? new Date(value) : value;
  const time = options.time ?? true;
  if (options.timeZone === undefined) {
    const day = `${pad(date.getUTCDate())}.${pad(date.getUTCMonth() + 1)}.${date.getUTCFullYear()}`;
    return time ? `${day} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}` : day;
  }
  const formats = zoneFormats(options.timeZone, options.locale ?? "en");
  const part = Object.fromEntries(formats.parts.formatToParts(date).map((p) => [p.type, p.value]));
  const day = `${part.day}.${part.month}.${part.year}`;
  if (!time) return day;
  const zone = formats.name.formatToParts(date).find((p) => p.type === "timeZoneName")?.value ?? "UTC";
  return `${day} ${part.hour}:${part.minute} ${zone}`;
}

const currencies = new Map<string, Intl.NumberFormat>();

function currencyFormat(locale: Locale, currency: string): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let format = currencies.get(key);
  if (!format) currencies.set(key, (format = new Intl.NumberFormat(LANG_TAG[locale], { style: "currency", currency })));
  return format;
}

/**
 * An amount in minor units (docs/product/api.md#conventions: 1500 = 15.00 USD) in the language's way: "$15.00",
 * "15,00 $". The currency's own number of decimals (ISO 4217, as Intl knows it) places the point.
 */
export function formatMoney(minor: number, currency: string, locale: Locale): string {
  const format = currencyFormat(locale, currency);
  return format.format(minor / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/**
 * A file's size in the reader's language: kilobytes under a megabyte (a small file is not "0 MB"),
 * else megabytes. Here rather than next to the download card, so that the back office's use does
 * not split that card out of the subscription page's chunk (docs/decisions/0047-hydrated-forms-without-conform.md).
 */
export function formatSize(bytes: number, langTag: string): string {
  const [unit, divisor] = bytes < 1024 ** 2 ? (["kilobyte", 1024] as const) : (["megabyte", 1024 ** 2] as const);
  return new Intl.NumberFormat(langTag, { style: "unit", unit, maximumFractionDigits: 1 }).format(bytes / divisor);
}
