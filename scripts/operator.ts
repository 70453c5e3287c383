// `npm run operator -- grant EMAIL owner|support [--reason TEXT]`, `npm run operator -- revoke EMAIL
// [--reason TEXT]`, `npm run operator -- list`: back-office roles, given and taken on the server's
// command line only (docs/product/back-office.md#roles). Runs against DATABASE_URL, as the shop
// would: PostgreSQL while the shop runs, the embedded database (./.data/pglite) only while it is
// stopped (one process at a time may open it). Every change is an audit entry (actor: the command line).
import { userInfo } from "node:os";
import { isNotNull } from "drizzle-orm";
import { openDatabase } from "../db/client.ts";
import { users } from "../db/schema/index.ts";
import { createAudit } from "../core/audit/index.ts";
import { createOperators, OPERATOR_ROLES, type OperatorRole } from "../core/operators/index.ts";
import { systemClock } from "../core/shared/clock.ts";
import { DomainError } from "../core/shared/errors.ts";
import { loadSettings, SettingsError } from "../server/settings.ts";

const USAGE = "usage: npm run operator -- grant EMAIL owner|support [--reason TEXT] | revoke EMAIL [--reason TEXT] | list";

/** The command line's words: the command, its arguments, and --reason. */
export function parseArgs(argv: string[]): { command: string; args: string[]; reason?: string } {
  const args: string[] = [];
  let reason: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--reason") reason = argv[++i];
    else if (word.startsWith("--reason=")) reason = word.slice("--reason=".length);
    else args.push(word);
  }
  const [command = "", ...rest] = args;
  return { command, args: rest, reason };
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function main() {
  const { command, args, reason: given } = parseArgs(process.argv.slice(2));
  let settings;
  try {
    settings = loadSettings(process.env);
  } catch (error) {
    if (error instanceof SettingsError) fail(error.message);
    throw error;
  }
  const reason = (given?.trim() || `command line (${userInfo().username})`).slice(0, 500);
  if (command === "grant" && (args.length !== 2 || !(OPERATOR_ROLES as readonly string[]).includes(args[1]!))) fail(USAGE);
  if (command === "revoke" && args.length !== 1) fail(USAGE);
  if (!["grant", "revoke", "list"].includes(command)) fail(USAGE);

  const database = await openDatabase(settings.DATABASE_URL, { statementTimeoutMs: settings.DB_STATEMENT_TIMEOUT_MS });
  try {
    const audit = createAudit({ db: database.db, clock: systemClock });
    const operators = createOperators({ db: database.db, clock: systemClock, audit, ownerEmails: settings.OWNER_EMAILS });
    if (command === "list") {
      const rows = await database.db.select({ id: users.id, email: users.email, role: users.role, twoFa: users.twoFaEnabled }).from(users).where(isNotNull(users.role));
      if (rows.length === 0) console.log("no operators");
      for (const row of rows) console.log(`${row.role}\t${row.email}\t(id ${row.id}${row.twoFa ? "" : ", two-factor codes off: the back office refuses them until they turn them on"})`);
      return;
    }
    const email = args[0]!;
    const result = command === "grant" ? await operators.grant(email, args[1] as OperatorRole, reason) : await operators.revoke(email, reason);
    if (result.before === result.after) console.log(`${email}: already ${result.after ?? "no operator"}; nothing changed`);
    else console.log(`${email}: ${result.before ?? "no role"} → ${result.after ?? "no role"} (audited)`);
  } catch (error) {
    if (error instanceof DomainError && error.code === "not_found") fail(`no registered user with the address ${args[0]}`);
    throw error;
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
}
