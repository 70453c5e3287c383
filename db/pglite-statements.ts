// Named server-side statements on the embedded database, for Drizzle's named prepared statements
// (`.prepare(name)`) only: parsed and planned once, then each execution is Bind/Execute/Sync in one
// call into PGlite, where PGlite's own `query` sends six protocol messages in six calls and parses,
// analyses and plans the text every time (docs/decisions/0062-pglite-named-statements.md).
import { parse, protocol, type messages as Messages, type PGlite, type QueryOptions, type Results } from "@electric-sql/pglite";

type BackendMessage = Messages.BackendMessage;
import type { Db } from "./client.ts";

/** One text prepared under one server-side name. */
type Statement = {
  /** The server-side name (unique in this database connection). */
  name: string;
  text: string;
  /** Whether the server holds it now: false until the first use, and again after any error. */
  ready: boolean;
  /** The parameters' type oids (ParameterDescription): how PGlite's own `query` serialises values. */
  paramTypes: number[];
  /** The statement's RowDescription, given to PGlite's own result parser with each execution's rows. */
  description: BackendMessage | null;
};

/** The part of PGlite's query client a Drizzle prepared query calls. */
type QueryClient = { query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> };

/** PostgreSQL's identifiers are at most 63 bytes (NAMEDATALEN − 1). */
const MAX_NAME = 63;

/**
 * Errors of a named statement the server refused before running it, because its own copy is gone
 * (26000, invalid_sql_statement_name) or was planned for a table's earlier shape (0A000, "cached
 * plan must not change result type").
 */
function isStale(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "26000" || (code === "0A000" && error instanceof Error && error.message.includes("cached plan"));
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Makes every named prepared statement of `db` (a Drizzle database on `client`) run as a named
 * server-side statement. Only `.prepare(name)` queries of `db` itself: a query without a name, or
 * one prepared inside a transaction (its client is PGlite's transaction object), keeps PGlite's
 * own path. Preparing is lazy (the first execution), so start-up costs nothing.
 */
export function useNamedStatements(client: PGlite, db: Db): void {
  const byText = new Map<string, Statement>();
  const names = new Set<string>();

  function statementFor(name: string, text: string): Statement {
    let statement = byText.get(text);
    if (!statement) {
      // Two texts prepared under one Drizzle name (a module set up twice with different extras)
      // must not take each other's place on the server.
      const base = name.slice(0, MAX_NAME - 8);
      let serverName = base;
      for (let n = 2; names.has(serverName); n++) serverName = `${base}_${n}`;
      names.add(serverName);
      statement = { name: serverName, text, ready: false, paramTypes: [], description: null };
      byText.set(text, statement);
    }
    return statement;
  }

  /**
   * Parses `statement` under its name. Close first: after an error the server may still hold the
   * name (an execution failed, not the parse), and Parse of an existing name is an error.
   */
  async function prepare(statement: Statement, options: QueryOptions | undefined): Promise<void> {
    const messages = await client.execProtocolStream(
      concat([
        protocol.serialize.close({ type: "S", name: statement.name }),
        protocol.serialize.parse({ name: statement.name, text: statement.text, types: options?.paramTypes }),
        protocol.serialize.describe({ type: "S", name: statement.name }),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false, onNotice: options?.onNotice },
    );
    statement.paramTypes = parse.parseDescribeStatementResults(messages);
    statement.description = messages.find((m): m is Messages.RowDescriptionMessage => m.name === "rowDescription") ?? null;
    statement.ready = true;
  }

  /** Drizzle's parsers over PGlite's, merged once per options object (PGlite merges them per query). */
  const mergedParsers = new WeakMap<object, PGlite["parsers"]>();
  function parsersOf(options: QueryOptions | undefined) {
    if (!options?.parsers) return client.parsers;
    let merged = mergedParsers.get(options.parsers);
    if (!merged) {
      merged = { ...client.parsers, ...options.parsers };
      mergedParsers.set(options.parsers, merged);
    }
    return merged;
  }

  /** Bind/Execute/Sync of the prepared statement: its backend messages (the rows, the command tag). */
  async function execute(statement: Statement, params: unknown[], options: QueryOptions | undefined): Promise<BackendMessage[]> {
    if (!statement.ready) await prepare(statement, options);
    // Serialised as PGlite's `query` does: by the parameter's type, else its text.
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const oid = statement.paramTypes[i]!;
      const serialize = options?.serializers?.[oid] ?? client.serializers[oid];
      return serialize ? serialize(param) : String(param);
    });
    return client.execProtocolStream(concat([protocol.serialize.bind({ statement: statement.name, values: values as string[] }), protocol.serialize.execute({}), protocol.serialize.sync()]), {
      syncToFs: false,
      onNotice: options?.onNotice,
    });
  }

  /** PGlite's `query`, with the statement's name instead of an unnamed Parse each time. */
  async function run<T>(statement: Statement, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    await client._checkReady();
    // The locks PGlite's `query` takes, in its order: the transaction lock keeps this statement out
    // of another caller's open transaction (PGlite is one session), the query lock out of the
    // middle of another statement's messages.
    return client._runExclusiveTransaction(() =>
      client.runExclusive(async () => {
        let messages: BackendMessage[];
        try {
          try {
            messages = await execute(statement, params, options);
          } catch (error) {
            // Whatever failed, the next use parses again: a failed parse leaves nothing to bind,
            // and the server's copy may be gone or stale.
            statement.ready = false;
            if (!isStale(error)) throw error;
            // Gone (DEALLOCATE, DISCARD) or planned for another shape of a table: both refused
            // before the statement ran, so once more, parsed anew, is what the unnamed path does.
            messages = await execute(statement, params, options);
          }
        } catch (error) {
          statement.ready = false;
          // What PGlite's `query` adds to its errors (makePGliteError).
          if (error instanceof Error) Object.assign(error, { query: statement.text, params, queryOptions: options });
          throw error;
        }
        await client.syncToFs();
        // PGlite's own parser, given the statement's row description in front of the rows: the
        // same rows, types and nulls as its `query` returns.
        const all = statement.description ? [statement.description, ...messages] : messages;
        return parse.parseResults(all, parsersOf(options), options?.parsers ? { ...options, parsers: undefined } : options)[0] as Results<T>;
      }),
    );
  }

  type Session = { prepareQuery(query: { sql: string }, fields: unknown, name: string | undefined, ...rest: unknown[]): { client: QueryClient } };
  const session = (db as unknown as { session: Session }).session;
  const prepareQuery = session.prepareQuery.bind(session);
  session.prepareQuery = (query, fields, name, ...rest) => {
    const prepared = prepareQuery(query, fields, name, ...rest);
    if (name) {
      const statement = statementFor(name, query.sql);
      prepared.client = {
        query: <T>(text: string, params?: unknown[], options?: QueryOptions) =>
          // A blob (COPY) needs PGlite's own handling; Drizzle's prepared queries never send one.
          text === statement.text && !options?.blob ? run<T>(statement, params, options) : client.query<T>(text, params, options),
      };
    }
    return prepared;
  };
}
