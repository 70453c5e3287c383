import { describe, expect, it } from "vitest";
import { loadSettings, SettingsError } from "./settings.ts";

/** What a shop others can reach must have (docs/product/operations.md#production-safety): real mail and a real payment provider. */
const PUBLIC_NEEDS = { SMTP_URL: "smtp://mail.example:587", PAYPAL_CLIENT_ID: "id", PAYPAL_CLIENT_SECRET: "secret" };

describe("settings", () => {
  it("has the defaults of docs/product/operations.md#settings", () => {
    const s = loadSettings({});
    expect(s).toMatchObject({
      PORT: 3000,
      HOST: "127.0.0.1",
      DATABASE_URL: "file:./.data/pglite",
      PUBLIC_URL: "http://localhost:3000",
      SHOP_CURRENCY: "USD",
      NODE_ENV: "development",
      isProduction: false,
      secureCookies: false,
      TRUST_PROXY: false,
      PASSWORD_HASHING: "owasp",
    });
  });

  it("derives PUBLIC_URL from PORT and turns on secure cookies for https", () => {
    expect(loadSettings({ PORT: "8080" }).PUBLIC_URL).toBe("http://localhost:8080");
    expect(loadSettings({ PUBLIC_URL: "https://shop.example/", ...PUBLIC_NEEDS })).toMatchObject({ PUBLIC_URL: "https://shop.example", secureCookies: true });
  });

  describe("production safety (docs/product/operations.md#production-safety)", () => {
    it.each([
      [{}],
      [{ PUBLIC_URL: "http://127.0.0.1:3000" }],
      [{ PUBLIC_URL: "http://localhost:8080", HOST: "localhost" }],
      [{ PUBLIC_URL: "http://[::1]:3000", HOST: "::1" }],
      [{ PUBLIC_URL: "http://shop.localhost", HOST: "127.0.0.2", NODE_ENV: "test" }],
    ])("keeps the development conveniences on a loopback run: %o", (env) => {
      expect(loadSettings(env).devConveniences).toBe(true);
    });

    it.each([
      [{ PUBLIC_URL: "https://shop.example" }],
      [{ PUBLIC_URL: "http://shop.example" }],
      [{ PUBLIC_URL: "http://192.168.1.20:3000" }],
      [{ HOST: "0.0.0.0" }],
      [{ HOST: "::" }],
      [{ HOST: "203.0.113.7" }],
      [{ PUBLIC_URL: "http://localhost:3000", HOST: "0.0.0.0" }],
      [{ PAYPAL_API_BASE: "https://api-m.paypal.com" }],
      [{ NODE_ENV: "production" }],
    ])("turns them off (no /dev/mail, demo user or demo provider) for %o", (env) => {
      expect(loadSettings({ ...env, ...PUBLIC_NEEDS }).devConveniences).toBe(false);
    });

    it.each([[{ PUBLIC_URL: "https://shop.example" }], [{ HOST: "0.0.0.0" }], [{ NODE_ENV: "production" }]])("refuses %o without SMTP_URL, in one line naming it", (env) => {
      expect(() => loadSettings({ ...env, PAYPAL_CLIENT_ID: "id", PAYPAL_CLIENT_SECRET: "secret" })).toThrow(/^Invalid setting SMTP_URL="": required in production[^\n]*$/);
    });

    it("refuses a public shop without PayPal credentials (the demo provider is for loopback runs)", () => {
      expect(() => loadSettings({ PUBLIC_URL: "https://shop.example", SMTP_URL: "smtp://mail.example:587" })).toThrow(/^Invalid setting PAYPAL_CLIENT_ID="": required in production/);
    });
  });

  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ SHOP_CURRENCY: "dollars" }, "SHOP_CURRENCY"],
    [{ PUBLIC_URL: "not a url" }, "PUBLIC_URL"],
    [{ NODE_ENV: "staging" }, "NODE_ENV"],
    // The suite's Argon2id cost, on a shop that is not the suite's (decision 0066).
    [{ PASSWORD_HASHING: "test" }, "PASSWORD_HASHING"],
    [{ PASSWORD_HASHING: "test", NODE_ENV: "production", ...PUBLIC_NEEDS }, "PASSWORD_HASHING"],
    [{ PASSWORD_HASHING: "fast" }, "PASSWORD_HASHING"],
  ])("refuses %o with one line naming %s", (env, name) => {
    let error: unknown;
    try {
      loadSettings(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SettingsError);
    const message = (error as Error).message;
    expect(message.startsWith(`Invalid setting ${name}=`)).toBe(true);
    expect(message).not.toContain("\n");
  });
});

it("takes the suite's Argon2id cost only with NODE_ENV=test", () => {
  expect(loadSettings({ NODE_ENV: "test", PASSWORD_HASHING: "test" }).PASSWORD_HASHING).toBe("test");
});

describe("RECAPTCHA_SCRIPT_URL (docs/product/accounts.md#recaptcha)", () => {
  it("defaults to Google's api.js and takes a stand-in's URL", () => {
    expect(loadSettings({}).RECAPTCHA_SCRIPT_URL).toBe("https://www.google.com/recaptcha/api.js");
    expect(loadSettings({ RECAPTCHA_SCRIPT_URL: "http://127.0.0.1:4000/recaptcha/api.js" }).RECAPTCHA_SCRIPT_URL).toBe("http://127.0.0.1:4000/recaptcha/api.js");
  });

  it.each(["not a url", "javascript:alert(1)", "https://x.example/api.js?render=explicit", "https://x.example/a;b/api.js", "https://x.example/it's.js", "ftp://x.example/api.js"])(
    "refuses %j with one line naming it",
    (value) => {
      expect(() => loadSettings({ RECAPTCHA_SCRIPT_URL: value })).toThrow(/^Invalid setting RECAPTCHA_SCRIPT_URL=/);
    },
  );
});

describe("WEB_CONCURRENCY", () => {
  it("runs several processes only on PostgreSQL, and says so in one line on the embedded database", async () => {
    const { processCount } = await import("./main.ts");
    const said: string[] = [];
    const log = (line: string) => said.push(line);
    expect(processCount(loadSettings({ WEB_CONCURRENCY: "3", DATABASE_URL: "postgres://db/shop" }), log)).toBe(3);
    expect(processCount(loadSettings({ WEB_CONCURRENCY: "auto", DATABASE_URL: "postgres://db/shop" }), log)).toBeGreaterThanOrEqual(1);
    expect(said).toEqual([]);
    expect(processCount(loadSettings({ WEB_CONCURRENCY: "4", DATABASE_URL: "memory://" }), log)).toBe(1);
    expect(said).toEqual(["WEB_CONCURRENCY=4 needs a postgres:// DATABASE_URL (the embedded database serves one process): running 1 process"]);
    expect(() => loadSettings({ WEB_CONCURRENCY: "many" })).toThrow(/^Invalid setting WEB_CONCURRENCY="many"/);
    expect(() => loadSettings({ METRICS_TOKEN: "short" })).toThrow(/^Invalid setting METRICS_TOKEN/);
  });
});
