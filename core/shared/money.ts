// Money is an integer count of minor units of one currency; formatting is the interface's job.
// Intl.NumberFormat objects are costly to build and immutable, so each is made once.

const formatters = new Map<string, Intl.NumberFormat>();

function currencyFormat(langTag: string, currency: string): Intl.NumberFormat {
  const key = `${langTag}|${currency}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(langTag, { style: "currency", currency });
    formatters.set(key, format);
  }
  return format;
}

/** Digits after the decimal point of a currency, per ISO 4217 as Intl knows it. */
export function minorDigits(currency: string): number {
  return currencyFormat("en", currency).resolvedOptions().maximumFractionDigits ?? 2;
}

export function formatMoney(minor: number, currency: string, langTag: string): string {
  return currencyFormat(langTag, currency).format(minor / 10 ** minorDigits(currency));
}
