// `npm run operator -- grant EMAIL owner|support [--reason TEXT]`, `npm run operator -- revoke EMAIL
// [--reason TEXT]`, `npm run operator -- list`: back-office roles, given and taken on the server's
// command line only (docs/product/back-office.md#roles). Runs against DATABASE_URL, as the shop
// would: PostgreSQL while the shop runs, the embedded database (./.data/pglite) only while it is
// stopped (one process at a time may open it). Every change is an audit entry (actor: the command line).
import { userInfo } from "node:os";
import { isNotNull } from "drizzle-orm";
import { openDatabase, type Database } from "../db/client.ts";
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

/** Whether the words make a command at all (checked before the database is opened). */
export function usable({ command, args }: { command: string; args: string[] }): boolean {
  if (command === "grant") return args.length === 2 && (OPERATOR_ROLES as readonly string[]).includes(args[1]!);
  if (command === "revoke") return args.length === 1;
  return command === "list" && args.length === 0;
}

/** Runs a command on an open database: what to print, and whether it failed. */
export async function operatorCommand(
  argv: string[],
  { database, ownerEmails, defaultReason }: { database: Database; ownerEmails: string[]; defaultReason: string },
): Promise<{ ok: boolean; lines: string[] }> {
  const parsed = parseArgs(argv);
  if (!usable(parsed)) return { ok: false, lines: [USAGE] };
  const { command, args } = parsed;
  const reason = (parsed.reason?.trim() || defaultReason).slice(0, 500);
  const audit = createAudit({ db: database.db, clock: systemClock });
  const operators = createOperators({ db: database.db, clock: systemClock, audit, ownerEmails });
  if (command === "list") {
    const rows = await database.db.select({ id: users.id, email: users.email, role: users.role, twoFa: users.twoFaEnabled }).from(users).where(isNotNull(users.role));
    if (rows.length === 0) return { ok: true, lines: ["no operators"] };
    return { ok: true, lines: rows.map((row) => `${row.role}\t${row.email}\t(id ${row.id}${row.twoFa ? "" : ", two-factor codes off: the back office refuses them until they turn them on"})`) };
  }
  const email = args[0]!;
  try {
    const result = command === "grant" ? await operators.grant(email, args[1] as OperatorRole, reason) : await operators.revoke(email, reason);
    if (result.before === result.after) return { ok: true, lines: [`${email}: already ${result.after ?? "no operator"}; nothing changed`] };
    return { ok: true, lines: [`${email}: ${result.before ?? "no role"} → ${result.after ?? "no role"} (audited)`] };
  } catch (error) {
    if (error instanceof DomainError && error.code === "not_found") return { ok: false, lines: [`no registered user with the address ${email}`] };
    throw error;
  }
}

async function main() {
  const argv = process.argv.slice(2);
  if (!usable(parseArgs(argv))) fail(USAGE);
  let settings;
  try {
    settings = loadSettings(process.env);
  } catch (error) {
    if (error instanceof SettingsError) fail(error.message);
    throw error;
  }
  const database = await openDatabase(settings.DATABASE_URL, { statementTimeoutMs: settings.DB_STATEMENT_TIMEOUT_MS });
  try {
    const { ok, lines } = await operatorCommand(argv, { database, ownerEmails: settings.OWNER_EMAILS, defaultReason: `command line (${userInfo().username})` });
    for (const line of lines) (ok ? console.log : console.error)(line);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
}
