// Field schemas every area's inputs are made of, for the JSON API and the page forms alike.
// Messages are i18n keys ("validation.*"), translated at the edge.
import { z } from "zod";

/** Largest id of a serial (int4) column: a bigger number is no id of ours, and no query takes it. */
export const MAX_ID = 2_147_483_647;

/** An id in a JSON body: a positive integer a serial column holds. */
export const IdSchema = z.number({ message: "validation.required" }).int("validation.invalid").positive("validation.invalid").max(MAX_ID, "validation.invalid");

/** Digits and nothing else ("1e3", "0x10", " 5", "1.0" are no ids), as a query string or form carries a number. */
const digits = (max: number) =>
  z
    .string({ message: "validation.required" })
    .min(1, "validation.required")
    .regex(/^\d{1,16}$/, "validation.invalid")
    .transform(Number)
    .pipe(z.number().positive("validation.invalid").max(max, "validation.invalid"));

/** The same id as IdSchema, written in a query string or a form field. */
export const IdTextSchema = digits(MAX_ID);

/** A ledger id (bigserial) in a query string: any id a JS number holds exactly. */
export const BigIdTextSchema = digits(Number.MAX_SAFE_INTEGER);
