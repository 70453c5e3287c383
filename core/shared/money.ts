// Money is an integer count of minor units of one currency; writing it for people is
// i18n/format.ts's formatMoney.

const digits = new Map<string, number>();

/** Digits after the decimal point of a currency, per ISO 4217 as Intl knows it. */
export function minorDigits(currency: string): number {
  let found = digits.get(currency);
  if (found === undefined) {
    found = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
    digits.set(currency, found);
  }
  return found;
}
