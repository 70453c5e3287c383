// Everything the HTTP layer and the routes reach: built once at boot, passed through the request
// context, never imported as a module-level singleton.
import type { Logger } from "pino";
import type { Database } from "../db/client.ts";
import type { Catalogs } from "../i18n/catalogs.ts";
import { createCatalog } from "../core/catalog/index.ts";
import { createContent } from "../core/content/index.ts";
import type { Clock } from "../core/shared/clock.ts";
import { createMailer } from "../core/mail/index.ts";
import { createNotifications } from "../core/notifications/index.ts";
import { createSessions } from "../core/sessions/index.ts";
import { createAudit } from "../core/audit/index.ts";
import { createOperators } from "../core/operators/index.ts";
import { createRateLimiter, failoverCounter, postgresCounter, redisCounter, type RedisLike } from "../core/ratelimit/index.ts";
import { createAccounts, createRecaptcha } from "../core/accounts/index.ts";
import { createPasswords } from "../core/accounts/passwords.ts";
import { createBackground } from "../core/shared/background.ts";
import { createLedger } from "../core/ledger/index.ts";
import { createSubscriptions } from "../core/subscriptions/index.ts";
import { createReferrals } from "../core/referrals/index.ts";
import { createSuspensions } from "../core/suspensions/index.ts";
import { createPayments, createPayPal, createDemoProvider, createBtcPay } from "../core/payments/index.ts";
import { createPurchases } from "../core/purchases/index.ts";
import { createGifts } from "../core/gifts/index.ts";
import { createStatistics } from "../core/statistics/index.ts";
import { createRetention } from "../core/retention/index.ts";
import { createOwnRows } from "../core/sessions/own-rows.ts";
import { createRouteRules } from "../core/route-rules/index.ts";
import { createReceipts } from "../core/receipts/index.ts";
import { createPrivacy } from "../core/privacy/index.ts";
import { createAdmin } from "../core/admin/index.ts";
import { createCatalogAdmin } from "../core/catalog/manage.ts";
import { createChangeBus } from "./changes.ts";
import { createDashboard } from "../core/dashboard/index.ts";
import type { Redis } from "ioredis";
import { minorDigits } from "../core/shared/money.ts";
import { loadSigner, type Signer } from "../core/delivery/signing.ts";
import { createClientApi } from "../core/delivery/client.ts";
import { createLicences } from "../core/delivery/licences.ts";
import { createBuilds } from "../core/delivery/builds.ts";
import { createOutbox, createWebhooks } from "../core/webhooks/index.ts";
import { isLoopbackHost, type Settings } from "./settings.ts";
import { countPayments, createMetrics } from "./metrics.ts";

export type Services = ReturnType<typeof createServices>;

export type JobsState = {
  /** off: JOBS_INTERVAL_SECONDS=0; stopped: not started (or stopped) in this process. */
  state: "off" | "stopped" | "running";
  startedAt?: number;
  /** When the last run ended (Date.now()), and whether it failed. */
  lastRunAt?: number;
  lastRunFailed?: boolean;
};

export function createServices(deps: { settings: Settings; database: Database; catalogs: Catalogs; clock: Clock; logger: Logger; redis?: RedisLike }) {
  const { settings, database, clock, logger, catalogs } = deps;
  const db = database.db;
  const metrics = createMetrics({ database });
  const background = createBackground((err) => logger.error({ err }, "background task failed"));
  const catalog = createCatalog({ db });
  const content = createContent({ db });
  const audit = createAudit({ db, clock });
  const operators = createOperators({ db, clock, audit, ownerEmails: settings.OWNER_EMAILS });
  const sessions = createSessions({ db, clock, operators, lookedUp: metrics.sessionLookups });
  // With Redis, its counters; while it fails, PostgreSQL's (docs/decisions/0006-redis-down.md).
  const counter = deps.redis
    ? failoverCounter(redisCounter(deps.redis), postgresCounter(db, clock), {
        onFailure: (err) => logger.warn({ err }, "Redis does not answer: rate-limit counters in PostgreSQL until it does"),
        onRecovery: () => logger.info("Redis answers again: rate-limit counters back in Redis"),
      })
    : postgresCounter(db, clock);
  const limiter = createRateLimiter(counter, clock);
  // Outgoing webhooks: events written in the transactions of the changes (docs/product/delivery.md#webhooks).
  const outbox = createOutbox({ clock });
  // The entitlements' signing key, loaded (or made) once; a failed load is tried again next time.
  let signing: Promise<Signer> | undefined;
  const signer = () =>
    (signing ??= loadSigner(db, settings.CLIENT_SIGNING_KEY).catch((error: unknown) => {
      signing = undefined;
      throw error;
    }));
  const notifications = createNotifications({ db });
  const mailer = createMailer({
    db,
    smtpUrl: settings.SMTP_URL,
    from: settings.MAIL_FROM,
    logger,
    publicUrl: settings.PUBLIC_URL,
    catalogs,
    clock,
    keepBodies: settings.devConveniences,
  });
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
    supportEmail: settings.SUPPORT_EMAIL,
    passwords: createPasswords(settings.PASSWORD_HASHING),
    limits: {
      loginAccount: settings.RATE_LOGIN_ACCOUNT,
      loginAccountGlobal: settings.RATE_LOGIN_ACCOUNT_GLOBAL,
      loginIp: settings.RATE_LOGIN_IP,
      resetAccount: settings.RATE_RESET_ACCOUNT,
      resetIp: settings.RATE_RESET_IP,
      registerIp: settings.RATE_REGISTER_IP,
      mailUser: settings.RATE_MAIL_USER,
    },
  });
  const currency = settings.SHOP_CURRENCY;
  const ledger = createLedger({ db, currency });
  const subscriptions = createSubscriptions({ db, clock, freezeMaxDays: settings.FREEZE_MAX_DAYS, freezeCooldownDays: settings.FREEZE_COOLDOWN_DAYS, outbox });
  /**
   * frontend/data's session with the signed-in user's row, latest 10 transactions
   * (docs/product/api.md#front-end-data) and subscriptions, those kept per process under their
   * version: most requests read the session and the version alone
   * (docs/decisions/0076-own-rows-by-version.md).
   */
  const frontendDataSession = createOwnRows({
    db,
    sessions,
    fields: (userId) => ({ transactions: ledger.latestIn(userId, 10), subscriptionRows: subscriptions.rowsIn(userId) }),
    name: "frontend_data_rows",
    users: 10_000,
    counted: metrics.ownRows,
  });
  const referrals = createReferrals({
    db,
    ledger,
    notifications,
    clock,
    percent: settings.REFERRAL_PERCENT,
    holdDays: settings.REFERRAL_HOLD_DAYS,
    publicUrl: settings.PUBLIC_URL,
  });
  const suspensions = createSuspensions({ sessions, clock, outbox });
  const receipts = createReceipts({
    db,
    clock,
    mailer,
    catalog,
    background,
    logger,
    seller: { name: settings.SELLER_NAME, address: settings.SELLER_ADDRESS, supportEmail: settings.SUPPORT_EMAIL },
  });
  // The demo provider only where the conveniences are (docs/product/operations.md#production-safety); settings refuse a public shop
  // without PayPal credentials, and this refuses the demo provider there all the same.
  if (!settings.devConveniences && !settings.PAYPAL_CLIENT_ID && !settings.BTCPAY_URL) throw new Error("PAYPAL_CLIENT_ID is required outside development");
  const btcpayOn = Boolean(settings.BTCPAY_URL && settings.BTCPAY_API_KEY && settings.BTCPAY_STORE_ID && settings.BTCPAY_WEBHOOK_SECRET);
  const provider =
    settings.PAYPAL_CLIENT_ID && settings.PAYPAL_CLIENT_SECRET
      ? createPayPal({
          clientId: settings.PAYPAL_CLIENT_ID,
          clientSecret: settings.PAYPAL_CLIENT_SECRET,
          apiBase: settings.PAYPAL_API_BASE,
          webhookId: settings.PAYPAL_WEBHOOK_ID,
          timeoutMs: settings.PAYPAL_TIMEOUT_MS,
        })
      : createDemoProvider({ db, publicUrl: settings.PUBLIC_URL, digits: minorDigits(currency) });
  // One Payments per provider that is on (docs/product/money.md#choosing-a-provider): PayPal (or the demo when neither is), BTCPay;
  // each counted in the metrics by its provider's name.
  const paymentsWith = (provider: Parameters<typeof createPayments>[0]["provider"]) =>
    countPayments(
      createPayments({
        db,
        clock,
        provider,
        ledger,
        subscriptions,
        catalog,
        referrals,
        notifications,
        receipts,
        suspensions,
        publicUrl: settings.PUBLIC_URL,
        currency,
        topup: { min: settings.TOPUP_MIN, max: settings.TOPUP_MAX },
        logger,
        outbox,
      }),
      provider.name,
      metrics,
    );
  // PayPal when its credentials are set; else the demo stands in for it where the conveniences are, beside
  // BTCPay too (docs/decisions/0041-demo-beside-btcpay.md); a public shop with BTCPay alone offers BTCPay alone.
  const paypalPayments = (settings.PAYPAL_CLIENT_ID && settings.PAYPAL_CLIENT_SECRET) || settings.devConveniences || !btcpayOn ? paymentsWith(provider) : undefined;
  const btcpayPayments = btcpayOn
    ? paymentsWith(
        createBtcPay({
          url: settings.BTCPAY_URL!,
          apiKey: settings.BTCPAY_API_KEY!,
          storeId: settings.BTCPAY_STORE_ID!,
          webhookSecret: settings.BTCPAY_WEBHOOK_SECRET!,
          timeoutMs: settings.BTCPAY_TIMEOUT_MS,
          digits: minorDigits(currency),
        }),
      )
    : undefined;
  /** The providers that are on, in the order the checkout offers them. */
  const paymentProviders = [paypalPayments, btcpayPayments].filter((p) => p !== undefined);
  const payments = paymentProviders[0]!;
  const purchases = createPurchases({ db, clock, catalog, ledger, subscriptions, receipts });
  const gifts = createGifts({
    db,
    clock,
    catalog,
    ledger,
    subscriptions,
    notifications,
    receipts,
    mailer,
    background,
    limiter,
    mailLimit: settings.RATE_MAIL_USER,
    publicUrl: settings.PUBLIC_URL,
  });
  const statistics = createStatistics({ db });
  const retention = createRetention({ db, clock });
  const routeRules = createRouteRules({ db, publicUrl: settings.PUBLIC_URL });
  const privacy = createPrivacy({ db, clock, currency, subscriptions, notifications });
  const admin = createAdmin({
    db,
    clock,
    audit,
    operators,
    accounts,
    catalog,
    ledger,
    subscriptions,
    suspensions,
    sessions,
    notifications,
    mailer,
    payments,
    paymentProviders,
    currency,
    logger,
    compensationBatch: settings.COMPENSATION_BATCH,
  });
  // Catalogue changes reach every app process within 2 s (docs/product/operations.md#change-bus).
  const changes = createChangeBus({
    db,
    databaseUrl: settings.DATABASE_URL,
    databaseKind: database.kind,
    redis: deps.redis && "duplicate" in deps.redis ? (deps.redis as unknown as Redis) : undefined,
    targets: { catalog, content, routeRules },
    logger,
  });
  const dashboard = createDashboard({ db, clock, timeZone: settings.SHOP_TIME_ZONE });
  const catalogAdmin = createCatalogAdmin({ db, clock, audit, operators, routeRules, currency, changed: (kind) => changes.publish(kind) });
  // Delivery (docs/product/delivery.md): licences and devices, the client API, builds, webhooks.
  const client = createClientApi({
    db,
    clock,
    limiter,
    subscriptions,
    signer,
    deviceLimit: settings.DEVICE_LIMIT,
    limits: { activateKey: settings.RATE_CLIENT_ACTIVATE_KEY, heartbeatToken: settings.RATE_CLIENT_HEARTBEAT_TOKEN },
  });
  const licences = createLicences({ db, clock, deviceLimit: settings.DEVICE_LIMIT, resetCooldownDays: settings.DEVICE_RESET_COOLDOWN_DAYS });
  const builds = createBuilds({
    db,
    clock,
    audit,
    subscriptions,
    storageDir: settings.STORAGE_DIR,
    maxBytes: settings.BUILD_MAX_BYTES,
    linkSeconds: settings.DOWNLOAD_LINK_SECONDS,
    linkKey: async () => (await signer()).derive("nova download links"),
  });
  const webhooks = createWebhooks({ db, clock, audit, anyAddress: isLoopbackHost(new URL(settings.PUBLIC_URL).hostname), timeoutMs: settings.WEBHOOK_TIMEOUT_MS, logger });
  /** The background jobs' heartbeat, for /readyz (set by startJobs). */
  const jobs: JobsState = { state: settings.JOBS_INTERVAL_SECONDS === 0 ? "off" : "stopped" };
  return {
    ...deps,
    db,
    clock,
    background,
    catalog,
    content,
    audit,
    operators,
    sessions,
    frontendDataSession,
    limiter,
    notifications,
    mailer,
    recaptcha,
    accounts,
    ledger,
    subscriptions,
    referrals,
    suspensions,
    receipts,
    payments,
    paymentProviders,
    /** The payments of a provider that is on ("paypal" is the demo's too, where it stands in); undefined otherwise. */
    paymentsFor: (name: string) => (name === "paypal" ? paypalPayments : name === "btcpay" ? btcpayPayments : undefined),
    /** Present only when the built-in demo provider is in use. */
    demoProvider: paypalPayments && provider.name === "demo" ? (provider as ReturnType<typeof createDemoProvider>) : undefined,
    purchases,
    gifts,
    statistics,
    retention,
    routeRules,
    privacy,
    admin,
    changes,
    catalogAdmin,
    dashboard,
    signer,
    client,
    licences,
    builds,
    webhooks,
    jobs,
    metrics,
  };
}
