// `npm run operator` (docs/product/back-office.md#roles): the command line gives and takes roles on
// the database DATABASE_URL names — here an embedded PGlite folder, as on a stopped shop — and every
// change is an audit entry whose actor is the command line.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { createTestDatabase, openTestDatabase, type TestDatabase } from "../tests/kit/database.ts";
import { auditLog, users } from "../db/schema/index.ts";
import { operatorCommand, parseArgs } from "./operator.ts";

const root = path.resolve(import.meta.dirname, "..");
// A migrated database in a folder that the command's own process opens (on PGlite, one process at a time).
let database: TestDatabase;
let url = "";
beforeAll(async () => {
  database = await createTestDatabase({ forAnotherProcess: true });
  url = database.url;
});
afterAll(() => database.drop());

function run(...args: string[]): { status: number; out: string } {
  try {
    const out = execFileSync(path.join(root, "node_modules/.bin/tsx"), [path.join(root, "scripts/operator.ts"), ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url, NODE_ENV: "development", LOG_LEVEL: "silent" },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { status: 0, out };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { status: e.status, out: `${e.stdout}${e.stderr}` };
  }
}

describe("parseArgs", () => {
  it("reads the command, its words and --reason in either spelling", () => {
    expect(parseArgs(["grant", "a@b.c", "owner", "--reason", "first owner"])).toEqual({ command: "grant", args: ["a@b.c", "owner"], reason: "first owner" });
    expect(parseArgs(["revoke", "--reason=left", "a@b.c"])).toEqual({ command: "revoke", args: ["a@b.c"], reason: "left" });
    expect(parseArgs([])).toEqual({ command: "", args: [], reason: undefined });
  });
});

describe("npm run operator", () => {
  it("grants on the embedded database from the command line, audited with the command line as actor", async () => {
    const database = await openDatabase(url);
    await database.db.insert(users).values({ email: "boss@shop.test", passwordHash: "x", referralCode: "BOSS0001" });
    await database.close();

    expect(run("grant", "Boss@Shop.test", "owner", "--reason", "first owner")).toEqual({ status: 0, out: "Boss@Shop.test: no role → owner (audited)\n" });
    expect(run("grant", "boss@shop.test", "king")).toMatchObject({ status: 1, out: expect.stringMatching(/^usage:/) });

    const check = await openDatabase(url);
    try {
      const [boss] = await check.db.select().from(users).where(eq(users.email, "boss@shop.test"));
      expect(boss!.role).toBe("owner");
      const entries = await check.db.select().from(auditLog);
      expect(entries.map((e) => [e.action, e.actorId, e.targetId, e.reason, e.before, e.after])).toEqual([
        ["operator.grant", null, String(boss!.id), "first owner", { role: null }, { role: "owner" }],
      ]);
    } finally {
      await check.close();
    }
  }, 120_000);

  it("revokes, lists, says when nothing changed or nobody has the address, and refuses words that make no command", async () => {
    const database = await openTestDatabase();
    try {
      const [user] = await database.db.insert(users).values({ email: "help@shop.test", passwordHash: "x", referralCode: "HELP0001" }).returning();
      const command = (...argv: string[]) => operatorCommand(argv, { database, ownerEmails: [], defaultReason: "command line (test)" });
      expect(await command("list")).toEqual({ ok: true, lines: ["no operators"] });
      expect(await command("grant", "help@shop.test", "support")).toEqual({ ok: true, lines: ["help@shop.test: no role → support (audited)"] });
      expect(await command("grant", "help@shop.test", "support")).toEqual({ ok: true, lines: ["help@shop.test: already support; nothing changed"] });
      expect((await command("list")).lines[0]).toMatch(/^support\thelp@shop\.test\t\(id \d+, two-factor codes off/);
      expect(await command("grant", "nobody@shop.test", "owner")).toEqual({ ok: false, lines: ["no registered user with the address nobody@shop.test"] });
      expect(await command("revoke", "help@shop.test")).toEqual({ ok: true, lines: ["help@shop.test: support → no role (audited)"] });
      for (const argv of [["promote", "x"], ["grant", "x"], ["revoke"], ["list", "extra"]]) expect((await command(...argv)).ok, argv.join(" ")).toBe(false);
      const entries = await database.db.select().from(auditLog).orderBy(auditLog.id);
      expect(entries.map((e) => [e.action, e.reason, e.targetId])).toEqual([
        ["operator.grant", "command line (test)", String(user!.id)],
        ["operator.revoke", "command line (test)", String(user!.id)],
      ]);
      await expect(database.db.execute(sql`delete from audit_log`)).rejects.toThrow();
    } finally {
      await database.close();
    }
  });
});
