// The one schema of every environment setting (docs/product/operations.md#settings). Read once at boot; a bad value stops
// the start with one line naming the setting.
import { z } from "zod";
import { isLocale, type Locale } from "../i18n/locales.ts";
import { parsePrivateKey } from "../core/delivery/signing.ts";

const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

const databaseUrl = z
  .string()
  .trim()
  .refine((v) => v === "" || v.startsWith("memory://") || /^postgres(ql)?:\/\//.test(v) || v.startsWith("file:"), "must be postgres://…, memory:// or file:<dir>");

/** "COUNT/WINDOW" with the window in s, m or h, e.g. "10/15m". */
const rule = (fallback: string) =>
  z
    .string()
    .trim()
    .default(fallback)
    .refine((v) => /^\d{1,7}\/\d{1,5}[smh]$/.test(v), 'must look like "10/15m" (count/window in s, m or h)')
    .transform((v) => {
      const [, count, amount, unit] = /^(\d+)\/(\d+)([smh])$/.exec(v)!;
      return { limit: Number(count), windowSeconds: Number(amount) * { s: 1, m: 60, h: 3600 }[unit as "s" | "m" | "h"] };
    });

const url = z
  .string()
  .trim()
  .url("must be a URL")
  .transform((v) => v.replace(/\/+$/, ""));

/** PayPal's live REST host: real money, so never a development run. */
export const PAYPAL_LIVE_API = "https://api-m.paypal.com";

/** Whether a host name or address is this machine's loopback: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  return h === "localhost" || h.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(h) || h === "::1" || h === "0:0:0:0:0:0:0:1";
}

/**
 * docs/product/operations.md#production-safety, production safety: the development conveniences (/dev/mail, the demo user, the
 * demo payment provider, mail bodies in the log) exist only on a run nobody else can reach — both
 * PUBLIC_URL and HOST loopback — that is not production: NODE_ENV=production, or PayPal's live host.
 */
function conveniencesAllowed(s: { NODE_ENV: string; HOST: string; PUBLIC_URL?: string; PORT: number; PAYPAL_API_BASE: string }): boolean {
  if (s.NODE_ENV === "production" || s.PAYPAL_API_BASE === PAYPAL_LIVE_API) return false;
  const publicUrl = s.PUBLIC_URL ?? `http://localhost:${s.PORT || 3000}`;
  // Zod runs this refinement even when a field was already refused: a bad URL just counts as public.
  return isLoopbackHost(String(s.HOST)) && URL.canParse(publicUrl) && isLoopbackHost(new URL(publicUrl).hostname);
}

export const SettingsSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().trim().min(1).default("127.0.0.1"),
    DATABASE_URL: databaseUrl.optional(),
    PUBLIC_URL: url.optional(),
    PUBLIC_API_URL: url.optional(),
    TRUST_PROXY: z
      .enum(["", "0", "1", "true", "false"])
      .optional()
      .transform((v) => v === "1" || v === "true"),
    COUNTRY_HEADER: z.string().trim().min(1).default("CF-IPCountry"),
    /** The country header is set by our CDN or proxy (read anyway when TRUST_PROXY is on). */
    COUNTRY_HEADER_TRUSTED: z
      .enum(["", "0", "1", "true", "false"])
      .optional()
      .transform((v) => v === "1" || v === "true"),
    SHOP_CURRENCY: z
      .string()
      .trim()
      .regex(/^[A-Z]{3}$/, "must be a three-letter ISO 4217 code")
      .default("USD"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    PAGE_CACHE_ENTRIES: z.coerce.number().int().min(0).max(100_000).default(500),
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(10 * 1024 * 1024)
      .default(64 * 1024),
    /** Longest a client may take to send a whole request, headers and body (slow clients are cut off). */
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(500).max(300_000).default(10_000),
    /** Longest one database query may take, enforced by the server and by the client (docs/product/operations.md#database). */
    DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
    DATA_DIR: optionalString,
    /** Connections each process keeps to PostgreSQL at most (docs/product/operations.md#behind-a-reverse-proxy). */
    DB_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
    /**
     * App processes sharing the port (node:cluster, docs/product/operations.md#several-processes-and-hosts): a number or
     * "auto" (one per core). Above 1 only on PostgreSQL: the embedded database serves one process.
     */
    WEB_CONCURRENCY: z
      .string()
      .trim()
      .default("1")
      .refine((v) => v === "" || v === "auto" || /^\d{1,3}$/.test(v), 'must be a number of processes or "auto"')
      .transform((v) => (v === "" ? 1 : v === "auto" ? ("auto" as const) : Math.max(1, Number(v)))),
    /** The bearer token /metrics asks for; unset: /metrics answers 404 (docs/product/operations.md#metrics). */
    METRICS_TOKEN: optionalString.refine((v) => v === undefined || v.length >= 16, "must be at least 16 characters"),
    SMTP_URL: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined)
      .refine((v) => v === undefined || /^smtps?:\/\//.test(v), "must be smtp://user:pass@host:port"),
    MAIL_FROM: z.string().trim().min(3).default("NOVA <no-reply@localhost>"),
    RECAPTCHA_SITE_KEY: optionalString,
    RECAPTCHA_SECRET: optionalString,
    RECAPTCHA_VERIFY_URL: url.default("https://www.google.com/recaptcha/api/siteverify"),
    // The widget's script (docs/product/accounts.md#recaptcha): a test rig serves a stand-in; the page CSP allows it.
    RECAPTCHA_SCRIPT_URL: url
      .default("https://www.google.com/recaptcha/api.js")
      .refine((v) => /^https?:\/\/[^/\s;,'"]+\/[^\s;,'"?#]*$/.test(v), "must be an http(s) URL of a script, without query or fragment"),
    REDIS_URL: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined)
      .refine((v) => v === undefined || /^rediss?:\/\//.test(v), "must be redis://host:port"),
    /** Failed sign-ins per account and client address (docs/product/api.md#rate-limits). */
    RATE_LOGIN_ACCOUNT: rule("10/15m"),
    /** Failed sign-ins per account, from all addresses together. */
    RATE_LOGIN_ACCOUNT_GLOBAL: rule("100/15m"),
    RATE_LOGIN_IP: rule("100/15m"),
    RATE_RESET_ACCOUNT: rule("5/1h"),
    RATE_RESET_IP: rule("30/1h"),
    RATE_REGISTER_IP: rule("100/1h"),
    RATE_WRITE_USER: rule("60/1m"),
    RATE_WRITE_IP: rule("600/1m"),
    /** Mails to an address the user typed (e-mail change, gifts by e-mail), per user. */
    RATE_MAIL_USER: rule("5/1h"),
    PAYPAL_CLIENT_ID: optionalString,
    PAYPAL_CLIENT_SECRET: optionalString,
    PAYPAL_API_BASE: url.default("https://api-m.sandbox.paypal.com"),
    PAYPAL_WEBHOOK_ID: optionalString,
    PAYPAL_TIMEOUT_MS: z.coerce.number().int().min(500).max(30_000).default(8000),
    /** BTCPay Server (docs/product/money.md#btcpay-server): on when all four are set. */
    BTCPAY_URL: url.optional(),
    BTCPAY_API_KEY: optionalString,
    BTCPAY_STORE_ID: optionalString,
    BTCPAY_WEBHOOK_SECRET: optionalString,
    BTCPAY_TIMEOUT_MS: z.coerce.number().int().min(500).max(30_000).default(8000),
    REFERRAL_PERCENT: z.coerce.number().int().min(0).max(100).default(10),
    /** Days a referral reward stays pending before the job credits it (docs/product/money.md#referrals). */
    REFERRAL_HOLD_DAYS: z.coerce.number().int().min(0).max(365).default(14),
    /** Support contact shown to a suspended user; default support@<PUBLIC_URL host>. */
    SUPPORT_EMAIL: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined)
      .refine((v) => v === undefined || /^[^\s@]+@[^\s@]+$/.test(v), "must be an e-mail address"),
    /** The seller named on every receipt (docs/product/money.md#receipts). */
    SELLER_NAME: z.string().trim().min(1).max(200).default("NOVA"),
    /** The seller's postal address on receipts; unset: none is printed. */
    SELLER_ADDRESS: z
      .string()
      .trim()
      .max(500)
      .optional()
      .transform((v) => v || undefined),
    /** A Telegram contact of support (docs/product/routes.md#legal-and-support-pages): "@handle", "handle" or "https://t.me/handle". */
    SUPPORT_TELEGRAM: optionalString
      .refine((v) => v === undefined || /^(?:@|https:\/\/t\.me\/)?[A-Za-z0-9_]{5,32}$/.test(v), 'must be a Telegram handle ("@name") or https://t.me/name')
      .transform((v) => {
        if (v === undefined) return undefined;
        const handle = v.replace(/^@|^https:\/\/t\.me\//, "");
        return { label: `@${handle}`, url: `https://t.me/${handle}` };
      }),
    /** A Discord server of support: its https invite link. */
    SUPPORT_DISCORD: optionalString.refine((v) => v === undefined || /^https:\/\/[^\s"'<>]+$/.test(v), "must be an https:// link"),
    /**
     * Comma-separated addresses whose registered users are back-office owners, checked at every
     * sign-in (docs/product/back-office.md#roles): the first owner, without the command line.
     */
    OWNER_EMAILS: z
      .string()
      .trim()
      .default("")
      .transform((v) =>
        v
          .split(",")
          .map((e) => e.trim())
          .filter(Boolean),
      )
      .refine((list) => list.every((e) => /^[^\s@]+@[^\s@]+$/.test(e)), "must be comma-separated e-mail addresses"),
    /** The shop's time zone (IANA): the days of the dashboard (docs/product/back-office.md#dashboard). */
    SHOP_TIME_ZONE: z
      .string()
      .trim()
      .default("UTC")
      .refine((zone) => {
        try {
          new Intl.DateTimeFormat("en", { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      }, "must be an IANA time zone, e.g. Europe/Moscow"),
    /** Passes a bulk compensation extends per transaction (docs/product/back-office.md#compensation). */
    COMPENSATION_BATCH: z.coerce.number().int().min(1).max(10_000).default(1000),
    FREEZE_MAX_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    FREEZE_COOLDOWN_DAYS: z.coerce.number().int().min(0).max(3650).default(7),
    TOPUP_MIN: z.coerce.number().int().min(1).default(100),
    TOPUP_MAX: z.coerce.number().int().min(1).default(100_000),
    JOBS_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    /**
     * The language of "/" by host, after the locale cookie and before the browser's languages
     * (docs/product/routes.md#language-detection): "cn.example.com=cn,en.example.com=en".
     */
    LOCALE_HOSTS: z
      .string()
      .trim()
      .default("")
      .refine(
        (v) => v === "" || v.split(",").every((pair) => /^[a-z0-9.-]+=[a-z]{2}$/i.test(pair.trim()) && isLocale(pair.trim().split("=")[1]!.toLowerCase())),
        "must look like cn.example.com=cn,en.example.com=en (a host name, then one of ru, en, cn, es, hi, pt, id)",
      )
      .transform((v): ReadonlyMap<string, Locale> => {
        const hosts = new Map<string, Locale>();
        for (const pair of v
          .split(",")
          .map((p) => p.trim())
          .filter(Boolean)) {
          const [host = "", locale = ""] = pair.toLowerCase().split("=");
          if (isLocale(locale)) hosts.set(host, locale);
        }
        return hosts;
      }),
    // Delivery (docs/product/delivery.md).
    /** Devices one licence may be bound to at once. */
    DEVICE_LIMIT: z.coerce.number().int().min(1).max(100).default(1),
    DEVICE_RESET_COOLDOWN_DAYS: z.coerce.number().int().min(0).max(365).default(7),
    /** The Ed25519 private key of entitlements; unset: one is made and kept in the database. */
    CLIENT_SIGNING_KEY: optionalString.refine((v) => {
      if (v === undefined) return true;
      try {
        parsePrivateKey(v);
        return true;
      } catch {
        return false;
      }
    }, "must be an Ed25519 private key: PKCS#8 PEM, PKCS#8 DER in base64, or the 32-byte seed in base64url"),
    /** Activations per licence key, heartbeats per client token, client calls per address. */
    RATE_CLIENT_ACTIVATE_KEY: rule("30/1h"),
    RATE_CLIENT_HEARTBEAT_TOKEN: rule("120/1h"),
    RATE_CLIENT_ADDRESS: rule("300/1m"),
    /** Where uploaded builds live (shared storage when several hosts serve downloads). */
    STORAGE_DIR: z.string().trim().min(1).default("./.data/files"),
    BUILD_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(16 * 1024 ** 3)
      .default(512 * 1024 ** 2),
    /** How long a signed download link is good for. */
    DOWNLOAD_LINK_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
    /** One webhook delivery attempt's limit; and how often the queue is looked at (0: never, in this process). */
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    WEBHOOK_POLL_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
    /** Argon2id's cost (core/accounts/passwords.ts): `test` is the suite's, refused unless NODE_ENV=test. */
    PASSWORD_HASHING: z.enum(["owasp", "test"]).default("owasp"),
  })
  .superRefine((s, ctx) => {
    if (Boolean(s.PAYPAL_CLIENT_ID) !== Boolean(s.PAYPAL_CLIENT_SECRET)) {
      ctx.addIssue({ code: "custom", path: [s.PAYPAL_CLIENT_ID ? "PAYPAL_CLIENT_SECRET" : "PAYPAL_CLIENT_ID"], message: "PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET go together" });
    }
    const btcpay = [s.BTCPAY_URL, s.BTCPAY_API_KEY, s.BTCPAY_STORE_ID, s.BTCPAY_WEBHOOK_SECRET];
    if (btcpay.some(Boolean) && !btcpay.every(Boolean)) {
      const missing = (["BTCPAY_URL", "BTCPAY_API_KEY", "BTCPAY_STORE_ID", "BTCPAY_WEBHOOK_SECRET"] as const)[btcpay.findIndex((v) => !v)]!;
      ctx.addIssue({ code: "custom", path: [missing], message: "BTCPAY_URL, BTCPAY_API_KEY, BTCPAY_STORE_ID and BTCPAY_WEBHOOK_SECRET go together" });
    }
    // A shop others can reach runs as in production (docs/product/operations.md#production-safety): mail really leaves, payments
    // go to PayPal. Checked in this order so that the one line names what to set first.
    if (!conveniencesAllowed(s)) {
      const why = "required in production, i.e. unless NODE_ENV is not production and both PUBLIC_URL and HOST are loopback";
      if (!s.SMTP_URL) ctx.addIssue({ code: "custom", path: ["SMTP_URL"], message: `${why} (mail is never only logged there)` });
      else if (!s.PAYPAL_CLIENT_ID && !s.BTCPAY_URL) ctx.addIssue({ code: "custom", path: ["PAYPAL_CLIENT_ID"], message: `${why} (the demo payment provider is never used there)` });
    }
    if (s.PASSWORD_HASHING === "test" && s.NODE_ENV !== "test") {
      ctx.addIssue({ code: "custom", path: ["PASSWORD_HASHING"], message: "test is the test suite's cost, only with NODE_ENV=test; accounts get owasp" });
    }
    if (s.TOPUP_MIN > s.TOPUP_MAX) ctx.addIssue({ code: "custom", path: ["TOPUP_MIN"], message: "must not exceed TOPUP_MAX" });
  })
  .transform((s) => {
    const publicUrl = s.PUBLIC_URL ?? `http://localhost:${s.PORT || 3000}`;
    return {
      ...s,
      PUBLIC_URL: publicUrl,
      PUBLIC_API_URL: s.PUBLIC_API_URL ?? "",
      SUPPORT_EMAIL: s.SUPPORT_EMAIL ?? `support@${new URL(publicUrl).hostname}`,
      DATABASE_URL: s.DATABASE_URL || `file:${s.DATA_DIR ?? "./.data/pglite"}`,
      isProduction: s.NODE_ENV === "production",
      /** /dev/mail, the demo user, the demo provider, mail bodies in the log (docs/product/operations.md#production-safety). */
      devConveniences: conveniencesAllowed(s),
      secureCookies: publicUrl.startsWith("https://"),
    };
  });

export type Settings = z.infer<typeof SettingsSchema>;

export class SettingsError extends Error {}

/** Parses the environment; throws SettingsError with one line naming the first bad setting. */
export function loadSettings(env: Record<string, string | undefined> = process.env): Settings {
  const parsed = SettingsSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const name = String(issue.path[0] ?? "environment");
  throw new SettingsError(`Invalid setting ${name}=${JSON.stringify(env[name] ?? "")}: ${issue.message}`);
}
