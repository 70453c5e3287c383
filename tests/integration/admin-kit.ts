// Shared pieces of the back-office tests (docs/product/back-office.md): operators made as the
// product makes them — registered over HTTP, two-factor codes turned on through the API, the role
// given by the command line's use case, then signed in with a code (an operator session) — fresh
// TOTP codes on the shop's manual clock, and the audit entries a call wrote.
import { desc, eq } from "drizzle-orm";
import { beforeAll, expect } from "vitest";
import { totpAt } from "../../core/accounts/totp.ts";
import type { OperatorRole } from "../../core/operators/index.ts";
import { auditLog, paymentOrders } from "../../db/schema/index.ts";
import { PASSWORD, registerUser, type Shop, type User } from "../kit/shop.ts";

export type ManualClock = { now(): Date; advance(ms: number): void };

export type Operator = User & {
  role: OperatorRole;
  secret: string;
  /** A code never used before: the clock moves to the next 30-second step first. */
  code(): string;
};

/** A code of `secret` in a step not used yet (TOTP accepts each step once). */
export function freshCode(clock: ManualClock, secret: string): string {
  clock.advance(30_000);
  return totpAt(secret, clock.now());
}

/** Turns two-factor codes on for the user through the API; the secret. */
export async function enableTwoFa(shop: Shop, clock: ManualClock, user: User): Promise<string> {
  const started = await shop.call("POST", "/v2/web/user/2fa/enable", { token: user.token });
  expect(started.status, started.text).toBe(200);
  const secret = started.body.secret as string;
  const confirmed = await shop.call("POST", "/v2/web/user/2fa/confirmEnable", { token: user.token, json: { code: freshCode(clock, secret) } });
  expect(confirmed.status, confirmed.text).toBe(200);
  return secret;
}

/** Signs a two-factor user in: password, then a code; the full session's token. */
export async function signInWithCode(shop: Shop, clock: ManualClock, user: User, secret: string): Promise<string> {
  const first = await shop.call("POST", "/v2/web/login", { json: { login: user.email, password: PASSWORD } });
  expect(first.status, first.text).toBe(200);
  expect(first.body.twoFa).toBe(true);
  const second = await shop.call("POST", "/v2/web/confirmTwoFa", { token: first.body.token, json: { code: freshCode(clock, secret) } });
  expect(second.status, second.text).toBe(200);
  return second.body.token as string;
}

/** An operator as the product makes one: registered, 2FA on, the role given on the command line, signed in again. */
export async function makeOperator(shop: Shop, clock: ManualClock, role: OperatorRole, options: { twoFa?: boolean } = {}): Promise<Operator> {
  const user = await registerUser(shop, { tag: role });
  const secret = options.twoFa === false ? "" : await enableTwoFa(shop, clock, user);
  await shop.services.operators.grant(user.email, role, "test operator");
  const token = options.twoFa === false ? user.token : await signInWithCode(shop, clock, user, secret);
  return { ...user, token, role, secret, code: () => freshCode(clock, secret) };
}

/** The people most back-office tests start from: an owner, a support operator and a buyer. */
export type Staff = { owner: Operator; support: Operator; buyer: User };

/**
 * The file's owner and support operator (makeOperator) and, unless `buyer` is null, a buyer
 * registered with that tag ("buyer"), made in a `beforeAll` of the calling file in that order.
 * The objects are handed out at once and filled in by the hook, so a file destructures them at
 * its top: `const { owner, support, buyer } = useStaff(shop, clock);`.
 */
export function useStaff(shop: Shop, clock: ManualClock, { buyer = "buyer" }: { buyer?: string | null } = {}): Staff {
  const staff = { owner: {}, support: {}, buyer: {} } as Staff;
  beforeAll(async () => {
    Object.assign(staff.owner, await makeOperator(shop, clock, "owner"));
    Object.assign(staff.support, await makeOperator(shop, clock, "support"));
    if (buyer !== null) Object.assign(staff.buyer, await registerUser(shop, { tag: buyer }));
  });
  return staff;
}

/** The newest audit entries (optionally of one action), newest first. */
export async function auditEntries(shop: Shop, action?: string, limit = 20) {
  const query = shop.services.db.select().from(auditLog);
  const rows = await (action === undefined ? query : query.where(eq(auditLog.action, action))).orderBy(desc(auditLog.id)).limit(limit);
  return rows;
}

/** How many audit entries there are. */
export async function auditCount(shop: Shop): Promise<number> {
  return (await shop.services.db.select({ id: auditLog.id }).from(auditLog)).length;
}

/** Pays through the loopback PayPal (create → the buyer approves → capture); PayPal's order. */
export async function payByPayPal(shop: Shop, user: User, body: { amount?: number; product_id?: number }) {
  const created = await shop.call("POST", "/v2/web/payment/paypal/order", { token: user.token, json: body });
  expect(created.status, created.text).toBe(200);
  shop.paypal.approve(created.body.order_id);
  const captured = await shop.call("POST", "/v2/web/payment/paypal/capture", { token: user.token, json: { order_id: created.body.order_id } });
  expect(captured.status, captured.text).toBe(200);
  const order = shop.paypal.orders.get(created.body.order_id)!;
  const [row] = await shop.services.db.select().from(paymentOrders).where(eq(paymentOrders.providerOrderId, order.id));
  return { order, paymentId: row!.id };
}
