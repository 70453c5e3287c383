// Server helpers of the commerce pages: amounts typed by a person, ids from forms and queries.
import { fromDecimal } from "../../core/payments/index.ts";
import { DomainError } from "../../core/shared/errors.ts";
import { minorDigits } from "../../core/shared/money.ts";
import { MAX_ID } from "../../server/http/input.ts";

/** "25", "25.5" or "25,50" in the shop currency → minor units; a field error otherwise. */
export function parseAmount(raw: string | undefined, currency: string): number {
  const text = (raw ?? "").trim().replace(/\s/g, "").replace(",", ".");
  const amount = text ? fromDecimal(text, minorDigits(currency)) : undefined;
  if (amount === undefined) {
    throw new DomainError("validation_failed", "errors.validation_failed", { fields: { amount: text ? "validation.amount" : "validation.required" } });
  }
  return amount;
}

/**
 * A positive integer id from a query or form field, or undefined. Bounded (int4 by default, the
 * serial columns): a bigger number is no id of ours and must never reach a query.
 */
export function parseId(raw: string | null | undefined, max: number = MAX_ID): number | undefined {
  if (!raw || !/^\d{1,16}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id > 0 && id <= max ? id : undefined;
}
