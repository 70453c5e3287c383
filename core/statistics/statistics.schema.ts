// Input schemas of the statistics calls (docs/product/api.md#commerce-calls).
import { z } from "zod";
import { IdTextSchema } from "../shared/schema.ts";

/** `?cheat_id=` (the spec's default: cheat 1). */
export const CheatStatisticsSchema = z.object({ cheat_id: IdTextSchema.default(1) });
