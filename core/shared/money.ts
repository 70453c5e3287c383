// Money is an integer count of minor units of one currency; formatting is the interface's job.

/** Digits after the decimal point of a currency, per ISO 4217 as Intl knows it. */
export function minorDigits(currency: string): number {
  return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

export function formatMoney(minor: number, currency: string, langTag: string): string {
  const digits = minorDigits(currency);
  return new Intl.NumberFormat(langTag, { style: "currency", currency }).format(minor / 10 ** digits);
}
