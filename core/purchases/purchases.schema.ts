// Input schemas of purchases from the balance (docs/product/money.md#buying-from-the-balance).
import { z } from "zod";
import { IdSchema } from "../shared/schema.ts";

export const PurchaseSchema = z.object({ product_id: IdSchema });
