// The real process, as `npm start` runs it: a bad setting stops the start with one line, data
// survives a restart on the embedded database, and SIGTERM drains and exits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { openDatabase } from "../db/client.ts";
import { mailOutbox, users } from "../db/schema/index.ts";
import { createTestDatabase, type TestDatabase } from "../tests/kit/database.ts";
import { freePort, startShop as start, stopShop as stop, waitHealthy } from "../tests/kit/process.ts";

// The embedded database in a folder (the run's migrated template, copied): `file:<dir>`.
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ forAnotherProcess: true });
});
afterAll(() => database.drop());

describe("the server process", () => {
  it("stops the start with one line naming a bad setting", async () => {
    const run = start({ PORT: "not-a-port" });
    expect(await run.exited).toBe(1);
    const lines = run.output().trim().split("\n");
    expect(lines).toEqual([expect.stringMatching(/^Invalid setting PORT="not-a-port": /)]);
  });

  it("keeps the embedded database's data across a restart and drains on SIGTERM", async () => {
    const port = await freePort();
    const env = { PORT: String(port), DATABASE_URL: database.url };
    const first = start(env);
    await waitHealthy(port, first.exited);
    const login = await fetch(`http://127.0.0.1:${port}/v2/web/frontend/data`);
    expect(login.status).toBe(200);
    // An in-flight request is answered before the process exits.
    const slow = fetch(`http://127.0.0.1:${port}/en/minecraft`).then((r) => r.status);
    const stopped = await stop(first.child, first.exited);
    expect(await slow).toBe(200);
    expect(stopped.code).toBe(0);
    expect(stopped.ms).toBeLessThan(10_000);

    // Between the runs: note the demo user and leave a marker row.
    let opened = await openDatabase(database.url);
    const [demo] = await opened.db.select().from(users).where(eq(users.email, "demo@example.com"));
    expect(demo).toBeDefined();
    // A shop outside the test suite hashes at the production cost (decision 0066).
    expect(demo!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    await opened.db.insert(mailOutbox).values({ to: "marker@example.com", subject: "marker", text: "t", html: "h", locale: "en" });
    await opened.close();

    const second = start(env);
    await waitHealthy(port, second.exited);
    const page = await fetch(`http://127.0.0.1:${port}/en/dota2`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("$19.99");
    expect((await stop(second.child, second.exited)).code).toBe(0);

    opened = await openDatabase(database.url);
    const after = await opened.db.select().from(users);
    expect(after.map((u) => [u.id, u.email, u.balance])).toEqual([[demo!.id, demo!.email, demo!.balance]]);
    expect(await opened.db.select().from(mailOutbox).where(eq(mailOutbox.to, "marker@example.com"))).toHaveLength(1);
    await opened.close();
  }, 120_000);
});
