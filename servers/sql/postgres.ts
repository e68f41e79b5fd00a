// A real PostgreSQL database through node-postgres (`pg`, loaded on first use). Sessions come from
// a small pool; every statement uses the extended protocol (queryMode 'extended'), which refuses
// more than one command. The server enforces the time limit (statement_timeout); a guard closes
// a connection that outlives it by more than a grace period, and a cancel calls pg_cancel_backend.
import type PgModule from 'pg';
import type { Pool, PoolClient, QueryArrayConfig } from 'pg';
import type { RawResult, SessionSource, SqlSession } from './adapter.js';
import { SqlError, toSqlError } from './adapter.js';
import { RAW_TEXT_TYPES } from './logic.js';
import { PrivilegedLoginError, findPrivileges, privilegedLoginError } from './privileges.js';

/** Options of a PostgreSQL connection. */
export interface PostgresOptions {
  /** A `postgres://` connection URL. */
  databaseUrl: string;
  /** Connections in the pool. Default: 4. */
  poolSize?: number | undefined;
  /** How long past its time limit a query may take before its connection is closed. Default: 2000 ms. */
  graceMs?: number | undefined;
  /**
   * How long opening a connection may take (TCP, TLS and the startup exchange), at start-up and
   * for each new pooled connection. Default: 10 000 ms.
   */
  connectTimeoutMs?: number | undefined;
  /** Receives errors that concern no query (an idle connection dropped, a failed cancel). */
  onError?: ((error: unknown, where: string) => void) | undefined;
  /** The role queries SET ROLE to, checked along with the login. */
  role?: string | undefined;
  /**
   * Serve even when the login (or role) is privileged: a superuser, a member of
   * pg_execute_server_program, pg_write_server_files, pg_read_server_files or pg_signal_backend,
   * able to read pg_authid, or granted a function that reaches the server's files. Default
   * false: startPostgres rejects, naming the privilege (see privileges.ts).
   */
  allowPrivilegedLogin?: boolean | undefined;
  /** Told what was found when a privileged login is allowed. Default: process.emitWarning. */
  onWarning?: ((message: string) => void) | undefined;
}

async function loadPg(): Promise<typeof PgModule> {
  try {
    return (await import('pg')).default;
  } catch (error) {
    throw new Error('a databaseUrl needs the pg package (npm install pg)', { cause: error });
  }
}

/** Connects to PostgreSQL and resolves once one connection has succeeded. */
export async function startPostgres(options: PostgresOptions): Promise<SessionSource> {
  const pg = await loadPg();
  const types = typesOf(pg);
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const pool: Pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.poolSize ?? 4,
    application_name: 'mcpkit-sql',
    connectionTimeoutMillis: connectTimeoutMs,
  });
  const report = options.onError ?? (() => undefined);
  pool.on('error', (error) => {
    report(error, 'sql: idle PostgreSQL connection');
  });
  await checkFirstConnection(pool, options, connectTimeoutMs);
  const graceMs = options.graceMs ?? 2000;
  return {
    async withSession(work, limits) {
      if (limits.signal?.aborted === true) throw cancelled();
      // The time limit counts from the call: waiting for a connection uses it up too.
      const deadline = Date.now() + limits.timeoutMs;
      const client = await acquire(pool, limits.timeoutMs);
      // A connection that dies mid-query emits 'error' on its client as well as failing the
      // query; with no listener that would crash the process.
      const onClientError = (error: unknown) => {
        report(error, 'sql: PostgreSQL connection');
      };
      client.on('error', onClientError);
      let broken: Error | undefined;
      const guard = setTimeout(
        () => {
          broken = new SqlError({
            message: `the query outlived its ${String(limits.timeoutMs)} ms limit and its connection was closed`,
            code: '57014',
          });
          client.release(broken);
        },
        Math.max(0, deadline - Date.now()) + graceMs,
      );
      const pid = (client as unknown as { processID?: number }).processID;
      const onAbort = () => {
        if (pid === undefined) return;
        pool.query('SELECT pg_cancel_backend($1)', [pid]).catch((error: unknown) => {
          report(error, 'sql: cancelling a query');
        });
      };
      limits.signal?.addEventListener('abort', onAbort, { once: true });
      const session: SqlSession = { run: (sql, params) => runOn(client, { sql, params, types }) };
      try {
        return await work(session);
      } catch (error) {
        throw broken ?? error;
      } finally {
        clearTimeout(guard);
        client.off('error', onClientError);
        limits.signal?.removeEventListener('abort', onAbort);
        if (broken === undefined) client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}

/** pg's type parsers, except that the RAW_TEXT_TYPES stay the text PostgreSQL sent. */
function typesOf(pg: typeof PgModule): QueryArrayConfig['types'] {
  const raw = new Set(RAW_TEXT_TYPES);
  const fallback = pg.types.getTypeParser.bind(pg.types) as (
    oid: number,
    format?: 'text' | 'binary',
  ) => (text: string) => unknown;
  return {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      raw.has(oid) ? (text: string) => text : fallback(oid, format),
  };
}

/**
 * Connects once and checks the login (checkLogin). On failure the pool is ended and the error
 * thrown: a PrivilegedLoginError as it is, a connect timeout as SqlError 08001, others as SqlError.
 */
async function checkFirstConnection(
  pool: Pool,
  options: PostgresOptions,
  connectTimeoutMs: number,
): Promise<void> {
  try {
    const probe = await pool.connect();
    try {
      await checkLogin(probe, options);
    } finally {
      probe.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (error instanceof PrivilegedLoginError) throw error;
    if (isConnectTimeout(error)) {
      throw new SqlError({
        message: `PostgreSQL at ${where(options.databaseUrl)} did not answer within ${String(connectTimeoutMs)} ms`,
        code: '08001',
        hint: 'check that the server is up and reachable, or raise connectTimeoutMs',
      });
    }
    throw toSqlError(error);
  }
}

/**
 * A pooled connection within `ms`, else a SqlError: a database that accepts connections and
 * never answers must not hold a call. A connection that comes after the call gave up goes back.
 */
function acquire(pool: Pool, ms: number): Promise<PoolClient> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      const message = `no database connection within the ${String(ms)} ms limit: the database did not answer`;
      reject(new SqlError({ message, code: '57014' }));
    }, ms);
    pool.connect().then(
      (client) => {
        if (settled) {
          client.release();
          return;
        }
        settled = true;
        clearTimeout(timer);
        resolve(client);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(toSqlError(error));
      },
    );
  });
}

/** True for node-postgres's connection timeouts. */
function isConnectTimeout(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /timeout exceeded when trying to connect|connection timeout/i.test(message);
}

/** host:port of a connection URL, for messages (never its credentials). */
function where(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}:${url.port === '' ? '5432' : url.port}`;
  } catch {
    return 'the configured address';
  }
}

async function runOn(
  client: PoolClient,
  statement: { sql: string; params: readonly unknown[]; types: QueryArrayConfig['types'] },
): Promise<RawResult> {
  const config = {
    text: statement.sql,
    values: [...statement.params],
    rowMode: 'array',
    queryMode: 'extended', // one command per statement, always (pg 8.12+)
    types: statement.types,
  } as QueryArrayConfig;
  try {
    const result = await client.query(config);
    return {
      fields: result.fields.map((f) => ({ name: f.name, typeId: f.dataTypeID })),
      rows: result.rows,
      command: result.command,
    };
  } catch (error) {
    throw toSqlError(error);
  }
}

/** Refuses a privileged login unless allowed; warns when it is allowed. */
async function checkLogin(client: PoolClient, options: PostgresOptions): Promise<void> {
  const found = await findPrivileges(client, options.role);
  if (found.length === 0) return;
  if (options.allowPrivilegedLogin !== true) throw privilegedLoginError(found);
  const message = `warning: serving on a privileged login (--allow-privileged-login): ${found.join('; ')}`;
  if (options.onWarning !== undefined) options.onWarning(message);
  else process.emitWarning(message);
}

function cancelled(): SqlError {
  return new SqlError({ message: 'canceling statement due to user request', code: '57014' });
}
