// A MySQL or MariaDB database through mysql2 (loaded on first use), behind the same SqlAdapter as
// PostgreSQL. Read-only is enforced by the database, never by inspecting the SQL. Each query
// holds one pooled connection and runs:
//
//   USE `db`                                            -- a USE of an earlier query does not stay
//   SET SESSION tx_read_only = 1, max_statement_time = s, sql_select_limit = maxRows+1   (MariaDB)
//   SET SESSION transaction_read_only = 1, max_execution_time = ms, sql_select_limit = …  (MySQL)
//   START TRANSACTION READ ONLY
//   <sql>                                               -- text protocol, or a prepared statement
//                                                       -- when it has ? parameters
//   COM_RESET_CONNECTION                                -- rolls back; nothing a statement set survives
//
// mysql2 runs with multipleStatements off, so `COMMIT; DELETE …` is a syntax error; a lone COMMIT
// only ends a transaction that wrote nothing, and the session stays read-only. MySQL's
// max_execution_time covers SELECT only: a guard kills the query from another connection and
// closes its own once it outlives the limit by a grace period, as a cancel does with KILL QUERY.
import type * as Mysql2 from 'mysql2';
import type { FieldPacket, Pool, PoolConnection } from 'mysql2';
import type { QueryOptions, SqlAdapter } from './adapter.js';
import { DEFAULT_MAX_CELL_BYTES, DEFAULT_MAX_RESULT_BYTES, Kept, SqlError } from './adapter.js';
import type { QueryResult, SqlParam } from './logic.js';
import { MYSQL_CATALOG } from './mysql-catalog.js';
import { findMysqlPrivileges, mysqlPrivilegedLoginError } from './mysql-privileges.js';
import { cellOf, resultTypeName } from './mysql-types.js';

/** Options of a MySQL or MariaDB connection. */
export interface MysqlOptions {
  /** A `mysql://` or `mariadb://` URL naming the database (`mysql://user:pw@host:3306/shop`). */
  databaseUrl: string;
  /** The database to serve instead of the URL's. */
  database?: string | undefined;
  /** Connections in the pool. Default: 4. */
  poolSize?: number | undefined;
  /** How long past its time limit a query may take before it is killed and its connection closed. Default: 2000 ms. */
  graceMs?: number | undefined;
  /** How long opening a connection may take. Default: 10 000 ms. */
  connectTimeoutMs?: number | undefined;
  /** Receives errors that concern no query (an idle connection dropped, a failed KILL). */
  onError?: ((error: unknown, where: string) => void) | undefined;
  /**
   * Serve even when the login (or a role granted to it) holds more than reading (see
   * mysql-privileges.ts). Default false: openMysql rejects, naming the privileges.
   */
  allowPrivilegedLogin?: boolean | undefined;
  /** Told what was found when a privileged login is allowed. Default: process.emitWarning. */
  onWarning?: ((message: string) => void) | undefined;
}

/** True for the URLs this adapter serves. */
export function isMysqlUrl(url: string): boolean {
  return /^(mysql|mariadb):\/\//i.test(url);
}

/** Rows read and dropped after a limit stops, hoping for the end, before the connection is closed instead. */
const DRAIN_ROWS = 1000;

async function loadMysql(): Promise<typeof Mysql2> {
  try {
    const module = (await import('mysql2')) as typeof Mysql2 & { default?: typeof Mysql2 };
    return module.default ?? module;
  } catch (error) {
    throw new Error('a mysql:// databaseUrl needs the mysql2 package (npm install mysql2)', {
      cause: error,
    });
  }
}

/** The engine behind the URL, as found at start-up. */
interface Engine {
  mariadb: boolean;
  version: string;
}

/** Connects, checks the login and resolves with the adapter once one connection has succeeded. */
export async function openMysql(options: MysqlOptions): Promise<SqlAdapter> {
  const url = new URL(options.databaseUrl.replace(/^mariadb:/i, 'mysql:'));
  const database = options.database ?? decodeURIComponent(url.pathname.slice(1));
  if (database === '') {
    throw new TypeError(
      'a mysql:// databaseUrl names its database, e.g. mysql://reader@127.0.0.1:3306/shop',
    );
  }
  const mysql = await loadMysql();
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const pool: Pool = mysql.createPool({
    uri: url.toString(),
    database,
    connectionLimit: options.poolSize ?? 4,
    connectTimeout: connectTimeoutMs,
    multipleStatements: false,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    decimalNumbers: false,
    rowsAsArray: true,
    timezone: 'Z',
  });
  const report = options.onError ?? (() => undefined);
  // A connection that fails while idle emits 'error'; with no listener that would crash.
  pool.on('connection', (connection) => {
    connection.on('error', (error: unknown) => {
      report(error, 'sql: MySQL connection');
    });
  });
  let engine: Engine;
  try {
    engine = await probe(pool, options);
  } catch (error) {
    await endPool(pool);
    if (error instanceof Error && error.name === 'PrivilegedLoginError') throw error;
    if (isConnectTimeout(error)) {
      throw new SqlError({
        message: `MySQL at ${url.hostname}:${url.port === '' ? '3306' : url.port} did not answer within ${String(connectTimeoutMs)} ms`,
        code: '08001',
        hint: 'check that the server is up and reachable, or raise connectTimeoutMs',
      });
    }
    throw toMysqlError(error);
  }
  return createMysqlAdapter(pool, {
    engine,
    database,
    graceMs: options.graceMs ?? 2000,
    report,
  });
}

/** Learns the engine and checks the login on one connection. */
async function probe(pool: Pool, options: MysqlOptions): Promise<Engine> {
  const connection = await pool.promise().getConnection();
  try {
    const read = async (sql: string) => {
      const [rows] = await connection.query({ sql, rowsAsArray: true });
      return rows as unknown as unknown[][];
    };
    const [[version]] = (await read('SELECT VERSION()')) as [[string]];
    const found = await findMysqlPrivileges(read);
    if (found.length > 0) {
      if (options.allowPrivilegedLogin !== true) throw mysqlPrivilegedLoginError(found);
      const message = `warning: serving on a privileged login (--allow-privileged-login): ${found.join('; ')}`;
      if (options.onWarning !== undefined) options.onWarning(message);
      else process.emitWarning(message);
    }
    return { mariadb: /mariadb/i.test(version), version };
  } finally {
    // The check may have SET ROLE: this connection is not reused.
    connection.destroy();
  }
}

/** How long close waits for the pool's connections to say goodbye. */
const END_WAIT_MS = 2000;

/**
 * Ends the pool; resolves when every connection has ended, or after END_WAIT_MS when one cannot
 * (a server that stopped answering, a connection still being opened): close never hangs.
 */
function endPool(pool: Pool): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, END_WAIT_MS);
    timer.unref();
    pool.end(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

interface Settings {
  engine: Engine;
  database: string;
  graceMs: number;
  report: (error: unknown, where: string) => void;
}

function createMysqlAdapter(pool: Pool, settings: Settings): SqlAdapter {
  let closed = false;
  return {
    kind: 'mysql',
    schema: settings.database,
    catalog: MYSQL_CATALOG,
    async query(sql, params, options) {
      if (closed) throw new SqlError({ message: 'the database is closed' });
      return runQuery(pool, settings, { sql, params, options });
    },
    async close() {
      if (closed) return;
      closed = true;
      await endPool(pool);
    },
  };
}

interface Job {
  sql: string;
  params: readonly SqlParam[];
  options: QueryOptions;
}

/** Runs one job on its own connection under the time limit, the signal and the guard. */
async function runQuery(pool: Pool, settings: Settings, job: Job): Promise<QueryResult> {
  const { timeoutMs, signal } = job.options;
  if (!Number.isSafeInteger(job.options.maxRows) || job.options.maxRows < 1) {
    throw new RangeError('maxRows must be ≥ 1');
  }
  if (signal?.aborted === true) throw cancelled();
  // The time limit counts from the call: waiting for a connection uses it up too.
  const deadline = Date.now() + timeoutMs;
  const connection = await acquire(pool, timeoutMs);
  const threadId = connection.threadId;
  const kill = (what: 'QUERY' | 'CONNECTION') => {
    pool.query(`KILL ${what} ${String(threadId)}`, (error: unknown) => {
      // 1094: the thread has ended already.
      if (error !== null && error !== undefined && (error as { errno?: unknown }).errno !== 1094) {
        report(error);
      }
    });
  };
  const report = (error: unknown) => {
    settings.report(error, 'sql: killing a MySQL query');
  };
  // Whether the connection must be closed rather than reused (killed, cut short, broken), and
  // whether its statement may still run on the server (so that it must be killed there too).
  let discard = false;
  let running = false;
  let onGuard: (error: SqlError) => void = () => undefined;
  const guarded = new Promise<never>((_, reject) => {
    onGuard = reject;
  });
  const guard = setTimeout(
    () => {
      discard = true;
      kill('CONNECTION');
      onGuard(
        new SqlError({
          message: `the query outlived its ${String(timeoutMs)} ms limit and its connection was closed`,
          code: '70100',
        }),
      );
    },
    Math.max(0, deadline - Date.now()) + settings.graceMs,
  );
  const onAbort = () => {
    discard = running = true;
    kill('QUERY');
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const work = inTransaction(connection, settings, job);
    // When the guard wins, the statement's own failure (its connection closed) has no reader.
    work.catch(() => undefined);
    const outcome = await Promise.race([work, guarded]);
    if (outcome.cutShort) discard = running = true;
    return outcome.result;
  } catch (error) {
    if (error instanceof SqlError || error instanceof RangeError) throw error;
    discard ||= isFatal(error);
    throw toMysqlError(error, job.sql);
  } finally {
    clearTimeout(guard);
    signal?.removeEventListener('abort', onAbort);
    // A statement cut short may still run on the server (holding its locks) until it next
    // writes to the closed socket: end it there as well.
    if (running) kill('CONNECTION');
    await finish(connection, discard);
  }
}

/** Resets a connection and returns it to the pool, or closes it. */
async function finish(connection: PoolConnection, discard: boolean): Promise<void> {
  if (discard) {
    connection.destroy();
    return;
  }
  const reset = await new Promise<boolean>((resolve) => {
    connection.reset((error: unknown) => {
      resolve(error === null || error === undefined);
    });
  });
  if (reset) connection.release();
  else connection.destroy();
}

/** The session settings of one query, for the engine. */
function settingsSql(engine: Engine, timeoutMs: number, maxRows: number): string {
  const limit =
    `sql_select_limit = ${String(maxRows + 1)}, ` +
    `lock_wait_timeout = ${String(Math.max(1, Math.ceil(timeoutMs / 1000)))}`;
  if (engine.mariadb) {
    const seconds = (Math.max(1, timeoutMs) / 1000).toFixed(3);
    return `SET SESSION tx_read_only = 1, max_statement_time = ${seconds}, ${limit}`;
  }
  const ms = String(Math.max(1, Math.ceil(timeoutMs)));
  return `SET SESSION transaction_read_only = 1, max_execution_time = ${ms}, ${limit}`;
}

async function inTransaction(
  connection: PoolConnection,
  settings: Settings,
  job: Job,
): Promise<{ result: QueryResult; cutShort: boolean }> {
  const { options } = job;
  await plain(connection, `USE ${connection.escapeId(settings.database)}`);
  await plain(connection, settingsSql(settings.engine, options.timeoutMs, options.maxRows));
  await plain(connection, options.readOnly ? 'START TRANSACTION READ ONLY' : 'START TRANSACTION');
  return stream(connection, job);
}

/** Runs a statement of the adapter's own and waits for it. */
function plain(connection: PoolConnection, sql: string): Promise<void> {
  return new Promise((resolve, reject) => {
    connection.query(sql, (error: Error | null) => {
      if (error === null) resolve();
      else reject(error);
    });
  });
}

/**
 * Runs the statement and keeps the first result set's rows under the row and byte limits. The
 * server sends at most maxRows+1 rows of a SELECT without its own LIMIT (sql_select_limit); past
 * a limit, up to DRAIN_ROWS rows are read and dropped before the connection is given up instead.
 */
function stream(
  connection: PoolConnection,
  job: Job,
): Promise<{ result: QueryResult; cutShort: boolean }> {
  const { sql, params, options } = job;
  const kept = new Kept(options.maxRows, {
    bytes: options.maxBytes ?? DEFAULT_MAX_RESULT_BYTES,
    cell: options.maxCellBytes ?? DEFAULT_MAX_CELL_BYTES,
  });
  return new Promise((resolve, reject) => {
    let fields: FieldPacket[] | undefined;
    let settled = false;
    let dropped = 0;
    const done = (cutShort: boolean) => {
      if (settled) return;
      settled = true;
      resolve({ result: resultOf(kept, fields ?? []), cutShort });
    };
    const command =
      params.length === 0
        ? connection.query({ sql, rowsAsArray: true })
        : connection.execute({ sql, rowsAsArray: true }, [...params]);
    command.on('fields', (received: FieldPacket[] | undefined, index?: number) => {
      if ((index ?? 0) === 0 && fields === undefined) fields = received ?? [];
    });
    command.on('result', (row: unknown, index?: number) => {
      if (settled || (index ?? 0) !== 0 || fields === undefined || !Array.isArray(row)) return;
      if (kept.stoppedBy !== undefined) {
        if (++dropped > DRAIN_ROWS) done(true);
        return;
      }
      kept.take([row.map((value, i) => cellOf(value, fields?.[i]))], TYPELESS(fields.length));
    });
    command.on('error', (error: unknown) => {
      // A failure after a limit stopped the rows (e.g. the time limit while draining) changes
      // nothing the caller sees, as with PostgreSQL's cursor, which never reads that far.
      if (kept.stoppedBy !== undefined) done(true);
      if (settled) return;
      settled = true;
      reject(error instanceof Error ? error : new Error(String(error)));
    });
    command.on('end', () => {
      done(false);
    });
  });
}

const typeless = new Map<number, { name: string; typeId: number }[]>();
/** Fields for Kept that leave values as they are (they are normalized already). */
function TYPELESS(count: number): { name: string; typeId: number }[] {
  let fields = typeless.get(count);
  if (fields === undefined) {
    fields = Array.from({ length: count }, () => ({ name: '', typeId: 0 }));
    typeless.set(count, fields);
  }
  return fields;
}

function resultOf(kept: Kept, fields: readonly FieldPacket[]): QueryResult {
  const result: QueryResult = {
    columns: fields.map((f) => ({ name: f.name, type: resultTypeName(f) })),
    rows: kept.rows,
    rowCount: kept.rows.length,
    truncated: kept.stoppedBy !== undefined,
  };
  if (kept.stoppedBy !== undefined) result.truncatedBy = kept.stoppedBy;
  if (kept.cutCells > 0) result.cutCells = kept.cutCells;
  return result;
}

/** A pooled connection within `ms`, else a SqlError; one that comes later goes back. */
function acquire(pool: Pool, ms: number): Promise<PoolConnection> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      const message = `no database connection within the ${String(ms)} ms limit: the database did not answer`;
      reject(new SqlError({ message, code: '70100' }));
    }, ms);
    // mysql2 passes no connection with an error, whatever its types say.
    const got = (error: unknown, connection: PoolConnection | undefined) => {
      if (settled) {
        connection?.release();
        return;
      }
      settled = true;
      clearTimeout(timer);
      if (connection === undefined) reject(toMysqlError(error));
      else resolve(connection);
    };
    pool.getConnection(got);
  });
}

/** True for errors after which the connection cannot be reused. */
function isFatal(error: unknown): boolean {
  return (error as { fatal?: unknown } | null)?.fatal === true;
}

function isConnectTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ETIMEDOUT' || code === 'PROTOCOL_SEQUENCE_TIMEOUT';
}

/**
 * A mysql2 error as a SqlError: the server's message and SQLSTATE. A syntax error in text that
 * holds more than one statement gets the hint that only one is allowed.
 */
export function toMysqlError(error: unknown, sql?: string): SqlError {
  if (error instanceof SqlError) return error;
  const e = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const message = text(e['sqlMessage']) ?? text(e['message']) ?? String(error);
  const code = text(e['sqlState']) ?? text(e['code']);
  const several = e['errno'] === 1064 && sql !== undefined && /;\s*\S/.test(sql);
  return new SqlError({
    message,
    code,
    hint: several ? 'send exactly one SQL statement per call (several are refused)' : undefined,
  });
}

function cancelled(): SqlError {
  return new SqlError({ message: 'Query execution was interrupted', code: '70100' });
}
