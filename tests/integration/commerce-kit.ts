// Shared pieces of the commerce API tests: one in-process shop per test file (optionally against
// the loopback PayPal and SMTP servers, optionally on a manual clock), a small JSON client, users
// registered over HTTP, and ledger checks read straight from the database.
import { randomBytes } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { transactions, users } from "../../db/schema/index.ts";
import { DEMO } from "../../db/seed.ts";
import type { Clock } from "../../core/shared/clock.ts";
import type { SubscriptionDto } from "../../server/api/wire/commerce.ts";
import { startTestApp, type TestApp } from "../kit/app.ts";
import { startPayPalKit, type PayPalKit } from "../kit/paypal.ts";
import { startSmtpServer, type TestSmtpServer } from "../kit/smtp.ts";
import { forgetWelcomeMail, verifyEmail } from "../kit/verification.ts";
import type { Locale } from "../../i18n/locales.ts";

export const PASSWORD = "Quartz-Lantern-42";

/** The demo catalogue by name (db/seed.ts): `PRODUCTS.dota2.days30.id`, `GAMES.minecraft.id`. */
export const { games: GAMES, products: PRODUCTS } = DEMO;

export type Reply = {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of many shapes, checked by the tests
  body: any;
  text: string;
  headers: Headers;
};

export type CallOptions = { json?: unknown; token?: string; headers?: Record<string, string>; lang?: string };

export type CommerceShop = TestApp & {
  paypal: PayPalKit;
  smtp: TestSmtpServer;
  call(method: "GET" | "POST", path: string, options?: CallOptions): Promise<Reply>;
  /** Every response body this file received, for the no-stack-trace check. */
  bodies: string[];
};

/** Limits high enough that the parallel tests never meet the write rate limit (nor the mail one: gifts by e-mail). */
const TEST_ENV = { RATE_WRITE_USER: "100000/1m", RATE_WRITE_IP: "100000/1m", RATE_REGISTER_IP: "10000/1h", RATE_MAIL_USER: "100000/1h" };

export function useCommerceShop(options: { env?: Record<string, string>; clock?: Clock; paypal?: boolean; smtp?: boolean; pages?: boolean } = {}): CommerceShop {
  const bodies: string[] = [];
  const holder = { bodies } as Partial<CommerceShop> & { stop?: () => Promise<void> };

  beforeAll(async () => {
    const env: Record<string, string> = { ...TEST_ENV };
    if (options.paypal) {
      holder.paypal = await startPayPalKit();
      Object.assign(env, holder.paypal.env());
    }
    if (options.smtp) {
      holder.smtp = await startSmtpServer();
      env.SMTP_URL = holder.smtp.url;
    }
    Object.assign(env, options.env);
    Object.assign(holder, await startTestApp({ env, clock: options.clock, pages: options.pages ?? false }));
  });

  afterAll(async () => {
    await holder.stop?.();
    await holder.paypal?.stop();
    await holder.smtp?.stop();
    // docs/product/api.md#envelope: no stack trace leaves the server.
    for (const text of bodies) {
      expect(text).not.toMatch(/\bstack\b/i);
      expect(text).not.toContain("node_modules");
    }
  });

  holder.call = async (method, path, o = {}) => {
    const headers: Record<string, string> = { "accept-language": o.lang ?? "en", ...o.headers };
    if (o.json !== undefined) headers["content-type"] = "application/json";
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    const res = await holder.request!(path, { method, headers, body: o.json === undefined ? undefined : JSON.stringify(o.json) });
    const text = await res.text();
    bodies.push(text);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, body, text, headers: res.headers };
  };

  return new Proxy(holder, {
    get(target, key) {
      const value = target[key as keyof typeof target];
      if (value === undefined && (key === "paypal" || key === "smtp")) throw new Error(`the shop was started without ${key}`);
      return value;
    },
  }) as CommerceShop;
}

// ---- users ----

const RUN = randomBytes(3).toString("hex");
let serial = 0;

export type User = { id: number; email: string; username: string; token: string };

export function uniqueEmail(tag = "buyer"): string {
  return `${tag}-${RUN}-${++serial}@example.com`;
}

/**
 * Registers a user over HTTP (optionally referred by a referral code, from a visitor id `t`, and
 * from a client address, which counts when the shop runs with TRUST_PROXY) and signs them in. The
 * address is then verified by the welcome mail's link, as a buyer does before giving days away
 * (docs/product/accounts.md#verified-addresses), unless `verified: false`; the welcome mail is
 * not among the mails the loopback SMTP server keeps for the test.
 */
export async function register(
  shop: CommerceShop,
  options: { tag?: string; referrer?: string; balance?: number; t?: string; ip?: string; lang?: string; verified?: boolean } = {},
): Promise<User> {
  const tag = options.tag ?? "buyer";
  const email = uniqueEmail(tag);
  const username = `${tag}_${RUN}_${serial}`;
  const reply = await shop.call("POST", "/v2/web/register", {
    json: { email, password: PASSWORD, username, ...(options.referrer ? { referrer: options.referrer } : {}), ...(options.t ? { t: options.t } : {}) },
    headers: options.ip ? { "x-forwarded-for": options.ip } : {},
    lang: options.lang,
  });
  expect(reply.status, reply.text).toBe(200);
  const token = reply.body.token as string;
  const me = await shop.call("GET", "/v2/web/user/me", { token });
  expect(me.status, me.text).toBe(200);
  const user = { id: me.body.user.id as number, email, username, token };
  if (options.verified !== false) await verifyEmail(shop, email);
  if ("smtp" in shop) await forgetWelcomeMail(shop, shop.smtp, email, shop.services.catalogs.t((options.lang ?? "en") as Locale)("mail.welcome.subject"));
  if (options.balance) await topUp(shop, user.id, options.balance);
  return user;
}

/** Signs the user in again (a session lives 336 h: a test that moves the clock far needs a new one). */
export async function signIn(shop: CommerceShop, user: User): Promise<User> {
  const reply = await shop.call("POST", "/v2/web/login", { json: { login: user.email, password: PASSWORD } });
  expect(reply.status, reply.text).toBe(200);
  user.token = reply.body.token as string;
  return user;
}

/** Credits a balance as the system would (a booked top-up). */
export async function topUp(shop: CommerceShop, userId: number, amount: number): Promise<number> {
  const { balance } = await shop.services.db.transaction((tx) =>
    shop.services.ledger.post(tx, { userId, type: "topup", amount, paid: amount, source: "system" }, new Date()),
  );
  return balance;
}

// ---- ledger checks ----

export async function balanceOf(shop: CommerceShop, userId: number): Promise<number> {
  const [row] = await shop.services.db.select({ balance: users.balance }).from(users).where(eq(users.id, userId));
  return row!.balance;
}

/** What the user owes after refunds took more than the balance held (docs/product/money.md#owed). */
export async function owedOf(shop: CommerceShop, userId: number): Promise<number> {
  const [row] = await shop.services.db.select({ owed: users.owed }).from(users).where(eq(users.id, userId));
  return row!.owed;
}

export async function rowsOf(shop: CommerceShop, userId: number) {
  return shop.services.db.select().from(transactions).where(eq(transactions.userId, userId)).orderBy(asc(transactions.id));
}

export async function ledgerSum(shop: CommerceShop, userId: number): Promise<number> {
  const [row] = await shop.services.db
    .select({ sum: sql<string>`coalesce(sum(${transactions.amount}), 0)` })
    .from(transactions)
    .where(eq(transactions.userId, userId));
  return Number(row!.sum);
}

/**
 * The balance equals the sum of the user's ledger amounts and never went below zero; what the user
 * owes equals the sum of the rows' owed changes (docs/product/money.md#owed).
 */
export async function expectConsistentLedger(shop: CommerceShop, userId: number): Promise<number> {
  const balance = await balanceOf(shop, userId);
  expect(balance).toBeGreaterThanOrEqual(0);
  expect(balance).toBe(await ledgerSum(shop, userId));
  const [owed] = await shop.services.db
    .select({ sum: sql<string>`coalesce(sum(${transactions.owedChange}), 0)` })
    .from(transactions)
    .where(eq(transactions.userId, userId));
  expect(await owedOf(shop, userId)).toBe(Number(owed!.sum));
  // Each row's balance_after is the running sum of the amounts up to it.
  let running = 0;
  for (const row of await rowsOf(shop, userId)) {
    running += row.amount;
    expect(row.balanceAfter).toBe(running);
    expect(row.balanceAfter).toBeGreaterThanOrEqual(0);
  }
  return balance;
}

export function subscriptionOf(reply: Reply, cheatId: number): SubscriptionDto | undefined {
  return (reply.body.subscriptions as SubscriptionDto[]).find((s) => s.cheat_id === cheatId);
}

export async function subscriptionsOf(shop: CommerceShop, token: string) {
  const reply = await shop.call("GET", "/v2/web/user/subscriptions", { token });
  expect(reply.status).toBe(200);
  return reply;
}
