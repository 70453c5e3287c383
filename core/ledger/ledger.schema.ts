// Input schemas of the ledger: a page of transactions (docs/product/api.md#commerce-calls).
import { z } from "zod";
import { BigIdTextSchema } from "../shared/schema.ts";

/** Transactions per page unless asked (the balance page always shows this many). */
export const TRANSACTIONS_PAGE_SIZE = 10;

/** `limit` 1–50 and `skip` as the spec has them, or `before=<the last id seen>` (paging by key). */
export const TransactionsPageSchema = z.object({
  limit: z.coerce.number().int().min(1, "validation.limit").max(50, "validation.limit").default(TRANSACTIONS_PAGE_SIZE),
  skip: z.coerce.number().int().min(0, "validation.invalid").max(1_000_000).default(0),
  before: BigIdTextSchema.optional(),
});
