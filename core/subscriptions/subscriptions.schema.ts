// Input schemas of subscriptions: freeze and unfreeze name the game (docs/product/api.md#commerce-calls).
import { z } from "zod";
import { IdSchema } from "../shared/schema.ts";

export const FreezeSchema = z.object({ cheat_id: IdSchema });
