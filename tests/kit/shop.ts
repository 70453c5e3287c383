// The one kit of the API and page tests: one in-process shop per test file (with the loopback
// SMTP, PayPal and reCAPTCHA servers when asked), a JSON client that records every response body
// so that a file can assert no stack trace ever left the server, users registered over HTTP, mails,
// two-factor codes, and ledger checks read straight from the database.
import { randomBytes } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import { parse } from "hono/utils/cookie";
import { afterAll, beforeAll, expect } from "vitest";
import { transactions, users } from "../../db/schema/index.ts";
import { DEMO } from "../../db/seed.ts";
import type { Locale } from "../../i18n/locales.ts";
import type { MessageKey, Params } from "../../i18n/translate.ts";
import { totpAt } from "../../core/accounts/totp.ts";
import { manualClock, type Clock } from "../../core/shared/clock.ts";
import type { SubscriptionDto } from "../../server/api/wire/commerce.ts";
import { TEST_ORIGIN, startTestApp, type TestApp } from "./app.ts";
import { startPayPalKit, type PayPalKit } from "./paypal.ts";
import { startRecaptchaServer, type TestRecaptchaServer } from "./recaptcha.ts";
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from "./smtp.ts";
import { forgetWelcomeMail, verifyEmail } from "./verification.ts";

export { TEST_ORIGIN };

/** A password that passes every rule (length, not on the common list). */
export const PASSWORD = "Quartz-Lantern-42";

/** The demo catalogue by name (db/seed.ts): `PRODUCTS.dota2.days30.id`, `GAMES.minecraft.id`. */
export const { games: GAMES, products: PRODUCTS } = DEMO;

export type ManualClock = ReturnType<typeof manualClock>;

export type Reply = {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of many shapes, checked by the tests
  body: any;
  text: string;
  headers: Headers;
};

export type CallOptions = {
  /** A JSON body (serialised here). */
  json?: unknown;
  /** A raw body, sent as it is. */
  raw?: string;
  /** Authorization: Bearer <token>. */
  token?: string;
  /** The Cookie header. */
  cookie?: string;
  /** The client address, sent as X-Forwarded-For (counts while the shop trusts its proxy, the default here). */
  ip?: string;
  /** Accept-Language; "en" unless given. */
  lang?: string;
  headers?: Record<string, string>;
};

export type ShopOptions = {
  /** Settings over the kit's defaults (TRUST_PROXY=1, lifted write, registration and mail limits). */
  env?: Record<string, string>;
  /** A manual clock unless given; `systemClock` runs the shop on the wall clock. */
  clock?: Clock;
  /** The shop sends its mails to a loopback SMTP server (`shop.smtp`). */
  smtp?: boolean;
  /** The shop verifies reCAPTCHA tokens against a loopback siteverify server (`shop.recaptcha`). */
  recaptcha?: boolean;
  /** The shop talks to a loopback PayPal (`shop.paypal`). */
  paypal?: boolean;
  /** The shop serves its pages too (the build), not only the API. */
  pages?: boolean;
};

export type Shop = TestApp & {
  /** The shop's manual clock (when it was started on one, the default). */
  clock: ManualClock;
  smtp: TestSmtpServer;
  recaptcha: TestRecaptchaServer;
  paypal: PayPalKit;
  call(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, options?: CallOptions): Promise<Reply>;
  /** Every response body this file received, for the no-stack-trace check. */
  bodies: string[];
};

/**
 * Limits high enough that the tests never meet them by accident (many writes per user, mails of
 * gifts); a test of a limit sets it in `env`. The shop trusts its proxy, so that each test user
 * calls from an address of its own (`uniqueIp`) and address limits count per test.
 */
const DEFAULT_ENV = {
  TRUST_PROXY: "1",
  RATE_WRITE_USER: "100000/1m",
  RATE_WRITE_IP: "100000/1m",
  RATE_REGISTER_IP: "10000/1h",
  RATE_MAIL_USER: "100000/1h",
};

const isManual = (clock: Clock): clock is ManualClock => "advance" in clock && "set" in clock;

/**
 * Starts one shop for the test file (fresh database, API only unless `pages`) and stops it
 * afterwards, with the loopback servers asked for. After the file, asserts that the file received
 * bodies and that none contained a stack trace or a file path (docs/product/api.md#envelope).
 */
export function useShop(options: ShopOptions = {}): Shop {
  const clock = options.clock ?? manualClock();
  const bodies: string[] = [];
  const holder = { clock, bodies } as Partial<Shop> & { stop?: () => Promise<void> };

  beforeAll(async () => {
    const env: Record<string, string> = { ...DEFAULT_ENV };
    if (options.paypal) {
      holder.paypal = await startPayPalKit();
      Object.assign(env, holder.paypal.env());
    }
    if (options.smtp) {
      holder.smtp = await startSmtpServer();
      env.SMTP_URL = holder.smtp.url;
    }
    if (options.recaptcha) {
      holder.recaptcha = await startRecaptchaServer();
      env.RECAPTCHA_SECRET = holder.recaptcha.secret;
      env.RECAPTCHA_VERIFY_URL = holder.recaptcha.url;
    }
    Object.assign(env, options.env);
    Object.assign(holder, await startTestApp({ env, clock, pages: options.pages ?? false }));
  });

  afterAll(async () => {
    await holder.stop?.();
    await holder.paypal?.stop();
    await holder.smtp?.stop();
    await holder.recaptcha?.stop();
    // docs/product/api.md#envelope: no stack trace leaves the server, whatever the request.
    expect(bodies.length).toBeGreaterThan(0);
    for (const text of bodies) {
      // A stack trace's key or words, not the word alone: a game's texts speak of stacking camps.
      expect(text).not.toMatch(/"stack"\s*:|stack\s*trace/i);
      expect(text).not.toContain("at /");
      expect(text).not.toContain("node_modules");
    }
  });

  holder.call = async (method, path, o = {}) => {
    const headers: Record<string, string> = { "accept-language": o.lang ?? "en", ...o.headers };
    if (o.json !== undefined) headers["content-type"] = "application/json";
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.cookie) headers.cookie = o.cookie;
    if (o.ip) headers["x-forwarded-for"] = o.ip;
    const body = o.raw ?? (o.json === undefined ? undefined : JSON.stringify(o.json));
    const res = await holder.request!(path, { method, headers, body });
    const text = await res.text();
    bodies.push(text);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed, text, headers: res.headers };
  };

  return new Proxy(holder, {
    get(target, key) {
      const value = target[key as keyof typeof target];
      if (value === undefined && (key === "smtp" || key === "recaptcha" || key === "paypal")) throw new Error(`the shop was started without ${key}`);
      if (key === "clock" && !isManual(clock)) throw new Error("the shop runs on a clock the test does not move");
      return value;
    },
  }) as Shop;
}

// ---- unique test data ----

const RUN = randomBytes(3).toString("hex");
let serial = 0;

/** An e-mail address no other test (nor another run against a shared Redis) uses. */
export function uniqueEmail(tag = "user"): string {
  return `${tag}-${RUN}-${++serial}@example.com`;
}

/** A username no other test uses (3–32 of [A-Za-z0-9_.-]). */
export function uniqueUsername(tag = "u"): string {
  return `${tag}_${RUN}_${++serial}`;
}

let ipSerial = 0;
const ipBase = randomBytes(2);
/** A client address of its own (10.x.y.z), different in every call and every run. */
export function uniqueIp(): string {
  ipSerial++;
  return `10.${ipBase[0]}.${(ipBase[1]! + (ipSerial >> 8)) % 256}.${ipSerial % 256}`;
}

// ---- users ----

/** A registered user; `username` is "" for one registered without a username. */
export type User = { id: number; email: string; username: string; password: string; token: string };

export type RegisterOptions = {
  email?: string;
  password?: string;
  /** A unique one (from `tag`) unless given; null registers without a username. */
  username?: string | null;
  /** Names the e-mail address and the username ("user" unless given). */
  tag?: string;
  /** The referral code of the user who referred this one. */
  referrer?: string;
  /** The visitor id of the registration (the `t` parameter). */
  t?: string;
  /** Credited as a booked top-up after the registration. */
  balance?: number;
  /** The client address; one of its own unless given. */
  ip?: string;
  lang?: string;
  /** false leaves the address unproven; otherwise the welcome mail's link is opened (docs/product/accounts.md#verified-addresses). */
  verified?: boolean;
};

/**
 * Registers a user over HTTP (200 expected), reads its id and returns its first session token. The
 * address is then verified by the welcome mail's link, as a buyer does before giving days away,
 * unless `verified: false`; the welcome mail is not among the mails the loopback SMTP server keeps
 * for the test (a test counts the mails its own steps send).
 */
export async function registerUser(shop: Shop, options: RegisterOptions = {}): Promise<User> {
  const tag = options.tag ?? "user";
  const email = options.email ?? uniqueEmail(tag);
  const username = options.username === undefined ? uniqueUsername(tag) : options.username;
  const password = options.password ?? PASSWORD;
  const reply = await shop.call("POST", "/v2/web/register", {
    json: { email, password, ...(username === null ? {} : { username }), ...(options.referrer ? { referrer: options.referrer } : {}), ...(options.t ? { t: options.t } : {}) },
    lang: options.lang,
    ip: options.ip ?? uniqueIp(),
  });
  expect(reply.status, reply.text).toBe(200);
  const token = reply.body.token as string;
  const me = await shop.call("GET", "/v2/web/user/me", { token });
  expect(me.status, me.text).toBe(200);
  const user = { id: me.body.user.id as number, email, username: username ?? "", password, token };
  if (options.verified !== false) await verifyEmail(shop, email);
  if ("smtp" in shop) await forgetWelcomeMail(shop, shop.smtp, email, message(shop, (options.lang ?? "en") as Locale, "mail.welcome.subject"));
  if (options.balance) await topUp(shop, user.id, options.balance);
  return user;
}

/** POST /v2/web/login by e-mail or username, from an address of its own unless given. */
export async function login(shop: Shop, loginName: string, password: string, options: { ip?: string; lang?: string } = {}): Promise<Reply> {
  return shop.call("POST", "/v2/web/login", { json: { login: loginName, password }, ip: options.ip ?? uniqueIp(), lang: options.lang });
}

/** Signs the user in again and keeps the new token (a session lives 336 h: a test that moves the clock far needs a new one). */
/**
 * A page form's post as a browser sends it (same origin, a client address of its own), signed in
 * by `cookie` when given; redirects are not followed.
 */
export function postPageForm(shop: TestApp, path: string, fields: Record<string, string>, cookie?: string): Promise<Response> {
  return shop.request(path, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: shop.services.settings.PUBLIC_URL,
      "sec-fetch-site": "same-origin",
      "x-forwarded-for": uniqueIp(),
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

export async function signIn(shop: Shop, user: User): Promise<User> {
  const reply = await login(shop, user.email, user.password);
  expect(reply.status, reply.text).toBe(200);
  user.token = reply.body.token as string;
  return user;
}

/** GET user/me with a token: 200 while the session lives, 401 once it is dead. */
export async function meStatus(shop: Shop, token: string): Promise<number> {
  return (await shop.call("GET", "/v2/web/user/me", { token })).status;
}

// ---- cookies ----
// Read with Hono's parser, the one the server reads a Cookie header with (server/http/cookies.ts).

type Answer = { headers: Headers };
export type CookieSet = { name: string; value: string; line: string };

/** The cookies an answer sets, in order: each name, its value (decoded) and its whole Set-Cookie line. */
export function cookiesSet(answer: Answer): CookieSet[] {
  return answer.headers.getSetCookie().flatMap((line) => {
    const pair = Object.entries(parse(line.split(";", 1)[0]!))[0];
    return pair ? [{ name: pair[0], value: pair[1], line }] : [];
  });
}

/** The Set-Cookie line of one cookie, if the answer sets it. */
export function setCookie(answer: Answer, name: string): string | undefined {
  return cookiesSet(answer).find((c) => c.name === name)?.line;
}

/** The value an answer gives a cookie: undefined when it does not set it, "" when it clears it. */
export function cookieSetTo(answer: Answer, name: string): string | undefined {
  return cookiesSet(answer).find((c) => c.name === name)?.value;
}

/** A Cookie header that sends back every cookie the answer set, as it set them. */
export function cookieHeader(answer: Answer): string {
  return cookiesSet(answer)
    .map((c) => `${c.name}=${encodeURIComponent(c.value)}`)
    .join("; ");
}

// ---- mails ----

export function mailsTo(smtp: TestSmtpServer, address: string): ReceivedMail[] {
  return smtp.messages.filter((m) => m.envelope.to.includes(address));
}

/** The reset code: 6 digits on a line of its own in the plain-text part. */
export function codeIn(mail: ReceivedMail): string {
  const match = /^[ \t]*(\d{6})[ \t]*$/m.exec(mail.text ?? "");
  if (!match) throw new Error(`no code line in the mail:\n${mail.text}`);
  return match[1]!;
}

/** Every http(s) URL of the plain-text part. */
export function linksIn(mail: ReceivedMail): string[] {
  return [...(mail.text ?? "").matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]);
}

// ---- TOTP ----

/** The code of the secret at the clock's time. */
export function totpNow(secret: string, clock: Clock): string {
  return totpAt(secret, clock.now());
}

/** A six-digit code that matches none of the accepted steps (now and one either side). */
export function wrongTotp(secret: string, clock: Clock): string {
  const now = clock.now().getTime();
  const valid = new Set([-30_000, 0, 30_000].map((d) => totpAt(secret, new Date(now + d))));
  for (let n = 0; ; n++) {
    const candidate = String((Number(totpAt(secret, new Date(now))) + 1 + n) % 1_000_000).padStart(6, "0");
    if (!valid.has(candidate)) return candidate;
  }
}

/** The translated message of a key, as the shop answers it in that language. */
export function message(shop: TestApp, locale: Locale, key: MessageKey, params?: Params): string {
  return shop.services.catalogs.t(locale)(key, params);
}

// ---- money ----

/** Credits a balance as the system would (a booked top-up). */
export async function topUp(shop: TestApp, userId: number, amount: number): Promise<number> {
  const { balance } = await shop.services.db.transaction((tx) => shop.services.ledger.post(tx, { userId, type: "topup", amount, paid: amount, source: "system" }, new Date()));
  return balance;
}

export async function balanceOf(shop: TestApp, userId: number): Promise<number> {
  const [row] = await shop.services.db.select({ balance: users.balance }).from(users).where(eq(users.id, userId));
  return row!.balance;
}

/** What the user owes after refunds took more than the balance held (docs/product/money.md#owed). */
export async function owedOf(shop: TestApp, userId: number): Promise<number> {
  const [row] = await shop.services.db.select({ owed: users.owed }).from(users).where(eq(users.id, userId));
  return row!.owed;
}

export async function rowsOf(shop: TestApp, userId: number) {
  return shop.services.db.select().from(transactions).where(eq(transactions.userId, userId)).orderBy(asc(transactions.id));
}

export async function ledgerSum(shop: TestApp, userId: number): Promise<number> {
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
export async function expectConsistentLedger(shop: TestApp, userId: number): Promise<number> {
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

// ---- subscriptions ----

export function subscriptionOf(reply: Reply, cheatId: number): SubscriptionDto | undefined {
  return (reply.body.subscriptions as SubscriptionDto[]).find((s) => s.cheat_id === cheatId);
}

export async function subscriptionsOf(shop: Shop, token: string): Promise<Reply> {
  const reply = await shop.call("GET", "/v2/web/user/subscriptions", { token });
  expect(reply.status).toBe(200);
  return reply;
}
