// Production safety (issue 7, point 5; docs/product/operations.md#production-safety): a shop others can reach — a public PUBLIC_URL
// or a non-loopback HOST — has no /dev/mail, no demo user (one seeded by an earlier development run
// is retired) and no demo provider, whatever NODE_ENV says; a sent mail's body leaves the outbox
// and never reaches the log; a failing query's log line carries no parameter values.
import { Writable } from "node:stream";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox } from "../../db/schema/index.ts";
import { createApp } from "../../server/app.ts";
import { bootServices } from "../../server/main.ts";
import { loadSettings } from "../../server/settings.ts";
import { createLogger } from "../../server/logging.ts";
import { DEMO_USER } from "../../db/seed.ts";
import { TEST_ORIGIN, startTestApp } from "../kit/app.ts";
import { createTestDatabase, type TestDatabase } from "../kit/database.ts";
import { startSmtpServer, type TestSmtpServer } from "../kit/smtp.ts";
import { startPayPalKit, type PayPalKit } from "../kit/paypal.ts";
import { startBtcPayKit, type BtcPayKit } from "../kit/btcpay.ts";

/** A logger whose lines are kept, with the serializers of the real process. */
function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  return { logger: createLogger("info", stream), lines };
}

const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json", "accept-language": "en" }, body: JSON.stringify(body) });

describe("a public shop (https PUBLIC_URL, no NODE_ENV)", () => {
  let smtp: TestSmtpServer;
  let paypal: PayPalKit;
  let database: TestDatabase;
  let url: string;
  const log = capturedLogger();
  let shop: { services: Awaited<ReturnType<typeof bootServices>>; app: ReturnType<typeof createApp> };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    paypal = await startPayPalKit();
    database = await createTestDatabase();
    url = database.url;

    // A development run of the same database first: it seeds the demo user.
    const dev = await bootServices(loadSettings({ DATABASE_URL: url, PUBLIC_URL: TEST_ORIGIN, LOG_LEVEL: "silent" }), { logger: createLogger("silent") });
    expect(dev.settings.devConveniences).toBe(true);
    const devApp = createApp(dev);
    expect((await devApp.request(`${TEST_ORIGIN}/v2/web/login`, json({ login: DEMO_USER.email, password: DEMO_USER.password }))).status).toBe(200);
    await dev.background.drain();
    await dev.database.close();

    const settings = loadSettings({ DATABASE_URL: url, PUBLIC_URL: "https://shop.example", SMTP_URL: smtp.url, LOG_LEVEL: "info", ...paypal.env() });
    const services = await bootServices(settings, { logger: log.logger });
    shop = { services, app: createApp(services) };
  });

  afterAll(async () => {
    await shop?.services.background.drain();
    await shop?.services.database.close();
    await database?.drop();
    await smtp?.stop();
    await paypal?.stop();
  });

  const request = (p: string, init?: RequestInit) => shop.app.request(`https://shop.example${p}`, init);

  it("runs without the development conveniences", () => {
    expect(shop.services.settings.isProduction).toBe(false);
    expect(shop.services.settings.devConveniences).toBe(false);
    expect(shop.services.demoProvider).toBeUndefined();
  });

  it("has no /dev/mail", async () => {
    expect((await request("/dev/mail")).status).toBe(404);
  });

  it("retires the demo user an earlier development run seeded: it signs in no more", async () => {
    const reply = await request("/v2/web/login", json({ login: DEMO_USER.email, password: DEMO_USER.password }));
    expect(reply.status).toBe(401);
  });

  it("sends a reset code by SMTP and keeps neither the code in the outbox nor in the log", async () => {
    const email = `public-${Date.now()}@example.com`;
    expect((await request("/v2/web/register", json({ email, password: "Quartz-Lantern-42" }))).status).toBe(200);
    expect((await request("/auth/reset", json({ email }))).status).toBe(200);
    const mail = await smtp.waitFor((m) => m.envelope.to.includes(email) && /\d{6}/.test(m.text ?? ""), 10_000);
    const code = /^[ \t]*(\d{6})[ \t]*$/m.exec(mail.text ?? "")![1]!;
    await shop.services.background.drain();
    const rows = await shop.services.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatchObject({ status: "sent", subject: "", text: "", html: "" });
    expect(log.lines.length).toBeGreaterThan(0);
    expect(log.lines.join("\n")).not.toContain(code);
  });
});

// docs/decisions/0041-demo-beside-btcpay.md: the demo stands in for PayPal beside BTCPay only where the conveniences are.
describe("a public shop with BTCPay Server alone", () => {
  let smtp: TestSmtpServer;
  let btcpay: BtcPayKit;
  let database: TestDatabase;
  let shop: { services: Awaited<ReturnType<typeof bootServices>>; app: ReturnType<typeof createApp> };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    btcpay = await startBtcPayKit();
    database = await createTestDatabase();
    const settings = loadSettings({ DATABASE_URL: database.url, PUBLIC_URL: "https://shop.example", SMTP_URL: smtp.url, LOG_LEVEL: "silent", ...btcpay.env() });
    const services = await bootServices(settings, { logger: createLogger("silent") });
    shop = { services, app: createApp(services) };
  });

  afterAll(async () => {
    await shop?.services.background.drain();
    await shop?.services.database.close();
    await database?.drop();
    await smtp?.stop();
    await btcpay?.stop();
  });

  it("offers BTCPay alone: no demo beside it, no PayPal payments", async () => {
    expect(shop.services.settings.devConveniences).toBe(false);
    expect(shop.services.demoProvider).toBeUndefined();
    const listed = await shop.app.request("https://shop.example/v2/web/payment/providers", { headers: { "accept-language": "en" } });
    expect(((await listed.json()) as { providers: unknown }).providers).toEqual([{ id: "btcpay", name: "BTCPay Server" }]);
    expect(shop.services.paymentsFor("paypal")).toBeUndefined();
    expect(shop.services.payments.provider.name).toBe("btcpay");
  });
});

describe("error logs", () => {
  it("carry no parameters of a failing query (a password hash was logged)", async () => {
    const log = capturedLogger();
    const app = await startTestApp({ pages: false, logger: log.logger });
    try {
      // Any insert into users fails now, as a broken constraint or a full disk would make it.
      await app.services.db.execute(sql`create function refuse_users() returns trigger language plpgsql as $$ begin raise exception 'users are read-only here'; end $$`);
      await app.services.db.execute(sql`create trigger refuse_users before insert on users for each row execute function refuse_users()`);
      const email = `logged-${Date.now()}@example.com`;
      const reply = await app.request("/v2/web/register", json({ email, password: "Quartz-Lantern-42" }));
      expect(reply.status).toBe(500);
      const lines = log.lines.filter((l) => l.includes("unhandled error"));
      expect(lines).toHaveLength(1);
      const line = lines[0]!;
      expect(line).toContain("users are read-only here");
      expect(line).toContain("insert into");
      expect(line).not.toContain(email);
      expect(line).not.toContain("$argon2");
      expect(line).not.toMatch(/"params"/);
    } finally {
      await app.stop();
    }
  });
});
