// The session lookups of requests that arrive together are one statement
// (docs/decisions/0078-session-lookups-together.md): each request still gets its own session or
// none (revoked, suspended, unknown, malformed), read after it arrived; the metric counts the
// statements and the tokens they read.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { registerUser, useShop } from "../kit/shop.ts";

const shop = useShop();

/** The metric of one statement: how many statements ran and how many tokens they read in all. */
async function lookups(statement: string): Promise<{ statements: number; tokens: number }> {
  const text = await shop.services.metrics.text();
  const value = (suffix: string) => Number(new RegExp(`shop_session_lookups_per_statement_${suffix}\\{statement="${statement}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
  return { statements: value("count"), tokens: value("sum") };
}

describe("session lookups read together", () => {
  it("gives each of the requests that arrived together its own session, in one statement", async () => {
    const [a, b, revoked, suspended] = await Promise.all([registerUser(shop), registerUser(shop), registerUser(shop), registerUser(shop)]);
    expect((await shop.call("POST", "/v2/web/logout", { token: revoked.token })).status).toBe(200);
    await shop.services.db.execute(sql`update users set suspended_at = now(), suspended_reason = 'test' where id = ${suspended.id}`);

    // A token that is no session, and one the lookup never reads (longer than any token).
    const tokens = [a.token, b.token, revoked.token, suspended.token, "A".repeat(43), "B".repeat(201), a.token, b.token];
    for (const [path, statement] of [
      ["/v2/web/user/me", "session_lookup"],
      ["/v2/web/frontend/data", "frontend_data_rows_session"],
    ] as const) {
      const before = await lookups(statement);
      const answers = await Promise.all(tokens.map((token) => shop.call("GET", path, { token })));
      const after = await lookups(statement);
      // user/me refuses a guest; frontend/data answers one with no user.
      const ids = answers.map((answer) => (answer.status === 200 ? ((answer.body.user as { id: number } | null)?.id ?? null) : answer.status));
      const guest = path === "/v2/web/user/me" ? 401 : null;
      expect(ids).toEqual([a.id, b.id, guest, guest, guest, guest, a.id, b.id]);
      // Every well-formed token was read, in fewer statements than requests (one when nothing else ran meanwhile).
      expect(after.tokens - before.tokens).toBe(tokens.length - 1);
      expect(after.statements - before.statements).toBeGreaterThanOrEqual(1);
      expect(after.statements - before.statements).toBeLessThan(tokens.length - 1);
    }
  });

  it("reads a session after the request arrived: a revocation just before is in force", async () => {
    const user = await registerUser(shop);
    // The logout and the next request's lookup in the same turn: the lookup runs after the logout committed.
    const logout = shop.call("POST", "/v2/web/logout", { token: user.token });
    expect((await logout).status).toBe(200);
    const [me, data] = await Promise.all([shop.call("GET", "/v2/web/user/me", { token: user.token }), shop.call("GET", "/v2/web/frontend/data", { token: user.token })]);
    expect(me.status).toBe(401);
    expect(data.body.user).toBeNull();
  });
});
