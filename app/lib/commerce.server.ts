// Server helpers of the commerce pages: amounts typed by a person, ids from forms and queries.
import { fromDecimal } from "../../core/payments/index.ts";
import { DomainError } from "../../core/shared/errors.ts";
import { minorDigits } from "../../core/shared/money.ts";

/** "25", "25.5" or "25,50" in the shop currency → minor units; a field error otherwise. */
export function parseAmount(raw: string | undefined, currency: string): number {
  const text = (raw ?? "").trim().replace(/\s/g, "").replace(",", ".");
  const amount = text ? fromDecimal(text, minorDigits(currency)) : undefined;
  if (amount === undefined) {
    throw new DomainError("validation_failed", "errors.validation_failed", { fields: { amount: text ? "validation.amount" : "validation.required" } });
  }
  return amount;
}

/** A positive integer id from a query or form field, or undefined. */
export function parseId(raw: string | null | undefined): number | undefined {
  if (!raw || !/^\d{1,12}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id > 0 ? id : undefined;
}
