// Everything the HTTP layer and the routes reach: built once at boot, passed through the request
// context, never imported as a module-level singleton.
import type { Logger } from "pino";
import type { Database } from "../db/client.ts";
import type { Catalogs } from "../i18n/catalogs.ts";
import { createCatalog } from "../core/catalog/index.ts";
import type { Clock } from "../core/shared/clock.ts";
import type { Settings } from "./settings.ts";

export type Services = ReturnType<typeof createServices>;

export function createServices(deps: {
  settings: Settings;
  database: Database;
  catalogs: Catalogs;
  clock: Clock;
  logger: Logger;
}) {
  const { database, clock } = deps;
  const catalog = createCatalog({ db: database.db });
  return {
    ...deps,
    db: database.db,
    clock,
    catalog,
  };
}
