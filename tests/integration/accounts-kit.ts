// Shared pieces of the accounts API tests: one in-process shop per test file (with the loopback
// SMTP and reCAPTCHA servers when asked), a small JSON client that records every response body so
// that a file can assert no stack trace ever left the server, and helpers for mails and users.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import type { Locale } from "../../i18n/locales.ts";
import type { MessageKey, Params } from "../../i18n/translate.ts";
import { totpAt } from "../../core/accounts/totp.ts";
import { manualClock } from "../../core/shared/clock.ts";
import { TEST_ORIGIN, startTestApp, type TestApp } from "../kit/app.ts";
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from "../kit/smtp.ts";
import { startRecaptchaServer, type TestRecaptchaServer } from "../kit/recaptcha.ts";
import { forgetWelcomeMail } from "../kit/verification.ts";

export const ORIGIN = TEST_ORIGIN;
/** A password that passes every rule (length, not on the common list). */
export const PASSWORD = "Quartz-Lantern-42";

export type ManualClock = ReturnType<typeof manualClock>;

export type Reply = {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of many shapes, checked by the tests
  body: any;
  text: string;
  headers: Headers;
  /** The Set-Cookie headers, one per cookie. */
  cookies: string[];
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
  /** The client address, sent as X-Forwarded-For (the app must run with TRUST_PROXY=1). */
  ip?: string;
  /** Accept-Language; "en" unless given. */
  lang?: string;
  headers?: Record<string, string>;
};

export type Shop = TestApp & {
  clock: ManualClock;
  /** The loopback SMTP server (when the app was started with mail: true). */
  smtp: TestSmtpServer;
  /** The loopback reCAPTCHA server (when the app was started with recaptcha: true). */
  recaptcha: TestRecaptchaServer;
  call(method: "GET" | "POST", path: string, options?: CallOptions): Promise<Reply>;
  /** Every response body this file received, for the no-stack-trace check. */
  bodies: string[];
};

/**
 * Starts one shop for the test file (fresh database, API only, a manual clock, TRUST_PROXY=1) and
 * stops it afterwards. With mail: true a loopback SMTP server receives the shop's mails; with
 * recaptcha: true the shop verifies tokens against a loopback siteverify server. After the file,
 * asserts that no response body contained a stack trace or a file path.
 */
export function useAccountsShop(options: { env?: Record<string, string>; mail?: boolean; recaptcha?: boolean } = {}): Shop {
  const clock = manualClock();
  const bodies: string[] = [];
  const holder = { clock, bodies } as Partial<Shop> & { stop?: () => Promise<void> };

  beforeAll(async () => {
    const env: Record<string, string> = { TRUST_PROXY: "1", ...options.env };
    if (options.mail) {
      holder.smtp = await startSmtpServer();
      env.SMTP_URL = holder.smtp.url;
    }
    if (options.recaptcha) {
      holder.recaptcha = await startRecaptchaServer();
      env.RECAPTCHA_SECRET = holder.recaptcha.secret;
      env.RECAPTCHA_VERIFY_URL = holder.recaptcha.url;
    }
    const app = await startTestApp({ env, clock, pages: false });
    Object.assign(holder, app);
  });

  afterAll(async () => {
    await holder.stop?.();
    await holder.smtp?.stop();
    await holder.recaptcha?.stop();
    // docs/product/api.md#envelope: no stack trace leaves the server, whatever the request.
    expect(bodies.length).toBeGreaterThan(0);
    for (const text of bodies) {
      expect(text).not.toMatch(/stack/i);
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
    return { status: res.status, body: parsed, text, headers: res.headers, cookies: res.headers.getSetCookie() };
  };

  return new Proxy(holder, {
    get(target, key) {
      const value = target[key as keyof typeof target];
      if (value === undefined && (key === "smtp" || key === "recaptcha")) throw new Error(`the shop was started without ${key}`);
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

export type TestUser = { email: string; password: string; token: string; id: number };

/**
 * Registers a user over HTTP (200 expected) and returns its first session token. The welcome mail
 * (docs/product/accounts.md#verified-addresses) is not among the mails the loopback SMTP server
 * keeps for the test: a test counts the mails its own steps send.
 */
export async function registerUser(
  shop: Shop,
  options: { email?: string; password?: string; username?: string; lang?: string; ip?: string } = {},
): Promise<TestUser> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? PASSWORD;
  const reply = await shop.call("POST", "/v2/web/register", {
    json: { email, password, ...(options.username ? { username: options.username } : {}) },
    lang: options.lang,
    ip: options.ip ?? uniqueIp(),
  });
  expect(reply.status, reply.text).toBe(200);
  const me = await shop.call("GET", "/v2/web/user/me", { token: reply.body.token });
  if ("smtp" in shop) await forgetWelcomeMail(shop, shop.smtp, email, message(shop, (options.lang ?? "en") as Locale, "mail.welcome.subject"));
  return { email, password, token: reply.body.token as string, id: me.body.user.id as number };
}

export async function login(shop: Shop, loginName: string, password: string, options: { ip?: string; lang?: string } = {}): Promise<Reply> {
  return shop.call("POST", "/v2/web/login", { json: { login: loginName, password }, ip: options.ip ?? uniqueIp(), lang: options.lang });
}

/** GET user/me with a token: 200 while the session lives, 401 once it is dead. */
export async function meStatus(shop: Shop, token: string): Promise<number> {
  return (await shop.call("GET", "/v2/web/user/me", { token })).status;
}

// ---- cookies ----

/** The Set-Cookie header of one cookie, if the reply set it. */
export function setCookie(reply: Reply, name: string): string | undefined {
  return reply.cookies.find((c) => c.startsWith(`${name}=`));
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
export function totpNow(secret: string, clock: ManualClock): string {
  return totpAt(secret, clock.now());
}

/** A six-digit code that matches none of the accepted steps (now and one either side). */
export function wrongTotp(secret: string, clock: ManualClock): string {
  const now = clock.now().getTime();
  const valid = new Set([-30_000, 0, 30_000].map((d) => totpAt(secret, new Date(now + d))));
  for (let n = 0; ; n++) {
    const candidate = String((Number(totpAt(secret, new Date(now))) + 1 + n) % 1_000_000).padStart(6, "0");
    if (!valid.has(candidate)) return candidate;
  }
}

/** The translated message of a key, as the API answers it in that language. */
export function message(shop: Shop, locale: Locale, key: MessageKey, params?: Params): string {
  return shop.services.catalogs.t(locale)(key, params);
}
