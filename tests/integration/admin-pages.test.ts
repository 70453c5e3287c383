// The back-office pages (docs/product/back-office.md#pages, issue 10 point 8) on the server: the
// entry (guests to sign in, buyers and operators without two-factor codes refused with the way on),
// the customer page's actions as plain form posts with their reasons and audit entries, `support`'s
// limits, the step-up before money moves, a refund through the loopback PayPal from the payment's
// page (its form's request key makes a second post the same refund), compensation replayed by its
// key, and the lists' filters.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { manualClock } from "../../core/shared/clock.ts";
import { compensations, paymentRefunds } from "../../db/schema/index.ts";
import type { MessageKey, Params } from "../../i18n/translate.ts";
import { pageText } from "../kit/html.ts";
import { GAMES, balanceOf, message, postPageForm, registerUser, useShop } from "../kit/shop.ts";
import { auditEntries, makeOperator, payByPayPal, signInWithCode, type Operator, useStaff } from "./admin-kit.ts";

const clock = manualClock(new Date("2026-06-01T00:00:00.000Z"));
const shop = useShop({ pages: true, paypal: true, clock });
/** The English messages the pages are read in. */
const t = (key: MessageKey, params?: Params) => message(shop, "en", key, params);

const { owner, support, buyer } = useStaff(shop, clock, { buyer: "pages-buyer" });

const cookieOf = (user: { token: string }) => `access_token=${user.token}`;

async function get(path: string, user?: { token: string }) {
  const res = await shop.request(path, { headers: user ? { cookie: cookieOf(user) } : {}, redirect: "manual" });
  return { status: res.status, location: res.headers.get("location"), cacheControl: res.headers.get("cache-control"), text: pageText(await res.text()) };
}

async function post(path: string, user: { token: string }, fields: Record<string, string>) {
  const res = await postPageForm(shop, path, fields, cookieOf(user));
  return { status: res.status, location: res.headers.get("location"), text: pageText(await res.text()) };
}

/** A fresh operator session (the manual clock moves on in this file). */
async function again(operator: Operator) {
  operator.token = await signInWithCode(shop, clock, operator, operator.secret);
}

describe("the entry", () => {
  it("sends a guest to sign in, and refuses a buyer and an operator without two-factor codes", async () => {
    const guest = await get("/en/admin/customers");
    expect(guest.status).toBe(302);
    expect(guest.location).toBe(`/en/auth?redirectTo=${encodeURIComponent("/en/admin/customers")}`);

    const asBuyer = await get("/en/admin", buyer);
    expect(asBuyer.status).toBe(403);
    expect(asBuyer.text).toContain(t("errors.admin_operators_only"));
    expect(asBuyer.text).not.toContain(t("admin.nav.customers"));

    const no2fa = await makeOperator(shop, clock, "support", { twoFa: false });
    const refused = await get("/admin/audit", no2fa);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain(message(shop, "ru", "errors.admin_two_fa_required"));
    expect(refused.text).toContain(message(shop, "ru", "admin.entry.twoFaLink"));

    const entered = await get("/en/admin", owner);
    expect(entered.status).toBe(200);
    expect(entered.cacheControl).toBe("no-store");
    for (const section of ["customers", "payments", "compensation", "audit"] as const) expect(entered.text).toContain(t(`admin.nav.${section}`));
  });
});

describe("customers", () => {
  it("finds a buyer by the start of the address, and shows the customer with what the role may do", async () => {
    await again(owner);
    const found = await get(`/en/admin/customers?q=${encodeURIComponent(buyer.email.slice(0, 12))}`, owner);
    expect(found.status).toBe(200);
    expect(found.text).toContain(buyer.email);
    const nothing = await get(`/en/admin/customers?q=${"x".repeat(300)}`, owner);
    expect(nothing.text).toContain(t("admin.customers.qInvalid"));

    const asOwner = await get(`/en/admin/customers/${buyer.id}`, owner);
    expect(asOwner.text).toContain(t("admin.balance.title"));
    await again(support);
    const asSupport = await get(`/en/admin/customers/${buyer.id}`, support);
    expect(asSupport.status).toBe(200);
    expect(asSupport.text).toContain(t("admin.grant.title"));
    expect(asSupport.text).not.toContain(t("admin.balance.title"));
    expect((await get("/en/admin/customers/999999", owner)).status).toBe(404);
  });

  it("grants days with a reason, refuses none, and holds support to 30 days and away from the balance", async () => {
    await again(owner);
    await again(support);
    const path = `/en/admin/customers/${buyer.id}`;
    const cheat = String(GAMES.dota2.id);

    const noReason = await post(path, owner, { intent: "grant", cheat_id: cheat, days: "3", reason: " " });
    expect(noReason.status).toBe(400);
    expect(noReason.text).toContain(t("validation.reason_required"));

    const granted = await post(path, owner, { intent: "grant", cheat_id: cheat, days: "3", reason: "outage" });
    expect(granted.status).toBe(302);
    expect(granted.location).toBe(`${path}?done=grant`);
    const [entry] = await auditEntries(shop, "user.grant", 1);
    expect(entry).toMatchObject({ actorId: owner.id, targetId: String(buyer.id), reason: "outage" });
    expect((await get(granted.location!, owner)).text).toContain(t("admin.done.grant"));

    const tooMany = await post(path, support, { intent: "grant", cheat_id: cheat, days: "31", reason: "goodwill" });
    expect(tooMany.status).toBe(403);
    expect(tooMany.text).toContain(t("errors.admin_support_days_limit", { max: 30 }));

    const balance = await post(path, support, { intent: "balance", amount: "5", reason: "goodwill" });
    expect(balance.status).toBe(403);
    expect(balance.text).toContain(t("errors.admin_owner_only"));
    expect(await balanceOf(shop, buyer.id)).toBe(0);
  });

  it("moves the balance only after a step-up code, typed in the shop currency", async () => {
    await again(owner);
    const path = `/en/admin/customers/${buyer.id}`;
    const before = await balanceOf(shop, buyer.id);
    const page = await get(path, owner);
    expect(page.text).toContain(t("admin.stepUp.title"));

    const noCode = await post(path, owner, { intent: "balance", amount: "2.50", reason: "goodwill" });
    expect(noCode.status).toBe(403);
    expect(noCode.text).toContain(t("errors.step_up_required"));
    const wrongAmount = await post(path, owner, { intent: "balance", amount: "2.505", reason: "goodwill", code: owner.code() });
    expect(wrongAmount.status).toBe(400);
    expect(await balanceOf(shop, buyer.id)).toBe(before);

    const done = await post(path, owner, { intent: "balance", amount: "2,50", reason: "goodwill", code: owner.code() });
    expect(done.status, done.text).toBe(302);
    expect(await balanceOf(shop, buyer.id)).toBe(before + 250);
    // The window is open now: the next change needs no code, and takes a sign.
    const less = await post(path, owner, { intent: "balance", amount: "-1", reason: "correction" });
    expect(less.status, less.text).toBe(302);
    expect(await balanceOf(shop, buyer.id)).toBe(before + 150);
    expect((await get(path, owner)).text).not.toContain(t("admin.stepUp.code"));
    const entries = await auditEntries(shop, "user.balance", 2);
    expect(entries.map((e) => e.reason)).toEqual(["correction", "goodwill"]);
  });

  it("suspends and lifts, each audited, and never acts on an operator", async () => {
    await again(support);
    const path = `/en/admin/customers/${buyer.id}`;
    expect((await post(path, support, { intent: "suspend", reason: "fraud check" })).status).toBe(302);
    expect((await get(path, support)).text).toContain(t("admin.unsuspend.title"));
    expect((await post(path, support, { intent: "unsuspend", reason: "cleared" })).status).toBe(302);
    expect((await auditEntries(shop, "user.suspend", 1))[0]!.reason).toBe("fraud check");
    expect((await auditEntries(shop, "user.unsuspend", 1))[0]!.reason).toBe("cleared");

    const onOperator = await post(`/en/admin/customers/${owner.id}`, support, { intent: "suspend", reason: "no" });
    expect(onOperator.status).toBe(403);
    expect(onOperator.text).toContain(t("errors.admin_target_operator"));
  });
});

describe("payments and refunds", () => {
  it("refunds part of a PayPal payment from its page once, however often the form is sent", async () => {
    await again(owner);
    const payer = await registerUser(shop, { tag: "pages-payer" });
    const { paymentId } = await payByPayPal(shop, payer, { amount: 2000 });
    const list = await get("/en/admin/payments?provider=paypal&status=completed", owner);
    expect(list.text).toContain(payer.email);
    expect((await get("/en/admin/payments?from=yesterday", owner)).text).toContain(t("admin.payments.filterInvalid"));

    const path = `/en/admin/payments/${paymentId}`;
    const page = await get(path, owner);
    expect(page.text).toContain(t("admin.refund.title"));
    const key = crypto.randomUUID();
    const form = { amount: "5", reason: "partial refund", request_key: key, code: owner.code() };
    const first = await post(path, owner, form);
    expect(first.status, first.text).toBe(302);
    const second = await post(path, owner, { ...form, code: "" });
    expect(second.status, second.text).toBe(302);
    expect(await balanceOf(shop, payer.id)).toBe(1500);
    expect(await shop.services.db.select().from(paymentRefunds).where(eq(paymentRefunds.orderId, paymentId))).toHaveLength(1);
    expect((await get(path, owner)).text).toContain(t("admin.payment.status.partially_refunded"));

    await again(support);
    const bySupport = await get(path, support);
    expect(bySupport.text).not.toContain(t("admin.refund.amountHint"));
    expect((await post(path, support, { reason: "no", request_key: crypto.randomUUID() })).status).toBe(403);
  });
});

describe("compensation and the audit log", () => {
  it("compensates once per form, and the audit log filters by action and target", async () => {
    await again(owner);
    const key = crypto.randomUUID();
    const form = { cheat_id: String(GAMES.dota2.id), days: "2", reason: "patch day", idempotency_key: key, code: owner.code() };
    const first = await post("/en/admin/compensation", owner, form);
    expect(first.status, first.text).toBe(200);
    const affected = (await shop.services.db.select().from(compensations).where(eq(compensations.idempotencyKey, key)))[0]!.total;
    expect(affected).toBeGreaterThan(0);
    expect(first.text).toContain(t("admin.compensation.done", { count: affected, days: 2, game: GAMES.dota2.name }));
    const replay = await post("/en/admin/compensation", owner, { ...form, code: "" });
    expect(replay.text).toContain(t("admin.compensation.done", { count: affected, days: 2, game: GAMES.dota2.name }));
    expect(await shop.services.db.select().from(compensations).where(eq(compensations.idempotencyKey, key))).toHaveLength(1);

    const audit = await get(`/en/admin/audit?action=user.grant&target=user:${buyer.id}`, owner);
    expect(audit.text).toContain("outage");
    expect(audit.text).not.toContain("patch day");
    expect((await get("/en/admin/audit?action=compensation.run", owner)).text).toContain("patch day");
    expect((await get("/en/admin/audit?target=not%20a%20target", owner)).text).toContain(t("admin.audit.filterInvalid"));

    await again(support);
    const bySupport = await get("/en/admin/compensation", support);
    expect(bySupport.text).toContain(t("errors.admin_owner_only"));
    expect((await post("/en/admin/compensation", support, { ...form, idempotency_key: crypto.randomUUID() })).status).toBe(403);
  });
});
