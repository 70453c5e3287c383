// Everything the HTTP layer and the routes reach: built once at boot, passed through the request
// context, never imported as a module-level singleton.
import type { Logger } from "pino";
import type { Database } from "../db/client.ts";
import type { Catalogs } from "../i18n/catalogs.ts";
import { createCatalog } from "../core/catalog/index.ts";
import type { Clock } from "../core/shared/clock.ts";
import { createMailer } from "../core/mail/index.ts";
import { createNotifications } from "../core/notifications/index.ts";
import { createSessions } from "../core/sessions/index.ts";
import { createRateLimiter, postgresCounter, redisCounter, type RedisLike } from "../core/ratelimit/index.ts";
import { createAccounts } from "../core/accounts/index.ts";
import { createRecaptcha } from "../core/accounts/recaptcha.ts";
import { createBackground } from "../core/shared/background.ts";
import type { Settings } from "./settings.ts";

export type Services = ReturnType<typeof createServices>;

export function createServices(deps: {
  settings: Settings;
  database: Database;
  catalogs: Catalogs;
  clock: Clock;
  logger: Logger;
  redis?: RedisLike;
}) {
  const { settings, database, clock, logger, catalogs } = deps;
  const db = database.db;
  const background = createBackground((err) => logger.error({ err }, "background task failed"));
  const catalog = createCatalog({ db });
  const sessions = createSessions({ db, clock });
  const limiter = createRateLimiter(deps.redis ? redisCounter(deps.redis) : postgresCounter(db, clock), clock);
  const notifications = createNotifications({ db });
  const mailer = createMailer({ db, smtpUrl: settings.SMTP_URL, from: settings.MAIL_FROM, logger, publicUrl: settings.PUBLIC_URL, catalogs, clock });
  const recaptcha = createRecaptcha({ secret: settings.RECAPTCHA_SECRET, verifyUrl: settings.RECAPTCHA_VERIFY_URL });
  const accounts = createAccounts({
    db,
    clock,
    sessions,
    limiter,
    mailer,
    notifications,
    recaptcha,
    logger,
    background,
    publicUrl: settings.PUBLIC_URL,
    currency: settings.SHOP_CURRENCY,
    limits: {
      loginAccount: settings.RATE_LOGIN_ACCOUNT,
      loginIp: settings.RATE_LOGIN_IP,
      resetAccount: settings.RATE_RESET_ACCOUNT,
      resetIp: settings.RATE_RESET_IP,
      registerIp: settings.RATE_REGISTER_IP,
    },
  });
  return { ...deps, db, clock, background, catalog, sessions, limiter, notifications, mailer, recaptcha, accounts };
}
