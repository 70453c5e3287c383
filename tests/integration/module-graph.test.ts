// One module graph (docs/decisions/0008-one-module-graph.md): the page build imports core/,
// server/ and i18n/ from source, so the process holds one copy of each, and a DomainError the core
// throws is the very class the routes catch with a plain `instanceof` (no brand). Were the build
// to bundle copies of its own, these pages would answer 500 instead of the form's message.
import { describe, expect, it } from "vitest";
import { DomainError } from "../../core/shared/errors.ts";
import { readCatalog } from "../../i18n/catalogs.ts";
import { useTestApp } from "../kit/app.ts";

const shop = useTestApp();

function post(path: string, fields: Record<string, string>) {
  return shop.request(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: shop.services.settings.PUBLIC_URL },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

describe("one module graph", () => {
  it("a DomainError thrown in the core is the class a page action catches", async () => {
    expect(Object.hasOwn(DomainError, Symbol.hasInstance)).toBe(false);
    // The core's sign-in, watched: what it throws is this process's DomainError…
    const { accounts } = shop.services;
    const login = accounts.login;
    const thrown: unknown[] = [];
    accounts.login = async (...args) => {
      try {
        return await login(...args);
      } catch (error) {
        thrown.push(error);
        throw error;
      }
    };
    try {
      const res = await post("/en/auth", { intent: "password", login: "demo@example.com", password: "not the password" });
      expect(thrown).toHaveLength(1);
      expect(thrown[0]).toBeInstanceOf(DomainError);
      expect((thrown[0] as DomainError).code).toBe("invalid_credentials");
      // …and the route's `instanceof DomainError` recognised it: the form's answer, not an error page.
      expect(res.status).toBe(401);
      const html = await res.text();
      expect(html).toContain('role="alert"');
      expect(html).toContain(readCatalog("en")["errors.invalid_credentials"]);
    } finally {
      accounts.login = login;
    }
  });
});
