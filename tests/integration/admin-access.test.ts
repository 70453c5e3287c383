// Who may call the back office (docs/product/back-office.md#roles, issue 10 points 1 and 7): every
// call of `/v2/admin` answers guests 401, buyers 403 and operators without two-factor codes 403;
// `support` is refused what docs/product/back-office.md#roles keeps from it; a write without a reason, and a money move
// without a step-up code, are refused; every write is one audit entry; no operator acts on an
// operator's account; roles come from the command line's use case and OWNER_EMAILS, and an operator
// session lasts 12 hours. The audit log cannot be changed, by the web or by SQL.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, sessions, users } from "../../db/schema/index.ts";
import { manualClock } from "../../core/shared/clock.ts";
import { OPERATOR_SESSION_SECONDS, STEP_UP_SECONDS } from "../../core/operators/index.ts";
import { TEST_ORIGIN } from "../kit/app.ts";
import { GAMES, PASSWORD, registerUser, signIn, useShop, type Reply } from "../kit/shop.ts";
import { auditCount, auditEntries, enableTwoFa, freshCode, makeOperator, payByPayPal, signInWithCode, useStaff } from "./admin-kit.ts";

const clock = manualClock(new Date("2026-05-01T00:00:00.000Z"));
const FOUNDER = `founder-${process.pid}@shop.test`;
const shop = useShop({ paypal: true, clock, env: { OWNER_EMAILS: ` ${FOUNDER.toUpperCase()} , other@shop.test`, TRUST_PROXY: "1" } });

const { owner, support, buyer } = useStaff(shop, clock);
let paymentId: number;

beforeAll(async () => {
  ({ paymentId } = await payByPayPal(shop, buyer, { amount: 5000 }));
});

type Call = { method: "GET" | "POST"; path: () => string; body?: () => Record<string, unknown>; headers?: () => Record<string, string> };

/** Every call of docs/product/back-office.md#calls, with a body that is valid for an owner. */
const CALLS: Record<string, Call> = {
  me: { method: "GET", path: () => "/v2/admin/me" },
  stepUp: { method: "POST", path: () => "/v2/admin/step-up", body: () => ({ code: "123456" }) },
  search: { method: "GET", path: () => `/v2/admin/users?q=${encodeURIComponent(buyer.email)}` },
  detail: { method: "GET", path: () => `/v2/admin/users/${buyer.id}` },
  grant: { method: "POST", path: () => `/v2/admin/users/${buyer.id}/grant`, body: () => ({ cheat_id: GAMES.dota2.id, days: 3, reason: "outage" }) },
  balance: { method: "POST", path: () => `/v2/admin/users/${buyer.id}/balance`, body: () => ({ amount: 100, reason: "goodwill" }) },
  suspend: { method: "POST", path: () => `/v2/admin/users/${buyer.id}/suspend`, body: () => ({ reason: "fraud" }) },
  unsuspend: { method: "POST", path: () => `/v2/admin/users/${buyer.id}/unsuspend`, body: () => ({ reason: "cleared" }) },
  reset2fa: { method: "POST", path: () => `/v2/admin/users/${buyer.id}/reset-2fa`, body: () => ({ reason: "lost phone" }) },
  endSessions: { method: "POST", path: () => `/v2/admin/users/${buyer.id}/sessions/end`, body: () => ({ reason: "stolen laptop" }) },
  resendMail: { method: "POST", path: () => `/v2/admin/users/${buyer.id}/mails/resend`, body: () => ({ mail_id: 1, reason: "did not arrive" }) },
  payments: { method: "GET", path: () => "/v2/admin/payments" },
  paymentsCsv: { method: "GET", path: () => "/v2/admin/payments?format=csv" },
  payment: { method: "GET", path: () => `/v2/admin/payments/${paymentId}` },
  refund: { method: "POST", path: () => `/v2/admin/payments/${paymentId}/refund`, body: () => ({ amount: 100, reason: "asked" }) },
  compensation: {
    method: "POST",
    path: () => "/v2/admin/compensation",
    body: () => ({ cheat_id: GAMES.cs2.id, days: 1, reason: "patch day" }),
    headers: () => ({ "idempotency-key": `access-${Math.random().toString(36).slice(2)}` }),
  },
  audit: { method: "GET", path: () => "/v2/admin/audit" },
};

const call = (name: keyof typeof CALLS, token?: string, extra: Record<string, unknown> = {}): Promise<Reply> => {
  const c = CALLS[name]!;
  return shop.call(c.method, c.path(), { token, json: c.body ? { ...c.body(), ...extra } : undefined, headers: c.headers?.() });
};

describe("the operator guard", () => {
  it("answers every call 401 for a guest, with the envelope, no-store and the guest's language", async () => {
    for (const name of Object.keys(CALLS)) {
      const reply = await call(name as keyof typeof CALLS);
      expect(reply.status, name).toBe(401);
      expect(reply.body, name).toMatchObject({ status: false, code: "unauthenticated" });
      expect(reply.headers.get("cache-control"), name).toBe("no-store");
    }
    const ru = await shop.call("GET", "/v2/admin/users?q=a", { lang: "ru" });
    expect(ru.body.message).toBe(shop.services.catalogs.t("ru")("errors.unauthenticated"));
  });

  it("answers every call 403 for a buyer, and changes nothing", async () => {
    const before = await auditCount(shop);
    for (const name of Object.keys(CALLS)) {
      const reply = await call(name as keyof typeof CALLS, buyer.token);
      expect(reply.status, name).toBe(403);
      expect(reply.body, name).toMatchObject({ code: "forbidden", message: "The back office is for operators only." });
    }
    expect(await auditCount(shop)).toBe(before);
  });

  it("refuses an operator without two-factor codes (403 two_fa_required, saying how to turn them on) until they are on", async () => {
    const newcomer = await makeOperator(shop, clock, "support", { twoFa: false });
    for (const name of ["me", "search", "grant"] as const) {
      const reply = await call(name, newcomer.token);
      expect(reply.status, name).toBe(403);
      expect(reply.body.code).toBe("two_fa_required");
      expect(reply.body.message).toMatch(/two-factor verification in your account settings/);
    }
    const secret = await enableTwoFa(shop, clock, newcomer);
    const token = await signInWithCode(shop, clock, newcomer, secret);
    expect((await call("me", token)).status).toBe(200);
  });

  it("gives an operator a 12-hour session, refuses a longer one (401: sign in again), and follows a revoked role at once", async () => {
    const [session] = await shop.services.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, owner.id))
      .orderBy(sql`${sessions.id} desc`)
      .limit(1);
    expect(session!.expiresAt.getTime() - session!.createdAt.getTime()).toBe(OPERATOR_SESSION_SECONDS * 1000);

    // A buyer's 336-hour session: the grant on the command line brings it down to 12 hours.
    const later = await registerUser(shop, { tag: "later" });
    const secret = await enableTwoFa(shop, clock, later);
    await shop.services.operators.grant(later.email, "support", "hired");
    expect((await call("me", later.token)).status).toBe(200);
    const live = await shop.services.db.select().from(sessions).where(eq(sessions.userId, later.id));
    for (const s of live) expect(s.expiresAt.getTime()).toBeLessThanOrEqual(clock.now().getTime() + OPERATOR_SESSION_SECONDS * 1000);

    // A role set behind the product's back leaves a long session: refused until signed in again.
    await shop.services.db
      .update(sessions)
      .set({ expiresAt: new Date(clock.now().getTime() + 300 * 3600_000) })
      .where(eq(sessions.userId, later.id));
    const stale = await call("me", later.token);
    expect(stale.status).toBe(401);
    expect(stale.body.message).toBe("This session was opened before you became an operator. Please sign in again.");
    const fresh = await signInWithCode(shop, clock, later, secret);
    expect((await call("me", fresh)).body.operator).toMatchObject({ id: later.id, role: "support" });

    await shop.services.operators.revoke(later.email, "left");
    expect((await call("me", fresh)).status).toBe(403);
    const entries = await auditEntries(shop);
    expect(entries.filter((e) => e.targetId === String(later.id)).map((e) => [e.action, e.actorId, e.reason])).toEqual([
      ["operator.revoke", null, "left"],
      ["operator.grant", null, "hired"],
    ]);
  });

  it("makes a registered user with an OWNER_EMAILS address an owner at sign-in, audited, with an operator session", async () => {
    const reply = await shop.call("POST", "/v2/web/register", { json: { email: FOUNDER, password: PASSWORD } });
    expect(reply.status, reply.text).toBe(200);
    const [founder] = await shop.services.db.select().from(users).where(eq(users.email, FOUNDER));
    expect(founder!.role).toBe("owner");
    const [entry] = await auditEntries(shop, "operator.grant", 1);
    expect(entry).toMatchObject({ actorId: null, targetId: String(founder!.id), reason: "OWNER_EMAILS", after: { role: "owner" } });
    const [session] = await shop.services.db.select().from(sessions).where(eq(sessions.userId, founder!.id));
    expect(session!.expiresAt.getTime() - session!.createdAt.getTime()).toBe(OPERATOR_SESSION_SECONDS * 1000);
    // Revoked on the command line, the setting gives the role back at the next sign-in (it is the setting's to take away).
    await shop.services.operators.revoke(FOUNDER, "test");
    const again = await shop.call("POST", "/v2/web/login", { json: { login: FOUNDER, password: PASSWORD } });
    expect(again.status).toBe(200);
    const [back] = await shop.services.db.select({ role: users.role }).from(users).where(eq(users.id, founder!.id));
    expect(back!.role).toBe("owner");
  });

  it("checks the origin of a cookie-signed call like every other", async () => {
    const reply = await shop.request("/v2/admin/users/1/grant", {
      method: "POST",
      headers: { cookie: `access_token=${owner.token}`, origin: "https://evil.example", "content-type": "application/json", "accept-language": "en" },
      body: JSON.stringify({ cheat_id: 1, days: 1, reason: "x" }),
    });
    expect(reply.status).toBe(403);
    expect((await reply.json()).message).toMatch(/another site/);
    const same = await shop.request("/v2/admin/me", { headers: { cookie: `access_token=${owner.token}`, origin: TEST_ORIGIN } });
    expect(same.status).toBe(200);
  });
});

describe("support", () => {
  it("is refused refunds, balance changes and compensation (403), and changes nothing", async () => {
    const before = await auditCount(shop);
    for (const name of ["balance", "refund", "compensation"] as const) {
      const reply = await call(name, support.token, { code: support.code() });
      expect(reply.status, name).toBe(403);
      expect(reply.body.message, name).toBe("Only an owner can do this.");
    }
    expect(await auditCount(shop)).toBe(before);
  });

  it("grants at most 30 days per action either way, and may suspend, lift, reset 2FA, end sessions and read everything", async () => {
    const over = await call("grant", support.token, { days: 31 });
    expect(over.status).toBe(403);
    expect(over.body.message).toBe("Support can add or remove at most 30 days at a time.");
    expect((await call("grant", support.token, { days: -31 })).status).toBe(403);
    expect((await call("grant", support.token, { days: 30 })).status).toBe(200);
    expect((await call("grant", support.token, { days: -30 })).status).toBe(200);
    for (const name of ["suspend", "unsuspend", "endSessions", "me", "search", "detail", "payments", "paymentsCsv", "payment", "audit"] as const) {
      const reply = await call(name, support.token);
      expect(reply.status, `${name}: ${reply.text.slice(0, 200)}`).toBe(200);
    }
  });
});

describe("reasons, step-up codes and the audit", () => {
  it("refuses every write without a reason (400, the field named), in the caller's language", async () => {
    for (const name of ["grant", "balance", "suspend", "unsuspend", "reset2fa", "endSessions", "resendMail", "refund", "compensation"] as const) {
      for (const reason of [undefined, "", "   "]) {
        const reply = await call(name, owner.token, { reason, code: undefined });
        expect(reply.status, `${name} ${JSON.stringify(reason)}`).toBe(400);
        expect(reply.body.errors.reason, name).toBe("Give a reason.");
      }
    }
    const ru = await shop.call("POST", `/v2/admin/users/${buyer.id}/suspend`, { token: owner.token, json: {}, lang: "ru" });
    expect(ru.body.errors.reason).toBe("Укажите причину.");
  });

  it("moves money only with a step-up: none is 403, a wrong code 400, a good one opens five minutes for that session", async () => {
    const fresh = await makeOperator(shop, clock, "owner");
    const before = await auditCount(shop);
    for (const name of ["balance", "refund", "compensation"] as const) {
      const none = await call(name, fresh.token);
      expect(none.status, name).toBe(403);
      expect(none.body).toMatchObject({ code: "step_up_required", message: "Confirm this action with a code from your authenticator app." });
      const wrong = await call(name, fresh.token, { code: "000000" });
      expect(wrong.status, name).toBe(400);
      expect(wrong.body.code, name).toBe("invalid_code");
      expect((await call(name, fresh.token, { code: "12345" })).body.errors.code, name).toBe("Enter the 6-digit code or a recovery code.");
    }
    expect(await auditCount(shop)).toBe(before);

    const good = await call("balance", fresh.token, { code: fresh.code() });
    expect(good.status, good.text).toBe(200);
    // The window is open: the next money moves need no code, until five minutes have passed.
    expect((await call("balance", fresh.token)).status).toBe(200);
    expect((await call("me", fresh.token)).body.operator.step_up_until).toBe(new Date(clock.now().getTime() + STEP_UP_SECONDS * 1000).toISOString());
    clock.advance(STEP_UP_SECONDS * 1000 + 1000);
    expect((await call("balance", fresh.token)).status).toBe(403);
    // The step-up call opens a window on its own; a code is good once.
    const code = fresh.code();
    expect((await shop.call("POST", "/v2/admin/step-up", { token: fresh.token, json: { code } })).status).toBe(200);
    expect((await call("balance", fresh.token)).status).toBe(200);
    expect((await shop.call("POST", "/v2/admin/step-up", { token: fresh.token, json: { code } })).status).toBe(400);
    // The window belongs to the session: another session of the same operator has none.
    const other = await signInWithCode(shop, clock, fresh, fresh.secret);
    expect((await call("balance", other)).status).toBe(403);
  });

  it("writes one audit entry per write, with the operator, the reason, before and after, and the address", async () => {
    const mailId = await shop.services.mailer.send({ to: buyer.email, locale: "en", template: "password_changed" });
    const writes: [keyof typeof CALLS, string, Record<string, unknown>][] = [
      ["grant", "user.grant", {}],
      ["balance", "user.balance", { code: owner.code() }],
      ["suspend", "user.suspend", {}],
      ["unsuspend", "user.unsuspend", {}],
      ["endSessions", "user.end_sessions", {}],
      ["resendMail", "user.resend_mail", { mail_id: mailId }],
      ["refund", "refund.request", {}],
      ["compensation", "compensation.run", {}],
    ];
    for (const [name, action, extra] of writes) {
      const before = await auditCount(shop);
      const reply = await shop.call(CALLS[name]!.method, CALLS[name]!.path(), {
        token: owner.token,
        json: { ...CALLS[name]!.body!(), ...extra },
        headers: { ...CALLS[name]!.headers?.(), "x-forwarded-for": "203.0.113.9" },
      });
      expect(reply.status, `${name}: ${reply.text.slice(0, 300)}`).toBe(200);
      expect(await auditCount(shop), name).toBe(before + 1);
      const [entry] = await auditEntries(shop, undefined, 1);
      expect(entry, name).toMatchObject({ actorId: owner.id, action, reason: CALLS[name]!.body!().reason, ip: "203.0.113.9" });
      expect(entry!.after, name).not.toBeNull();
    }
    // A buyer with two-factor codes, for the reset (signed in again: their sessions were ended above).
    await signIn(shop, buyer);
    const secret = await enableTwoFa(shop, clock, buyer);
    expect(secret).not.toBe("");
    const reset = await call("reset2fa", owner.token);
    expect(reset.status, reset.text).toBe(200);
    expect((await auditEntries(shop, "user.reset_2fa", 1))[0]).toMatchObject({ actorId: owner.id, before: { two_fa_enabled: true }, after: { two_fa_enabled: false } });

    // The list through the API, filtered by actor, target and action, paged by cursor.
    const page = await shop.call("GET", `/v2/admin/audit?actor=${owner.id}&target=user:${buyer.id}&limit=2`, { token: support.token });
    expect(page.status).toBe(200);
    expect(page.body.entries).toHaveLength(2);
    expect(page.body.entries[0]).toMatchObject({ actor_id: owner.id, target_type: "user", target_id: String(buyer.id), action: "user.reset_2fa", reason: "lost phone" });
    const next = await shop.call("GET", `/v2/admin/audit?actor=${owner.id}&target=user:${buyer.id}&limit=2&cursor=${page.body.next_cursor}`, { token: support.token });
    expect(next.body.entries[0].id).toBeLessThan(page.body.entries[1].id);
    const refunds = await shop.call("GET", "/v2/admin/audit?action=refund.request", { token: owner.token });
    expect(refunds.body.entries.map((e: { action: string }) => e.action)).toEqual(["refund.request"]);
    expect((await shop.call("GET", "/v2/admin/audit?target=user:1;drop", { token: owner.token })).status).toBe(400);
  });

  it("refuses any action on an operator's account, their own included (403), reading it is allowed", async () => {
    for (const target of [support, owner]) {
      for (const name of ["grant", "balance", "suspend", "reset2fa", "endSessions"] as const) {
        const c = CALLS[name]!;
        const reply = await shop.call("POST", c.path().replace(`/users/${buyer.id}/`, `/users/${target.id}/`), { token: owner.token, json: { ...c.body!(), code: undefined } });
        expect(reply.status, name).toBe(403);
        expect(reply.body.message, name).toBe("Operators' accounts cannot be changed in the back office.");
      }
    }
    expect((await shop.call("GET", `/v2/admin/users/${support.id}`, { token: owner.token })).body.user.role).toBe("support");
  });

  it("keeps the audit log append-only: no web path changes it, and the database refuses UPDATE, DELETE and TRUNCATE", async () => {
    const [entry] = await auditEntries(shop, undefined, 1);
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const reply = await shop.request(`/v2/admin/audit/${entry!.id}`, { method, headers: { authorization: `Bearer ${owner.token}`, "content-type": "application/json" }, body: "{}" });
      expect(reply.status, method).toBe(404);
    }
    await expect(shop.services.db.update(auditLog).set({ reason: "rewritten" }).where(eq(auditLog.id, entry!.id))).rejects.toThrow();
    await expect(shop.services.db.delete(auditLog).where(eq(auditLog.id, entry!.id))).rejects.toThrow();
    await expect(shop.services.db.execute(sql`truncate audit_log`)).rejects.toThrow();
    const [kept] = await shop.services.db.select().from(auditLog).where(eq(auditLog.id, entry!.id));
    expect(kept!.reason).toBe(entry!.reason);
  });
});

describe("the step-up code", () => {
  it("counts wrong codes against the sign-in limits, so a step-up buys no extra guesses", async () => {
    const guesser = await makeOperator(shop, clock, "owner");
    let limited: Reply | undefined;
    for (let i = 0; i < 15 && !limited; i++) {
      const reply = await shop.call("POST", "/v2/admin/step-up", { token: guesser.token, json: { code: String(100000 + i) } });
      if (reply.status === 429) limited = reply;
      else expect(reply.status).toBe(400);
    }
    expect(limited?.body.code).toBe("rate_limited");
    expect(limited?.headers.get("retry-after")).toBeTruthy();
    expect(freshCode(clock, guesser.secret)).toMatch(/^\d{6}$/);
  });
});
