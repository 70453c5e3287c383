import { describe, expect, it } from "vitest";
import { loadSettings, SettingsError } from "./settings.ts";

describe("settings", () => {
  it("has the defaults of decisions §1", () => {
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
    });
  });

  it("derives PUBLIC_URL from PORT and turns on secure cookies for https", () => {
    expect(loadSettings({ PORT: "8080" }).PUBLIC_URL).toBe("http://localhost:8080");
    expect(loadSettings({ PUBLIC_URL: "https://shop.example/" })).toMatchObject({ PUBLIC_URL: "https://shop.example", secureCookies: true });
  });

  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ SHOP_CURRENCY: "dollars" }, "SHOP_CURRENCY"],
    [{ PUBLIC_URL: "not a url" }, "PUBLIC_URL"],
    [{ NODE_ENV: "staging" }, "NODE_ENV"],
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
