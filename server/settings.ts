// The one schema of every environment setting (decisions §1). Read once at boot; a bad value stops
// the start with one line naming the setting.
import { z } from "zod";

const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

const databaseUrl = z
  .string()
  .trim()
  .refine(
    (v) => v === "" || v.startsWith("memory://") || /^postgres(ql)?:\/\//.test(v) || v.startsWith("file:"),
    "must be postgres://…, memory:// or file:<dir>",
  );

const url = z.string().trim().url("must be a URL").transform((v) => v.replace(/\/+$/, ""));

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
    SHOP_CURRENCY: z
      .string()
      .trim()
      .regex(/^[A-Z]{3}$/, "must be a three-letter ISO 4217 code")
      .default("USD"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    PAGE_CACHE_ENTRIES: z.coerce.number().int().min(0).max(100_000).default(500),
    BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10 * 1024 * 1024).default(64 * 1024),
    DATA_DIR: optionalString,
  })
  .transform((s) => {
    const publicUrl = s.PUBLIC_URL ?? `http://localhost:${s.PORT || 3000}`;
    return {
      ...s,
      PUBLIC_URL: publicUrl,
      PUBLIC_API_URL: s.PUBLIC_API_URL ?? "",
      DATABASE_URL: s.DATABASE_URL || `file:${s.DATA_DIR ?? "./.data/pglite"}`,
      isProduction: s.NODE_ENV === "production",
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

/** The allow-list of settings that may reach the browser. */
export function publicSettings(settings: Settings) {
  return {
    publicUrl: settings.PUBLIC_URL,
    apiUrl: settings.PUBLIC_API_URL,
    currency: settings.SHOP_CURRENCY,
  };
}
export type PublicSettings = ReturnType<typeof publicSettings>;
