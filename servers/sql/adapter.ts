// The database adapter: one interface over PGlite and PostgreSQL, and the transaction every
// query runs in. Read-only is enforced by the database, never by inspecting the SQL:
//
//   BEGIN TRANSACTION READ ONLY
//   SELECT set_config('statement_timeout', …, true), …   -- also takes the first snapshot, so a
//                                                       -- later SET TRANSACTION READ WRITE fails
//   SAVEPOINT / DECLARE … CURSOR FOR <sql> / FETCH maxRows+1   (or <sql> itself, see fetchRows)
//   ROLLBACK; DISCARD ALL                                 -- nothing a statement did survives
//
// Every statement goes through the extended protocol, which refuses more than one command, so
// `COMMIT; DELETE …` never runs; a lone COMMIT or ROLLBACK only ends a transaction that wrote nothing.
import type {
  DatabaseErrorInfo,
  JsonValue,
  QueryResult,
  SqlParam,
  TableInfo,
  TableSchema,
} from './logic.js';
import { knownTypeName, normalizeValue } from './logic.js';

/** Limits of one query. */
export interface QueryOptions {
  /** Runs in a read-only transaction (always true for the tools). */
  readOnly: boolean;
  /** How long the statement may run. */
  timeoutMs: number;
  /** Most rows to return; one more is fetched to know whether there are more. */
  maxRows: number;
  /**
   * Most bytes of result data (cells, as JSON text) to return: rows past it are not fetched.
   * Default {@link DEFAULT_MAX_RESULT_BYTES}.
   */
  maxBytes?: number | undefined;
  /** Longest cell, in characters of its text; longer ones are cut with a note. Default {@link DEFAULT_MAX_CELL_BYTES}. */
  maxCellBytes?: number | undefined;
  /** Cancels the query. */
  signal?: AbortSignal | undefined;
}

/**
 * SqlAdapter runs queries against one database. Queries may be issued concurrently; each runs
 * in its own transaction. `close` is idempotent.
 */
export interface SqlAdapter {
  /** `pglite` (embedded), `postgres` or `mysql` (MySQL or MariaDB). */
  readonly kind: 'pglite' | 'postgres' | 'mysql';
  /** The schema the tools look in (also the search_path of every query). */
  readonly schema: string;
  /** Runs one statement with bound parameters. Rejects with SqlError when the database refuses. */
  query(sql: string, params: readonly SqlParam[], options: QueryOptions): Promise<QueryResult>;
  /** Releases the database. */
  close(): Promise<void>;
  /** How list_tables and describe_table read this database. Default: PostgreSQL's catalog. */
  readonly catalog?: SqlCatalog | undefined;
}

/** Runs one catalog statement read-only, under the server's limits. */
export type CatalogRead = (sql: string, params: readonly SqlParam[]) => Promise<QueryResult>;

/** Reads the tables of a database and their columns and keys, in the engine's own catalog. */
export interface SqlCatalog {
  /** The tables and views of `schema` the login may read, by name. */
  listTables(read: CatalogRead, schema: string): Promise<TableInfo[]>;
  /** One table or view of `schema`, or undefined when there is none of that name. */
  describeTable(read: CatalogRead, schema: string, table: string): Promise<TableSchema | undefined>;
}

/** SqlError is a failure the database reported (or that stands for one: a timeout, a cancel). */
export class SqlError extends Error implements DatabaseErrorInfo {
  readonly code: string | undefined;
  readonly detail: string | undefined;
  readonly hint: string | undefined;

  constructor(info: DatabaseErrorInfo) {
    super(info.message);
    this.name = 'SqlError';
    this.code = info.code;
    this.detail = info.detail;
    this.hint = info.hint;
  }
}

/** What a driver returns for one statement, before normalization. */
export interface RawResult {
  fields: { name: string; typeId: number }[];
  rows: unknown[][];
  command?: string | undefined;
}

/** One database session, held exclusively: runs one statement at a time, extended protocol only. */
export interface SqlSession {
  run(sql: string, params: readonly unknown[]): Promise<RawResult>;
}

/** Lends sessions to queries and enforces their time limit from outside when it must. */
export interface SessionSource {
  withSession<T>(
    work: (session: SqlSession) => Promise<T>,
    limits: { timeoutMs: number; signal?: AbortSignal | undefined },
  ): Promise<T>;
  close(): Promise<void>;
}

/** The default byte budget of one result. */
export const DEFAULT_MAX_RESULT_BYTES: number = 256 * 1024;
/** The default longest cell. */
export const DEFAULT_MAX_CELL_BYTES: number = 32 * 1024;
/** Rows fetched in the first batch; later batches follow the size of the rows seen. */
const FIRST_BATCH = 16;
const MAX_BATCH = 256;

/** SQLSTATEs of a DECLARE that fails only because the statement cannot back a cursor. */
const NOT_CURSORABLE = new Set(['42601', '0A000']);

/** Creates an adapter over `source`. */
export function createAdapter(
  source: SessionSource,
  settings: { kind: 'pglite' | 'postgres'; schema: string; role?: string | undefined },
): SqlAdapter {
  const { kind, schema, role } = settings;
  let closed = false;
  return {
    kind,
    schema,
    async query(sql, params, options) {
      if (closed) throw new SqlError({ message: 'the database is closed' });
      const { timeoutMs, signal } = options;
      return source.withSession(
        (session) => inTransaction(session, { sql, params, options, schema, role }),
        { timeoutMs, signal },
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      await source.close();
    },
  };
}

interface Job {
  sql: string;
  params: readonly SqlParam[];
  options: QueryOptions;
  schema: string;
  role: string | undefined;
}

async function inTransaction(session: SqlSession, job: Job): Promise<QueryResult> {
  const { options, role } = job;
  await session.run(options.readOnly ? 'BEGIN TRANSACTION READ ONLY' : 'BEGIN', []);
  let result: QueryResult | undefined;
  let failure: unknown;
  try {
    const settings = [
      "set_config('statement_timeout', $1, true)",
      "set_config('search_path', quote_ident($2), true)",
    ];
    if (role !== undefined) settings.push("set_config('role', $3, true)");
    const values = [String(options.timeoutMs), job.schema, ...(role === undefined ? [] : [role])];
    await session.run(`SELECT ${settings.join(', ')}`, values);
    result = await fetchRows(session, job);
  } catch (error) {
    failure = error;
  }
  try {
    await session.run(result !== undefined && !options.readOnly ? 'COMMIT' : 'ROLLBACK', []);
    await session.run('DISCARD ALL', []);
  } catch (error) {
    failure ??= error;
  }
  if (failure !== undefined) throw failure instanceof Error ? failure : toSqlError(failure);
  return result as QueryResult;
}

/**
 * Runs the statement and keeps at most maxRows rows and maxBytes of data. A statement that can
 * back a cursor (SELECT, VALUES, TABLE, WITH … SELECT) is declared as one and fetched in batches
 * sized to the rows seen, stopping at either limit, so a huge result never leaves the database.
 * Any other statement (SHOW, EXPLAIN, and everything the read-only transaction refuses) runs as
 * is and is cut the same way after. A cell longer than maxCellBytes is cut with a marker; memory
 * holds at most one batch of whole rows (the driver reads a row whole).
 */
async function fetchRows(session: SqlSession, job: Job): Promise<QueryResult> {
  const { sql, params, options } = job;
  const maxRows = options.maxRows;
  if (!Number.isSafeInteger(maxRows) || maxRows < 1) throw new RangeError('maxRows must be ≥ 1');
  const kept = new Kept(maxRows, {
    bytes: options.maxBytes ?? DEFAULT_MAX_RESULT_BYTES,
    cell: options.maxCellBytes ?? DEFAULT_MAX_CELL_BYTES,
  });
  await session.run('SAVEPOINT mcpkit_query', []);
  let fields: RawResult['fields'];
  let command: string | undefined;
  try {
    await session.run(`DECLARE mcpkit_rows NO SCROLL CURSOR FOR ${sql}`, params);
    fields = await fetchBatches(session, kept);
  } catch (error) {
    if (!(error instanceof SqlError) || !NOT_CURSORABLE.has(error.code ?? '')) throw error;
    await session.run('ROLLBACK TO SAVEPOINT mcpkit_query', []);
    const raw = await session.run(sql, params);
    fields = raw.fields;
    if (raw.command !== 'DECLARE' && raw.command !== 'FETCH') command = raw.command;
    kept.take(raw.rows, fields);
  }
  const columns = await columnsOf(session, fields);
  const result: QueryResult = {
    columns,
    rows: kept.rows,
    rowCount: kept.rows.length,
    truncated: kept.stoppedBy !== undefined,
  };
  if (kept.stoppedBy !== undefined) result.truncatedBy = kept.stoppedBy;
  if (kept.cutCells > 0) result.cutCells = kept.cutCells;
  if (command !== undefined) result.command = command;
  return result;
}

/** Fetches from the declared cursor until a limit stops or the rows end; returns the fields. */
async function fetchBatches(session: SqlSession, kept: Kept): Promise<RawResult['fields']> {
  let batch = FIRST_BATCH;
  for (;;) {
    const want = Math.min(batch, kept.room);
    const raw = await session.run(`FETCH FORWARD ${String(want)} FROM mcpkit_rows`, []);
    kept.take(raw.rows, raw.fields);
    if (kept.stoppedBy !== undefined || raw.rows.length < want) return raw.fields;
    batch = kept.nextBatch();
  }
}

/** The rows kept so far under the row and byte limits, normalized, with cells cut. */
export class Kept {
  readonly rows: JsonValue[][] = [];
  /** Why rows were left out, once they were. */
  stoppedBy: 'rows' | 'bytes' | undefined;
  cutCells = 0;
  #bytes = 0;
  readonly #maxRows: number;
  readonly #limits: { bytes: number; cell: number };

  constructor(maxRows: number, limits: { bytes: number; cell: number }) {
    this.#maxRows = maxRows;
    this.#limits = limits;
  }

  /** Rows worth fetching: up to maxRows, plus one to learn whether there are more. */
  get room(): number {
    return this.#maxRows + 1 - this.rows.length;
  }

  /** The next batch: about as many rows as the byte budget has room for at the size seen. */
  nextBatch(): number {
    const average = this.#bytes / Math.max(1, this.rows.length);
    const fits = Math.floor((this.#limits.bytes - this.#bytes) / Math.max(1, average));
    return Math.min(MAX_BATCH, Math.max(1, fits + 1));
  }

  /** Keeps what fits of `raw`; sets stoppedBy when a limit leaves rows out. */
  take(raw: readonly unknown[][], fields: RawResult['fields']): void {
    for (const row of raw) {
      if (this.stoppedBy !== undefined) return;
      if (this.rows.length === this.#maxRows) {
        this.stoppedBy = 'rows';
        return;
      }
      let size = 0;
      const cells = fields.map((field, i): JsonValue => {
        const value = this.#cut(normalizeValue(row[i], field.typeId));
        size += cellSize(value);
        return value;
      });
      if (this.rows.length > 0 && this.#bytes + size > this.#limits.bytes) {
        this.stoppedBy = 'bytes';
        return;
      }
      this.rows.push(cells);
      this.#bytes += size;
    }
  }

  /** A cell no longer than the cell limit: long text is cut and marked, long JSON becomes cut text. */
  #cut(value: JsonValue): JsonValue {
    const max = this.#limits.cell;
    const text =
      typeof value === 'string'
        ? value
        : typeof value === 'object' && value !== null
          ? JSON.stringify(value)
          : undefined;
    if (text === undefined || text.length <= max) return value;
    this.cutCells++;
    return `${text.slice(0, max)}… [cut: ${String(text.length - max)} more characters]`;
  }
}

/** The size of a cell as JSON text, about. */
function cellSize(value: JsonValue): number {
  if (typeof value === 'string') return value.length + 2;
  if (value === null || typeof value !== 'object') return 8;
  return JSON.stringify(value).length;
}

async function columnsOf(
  session: SqlSession,
  fields: RawResult['fields'],
): Promise<QueryResult['columns']> {
  const unknown = [...new Set(fields.map((f) => f.typeId))].filter(
    (oid) => knownTypeName(oid) === undefined,
  );
  const names = new Map<number, string>();
  if (unknown.length > 0) {
    try {
      const found = await session.run(
        'SELECT oid::int4, format_type(oid, NULL) FROM pg_type WHERE oid = ANY($1::oid[])',
        [`{${unknown.join(',')}}`],
      );
      for (const [oid, name] of found.rows) names.set(Number(oid), String(name));
    } catch {
      // The names are a courtesy: fall back to the OID (e.g. when the statement ended the transaction badly).
    }
  }
  return fields.map((f) => ({
    name: f.name,
    type: knownTypeName(f.typeId) ?? names.get(f.typeId) ?? `oid ${String(f.typeId)}`,
  }));
}

/** Reads the fields of a driver's error object into a SqlError (anything else is wrapped). */
export function toSqlError(error: unknown): SqlError {
  if (error instanceof SqlError) return error;
  const e = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const message = text(e['message']) ?? String(error);
  return new SqlError({
    message,
    code: text(e['code']),
    detail: text(e['detail']),
    hint: text(e['hint']),
  });
}
