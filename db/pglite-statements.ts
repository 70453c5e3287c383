// Named server-side statements on the embedded database, for Drizzle's named prepared statements
// (`.prepare(name)`) only: parsed and planned once, then each execution is Bind/Execute/Sync in one
// call into PGlite, where PGlite's own `query` sends six protocol messages in six calls and parses,
// analyses and plans the text every time (docs/decisions/0062-pglite-named-statements.md). While no
// caller is inside PGlite's locks, an execution runs at once, without a lock or a promise, and its
// answer is read here (docs/decisions/0077-pglite-statements-at-once.md).
import { MemoryFS, parse, protocol, type messages as Messages, type PGlite, type QueryOptions, type Results } from "@electric-sql/pglite";

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
  description: Messages.RowDescriptionMessage | null;
  /** Its columns as a result names them (`Results.fields`), for the plain answers read here. */
  fields: Results["fields"];
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

const EXECUTE_SYNC = concat([protocol.serialize.execute({}), protocol.serialize.sync()]);

/**
 * Bind (unnamed portal, statement `name`, every parameter and column as text), Execute and Sync in
 * one buffer: the bytes PGlite's `protocol.serialize` writes for text values, at a fraction of its
 * cost (its writer grows and copies a buffer per message). Null when a value is not text.
 */
export function bindExecuteSyncText(name: string, values: unknown[]): Uint8Array | null {
  let size = 4 + 1 + Buffer.byteLength(name) + 1 + 2 + 2 * values.length + 2 + 2;
  for (const value of values) {
    if (value === null) size += 4;
    else if (typeof value === "string") size += 4 + Buffer.byteLength(value);
    else return null;
  }
  const out = Buffer.allocUnsafe(1 + size + EXECUTE_SYNC.length);
  let at = out.writeUInt8(0x42, 0); // 'B'
  at = out.writeInt32BE(size, at);
  at = out.writeUInt8(0, at); // the unnamed portal
  at += out.write(name, at);
  at = out.writeUInt8(0, at);
  // A format per parameter, all text (0), as PGlite writes them.
  at = out.writeInt16BE(values.length, at);
  for (let i = 0; i < values.length; i++) at = out.writeInt16BE(0, at);
  at = out.writeInt16BE(values.length, at);
  for (const value of values) {
    if (value === null) {
      at = out.writeInt32BE(-1, at);
    } else {
      const text = value as string;
      const length = Buffer.byteLength(text);
      at = out.writeInt32BE(length, at);
      at += out.write(text, at);
    }
  }
  at = out.writeInt16BE(0, at); // no result formats: all text
  out.set(EXECUTE_SYNC, at);
  return out;
}
const utf8 = new TextDecoder();

/** Backend message types of a plain answer to Bind/Execute/Sync (anything else is read by PGlite's parser). */
const BIND_COMPLETE = 0x32; // '2'
const DATA_ROW = 0x44; // 'D'
const COMMAND_COMPLETE = 0x43; // 'C'
const READY_FOR_QUERY = 0x5a; // 'Z'

type Parsers = PGlite["parsers"];

/**
 * The result of an answer to Bind/Execute/Sync that holds only BindComplete, DataRows,
 * CommandComplete and ReadyForQuery, built as PGlite's `parse.parseResults` builds it (the same
 * fields, values, nulls, command and counts); null for any other answer (an error, a notice),
 * which PGlite's own parser then reads.
 */
function plainResult(answer: Uint8Array, fields: Results["fields"], parsers: Parsers, rowMode: QueryOptions["rowMode"]): Results | null {
  const view = new DataView(answer.buffer, answer.byteOffset, answer.byteLength);
  const rows: unknown[] = [];
  let tag: string | null = null;
  for (let at = 0; at < answer.length;) {
    const type = answer[at]!;
    const end = at + 1 + view.getInt32(at + 1);
    if (type === DATA_ROW) {
      const count = view.getInt16(at + 5);
      if (count !== fields.length) return null;
      const values: unknown[] = new Array(count);
      let p = at + 7;
      for (let i = 0; i < count; i++) {
        const length = view.getInt32(p);
        p += 4;
        if (length < 0) {
          values[i] = null;
        } else {
          const text = utf8.decode(answer.subarray(p, p + length));
          const oid = fields[i]!.dataTypeID;
          const parser = parsers[oid];
          values[i] = parser ? parser(text, oid) : text;
          p += length;
        }
      }
      rows.push(rowMode === "array" ? values : Object.fromEntries(fields.map((field, i) => [field.name, values[i]])));
    } else if (type === COMMAND_COMPLETE) {
      tag = utf8.decode(answer.subarray(at + 5, end - 1));
    } else if (type !== BIND_COMPLETE && type !== READY_FOR_QUERY) {
      return null;
    }
    at = end;
  }
  if (tag === null) return null;
  const words = tag.split(" ");
  const command = words[0]!;
  const count = parseInt(words[words.length - 1]!, 10);
  const affectedRows = ["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"].includes(command) ? count : 0;
  return { rows, fields, command, affectedRows, ...(Number.isNaN(count) ? {} : { rowCount: count }) } as Results;
}

/** What `lockState` counts on one PGlite instance. */
type LockState = { inside: number; listening: boolean };
const LOCK_STATE = Symbol.for("shop.pglite-statements.locks");

/**
 * How many callers are inside PGlite's locks now, counted while their work runs (awaited or not),
 * and whether anything listens. Every query, exec, transaction and listen of PGlite takes one of
 * its two locks through its own method: at zero PGlite is idle, outside any open transaction and
 * between any caller's protocol messages, so a statement may run at once. A notification reaches
 * PGlite's listeners through its own parser only: once anything listens (the shop does not:
 * server/changes.ts), every statement takes PGlite's path.
 *
 * Counted once per PGlite instance, however many databases open it (the test kit's openings of
 * one shared instance, db/client.ts `shareEmbedded`): the counting methods are the instance's
 * own, calling its class's.
 */
function lockState(client: PGlite): LockState {
  type Counted = Record<"_runExclusiveTransaction" | "_runExclusiveQuery", (work: () => Promise<unknown>) => Promise<unknown>> & {
    listen: PGlite["listen"];
    [LOCK_STATE]?: LockState;
  };
  const instance = client as unknown as Counted;
  const existing = instance[LOCK_STATE];
  if (existing) return existing;
  const state: LockState = { inside: 0, listening: false };
  const own = Object.getPrototypeOf(client) as Counted;
  for (const lock of ["_runExclusiveTransaction", "_runExclusiveQuery"] as const) {
    const take = own[lock];
    instance[lock] = function (this: PGlite, work) {
      return take.call(this, async () => {
        state.inside++;
        try {
          return await work();
        } finally {
          state.inside--;
        }
      });
    };
  }
  const listen = own.listen;
  instance.listen = function (this: PGlite, ...args) {
    state.listening = true;
    return listen.apply(this, args);
  };
  instance[LOCK_STATE] = state;
  return state;
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

  const locks = lockState(client);
  // Only a file system with nothing to copy after a statement (memory, a directory through Node's
  // fs) lets a statement end at once; PGlite's `syncToFs` is empty on both.
  const syncFree = client.fs?.syncToFs === MemoryFS.prototype.syncToFs;

  function statementFor(name: string, text: string): Statement {
    let statement = byText.get(text);
    if (!statement) {
      // Two texts prepared under one Drizzle name (a module set up twice with different extras)
      // must not take each other's place on the server.
      const base = name.slice(0, MAX_NAME - 8);
      let serverName = base;
      for (let n = 2; names.has(serverName); n++) serverName = `${base}_${n}`;
      names.add(serverName);
      statement = { name: serverName, text, ready: false, paramTypes: [], description: null, fields: [] };
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
    statement.fields = statement.description?.fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID })) ?? [];
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

  /**
   * The result of an execution's messages, by PGlite's own parser given the statement's row
   * description in front of the rows: the same rows, types and nulls as its `query` returns.
   */
  function resultOf<T>(statement: Statement, messages: BackendMessage[], options: QueryOptions | undefined): Results<T> {
    const all = statement.description ? [statement.description, ...messages] : messages;
    return parse.parseResults(all, parsersOf(options), options?.parsers ? { ...options, parsers: undefined } : options)[0] as Results<T>;
  }

  /** An execution's error, with what PGlite's `query` adds to its errors (makePGliteError). */
  function failed(error: unknown, statement: Statement, params: unknown[], options: QueryOptions | undefined): unknown {
    statement.ready = false;
    if (error instanceof Error) Object.assign(error, { query: statement.text, params, queryOptions: options });
    return error;
  }

  /** Bind/Execute/Sync of the prepared statement with `params`, serialised as PGlite's `query` does: by the parameter's type, else its text. */
  function bindExecuteSync(statement: Statement, params: unknown[], options: QueryOptions | undefined): Uint8Array {
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const oid = statement.paramTypes[i]!;
      const serialize = options?.serializers?.[oid] ?? client.serializers[oid];
      return serialize ? serialize(param) : String(param);
    });
    return bindExecuteSyncText(statement.name, values) ?? concat([protocol.serialize.bind({ statement: statement.name, values: values as string[] }), EXECUTE_SYNC]);
  }

  /** Bind/Execute/Sync of the prepared statement: its backend messages (the rows, the command tag). */
  async function execute(statement: Statement, params: unknown[], options: QueryOptions | undefined): Promise<BackendMessage[]> {
    if (!statement.ready) await prepare(statement, options);
    return client.execProtocolStream(bindExecuteSync(statement, params, options), { syncToFs: false, onNotice: options?.onNotice });
  }

  /**
   * The statement run at once when nothing stands in its way: PGlite idle (no caller inside its
   * locks, `lockState`), the statement prepared, a file system with nothing to copy, nothing listening, no
   * notice callback. The answer comes raw, unparsed (PGlite's own raw path parses every message and
   * keeps them until its next `query`); a plain answer is read here, any other (an error, a notice)
   * by PGlite's parser, with what `run` does with it. Null when it cannot run at once, or when a
   * refused statement is to be prepared again (`run` does that, under the locks).
   */
  function runAtOnce<T>(statement: Statement, params: unknown[], options: QueryOptions | undefined): Results<T> | Promise<Results<T>> | null {
    if (locks.inside > 0 || locks.listening || !statement.ready || !syncFree || !client.ready || options?.onNotice || options?.blob) return null;
    const chunks: Uint8Array[] = [];
    // Synchronous up to its end without `syncToFs`: the answer is all in `chunks` when it returns.
    const done = client.execProtocolRawStream(bindExecuteSync(statement, params, options), { syncToFs: false, onRawData: (data) => chunks.push(data.slice()) });
    const answer = chunks.length === 1 ? chunks[0]! : concat(chunks);
    // No ReadyForQuery (its 6 bytes end every answer): PGlite itself failed; its promise holds the error.
    if (answer.length < 6 || answer[answer.length - 6] !== READY_FOR_QUERY) return done.then(() => Promise.reject(new Error(`PGlite gave no answer to ${statement.name}`)));
    const plain = plainResult(answer, statement.fields, parsersOf(options), options?.rowMode);
    if (plain) return plain as Results<T>;
    const messages: BackendMessage[] = [];
    new protocol.Parser().parse(answer, (message) => messages.push(message));
    const error = messages.find((message): message is Messages.DatabaseError => message instanceof protocol.messages.DatabaseError);
    if (error) {
      statement.ready = false;
      // Refused before it ran (gone, or planned for an earlier shape): nothing happened; `run`
      // prepares it again and runs it, as it does on its own path.
      if (isStale(error)) return null;
      throw failed(error, statement, params, options);
    }
    return resultOf<T>(statement, messages, options);
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
          throw failed(error, statement, params, options);
        }
        await client.syncToFs();
        return resultOf<T>(statement, messages, options);
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
        query: <T>(text: string, params: unknown[] = [], options?: QueryOptions) => {
          // A blob (COPY) needs PGlite's own handling; Drizzle's prepared queries never send one.
          if (text !== statement.text || options?.blob) return client.query<T>(text, params, options);
          try {
            const result = runAtOnce<T>(statement, params, options);
            return result ? Promise.resolve(result) : run<T>(statement, params, options);
          } catch (error) {
            return Promise.reject(error);
          }
        },
      };
    }
    return prepared;
  };
}
