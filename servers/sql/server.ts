// sql: a read-only database gateway. Tools list tables, describe them and run one read-only
// statement with bound parameters; each table's schema is also a resource. Without a
// databaseUrl it serves an embedded PGlite seeded with a small shop; with one, a PostgreSQL
// database, or a MySQL or MariaDB one (mysql:// or mariadb://). The same tools in all; the SQL
// is the engine's own dialect (PostgreSQL's $1 parameters, MySQL's ?).
import type { McpServerOptions } from '../../src/server/index.js';
import { McpServer } from '../../src/server/index.js';
import type { SqlAdapter } from './adapter.js';
import { DEFAULT_MAX_CELL_BYTES, DEFAULT_MAX_RESULT_BYTES, createAdapter } from './adapter.js';
import { shopStatements } from './dataset.js';
import type { Limits } from './features.js';
import { catalogOf, dialectOf, registerSqlFeatures } from './features.js';
import { DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT_MS, MAX_ROWS_LIMIT } from './logic.js';
import { isMysqlUrl, openMysql } from './mysql.js';
import { PGLITE_PACKAGE, pgliteInstalled, startPglite } from './pglite.js';
import { startPostgres } from './postgres.js';

export { SqlError } from './adapter.js';
export type { SqlAdapter } from './adapter.js';

/** Options of {@link createSqlServer}. Every field is optional. */
export interface SqlServerOptions {
  /**
   * A PostgreSQL URL (`postgres://…`), or a MySQL/MariaDB one (`mysql://…`, `mariadb://…`, which
   * needs the mysql2 package and names its database). Default: the embedded PGlite with the
   * shop dataset.
   */
  databaseUrl?: string | undefined;
  /**
   * The schema the tools show and queries resolve names in. Default: `public`; on MySQL, the
   * database of the URL (a schema is a database there).
   */
  schema?: string | undefined;
  /** PostgreSQL: a role every query runs as (SET LOCAL ROLE), to narrow what it may read. Default: none. */
  role?: string | undefined;
  /** How long one query may run. Default: 5000 ms. */
  timeoutMs?: number | undefined;
  /** Rows a query returns when the call does not say. Default: 100 (at most 1000). */
  defaultMaxRows?: number | undefined;
  /** Most bytes of data one query returns; rows past it are not fetched. Default: 256 KiB. */
  maxResultBytes?: number | undefined;
  /** Longest cell a query returns, in characters; longer ones are cut with a note. Default: 32 KiB. */
  maxCellBytes?: number | undefined;
  /** PGlite only: a folder to cache the seeded database in between runs. Default: none. */
  cacheDir?: string | undefined;
  /** PGlite only: most queries waiting for their turn; more fail at once as busy. Default: 32. */
  maxWaitingQueries?: number | undefined;
  /** PostgreSQL and MySQL: connections in the pool. Default: 4. */
  poolSize?: number | undefined;
  /** PostgreSQL and MySQL: how long opening a connection may take, at start-up and later. Default: 10 000 ms. */
  connectTimeoutMs?: number | undefined;
  /**
   * PostgreSQL and MySQL: serve even on a privileged login (PostgreSQL: a superuser, a member of
   * pg_execute_server_program and the like; MySQL: a login or role holding more than SELECT and
   * SHOW VIEW, such as FILE or SUPER), which a read-only transaction does not contain.
   * Default false: opening the database fails with a message naming the privilege.
   */
  allowPrivilegedLogin?: boolean | undefined;
  /** PostgreSQL and MySQL: told what was found when a privileged login is allowed. Default: process.emitWarning. */
  onWarning?: ((message: string) => void) | undefined;
  /** An adapter to serve instead of opening one (tests, other engines). */
  adapter?: SqlAdapter | undefined;
  /** Options for the underlying McpServer. */
  server?: McpServerOptions | undefined;
}

/** A running sql server. */
export interface SqlServer {
  /** The MCP server; connect transports to it. */
  readonly server: McpServer;
  /** The database it serves. */
  readonly adapter: SqlAdapter;
  /** Closes every session and the database. Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens the database the options name: MySQL/MariaDB for a mysql:// or mariadb:// URL,
 * PostgreSQL for any other databaseUrl, else the embedded one.
 */
export async function openDatabase(options: SqlServerOptions = {}): Promise<SqlAdapter> {
  const schema = options.schema ?? 'public';
  const onError = options.server?.onError;
  if (options.databaseUrl !== undefined && isMysqlUrl(options.databaseUrl)) {
    if (options.role !== undefined) {
      throw new TypeError('role applies to PostgreSQL only; on MySQL, connect as that login');
    }
    return openMysql({
      databaseUrl: options.databaseUrl,
      database: options.schema,
      poolSize: options.poolSize,
      connectTimeoutMs: options.connectTimeoutMs,
      onError,
      allowPrivilegedLogin: options.allowPrivilegedLogin,
      onWarning: options.onWarning,
    });
  }
  if (options.databaseUrl !== undefined) {
    const source = await startPostgres({
      databaseUrl: options.databaseUrl,
      poolSize: options.poolSize,
      connectTimeoutMs: options.connectTimeoutMs,
      onError,
      role: options.role,
      allowPrivilegedLogin: options.allowPrivilegedLogin,
      onWarning: options.onWarning,
    });
    return createAdapter(source, { kind: 'postgres', schema, role: options.role });
  }
  const source = await startPglite({
    seed: shopStatements().join('\n'),
    cacheDir: options.cacheDir,
    maxWaiting: options.maxWaitingQueries,
    onError,
  });
  return createAdapter(source, { kind: 'pglite', schema, role: options.role });
}

/**
 * The optional package the database of `options` needs and cannot load: `@electric-sql/pglite`
 * for the embedded one when it is not installed; else undefined (PostgreSQL's and MySQL's
 * drivers are checked when they open).
 */
export function missingDatabasePackage(options: SqlServerOptions = {}): string | undefined {
  if (options.databaseUrl !== undefined || options.adapter !== undefined) return undefined;
  return pgliteInstalled() ? undefined : PGLITE_PACKAGE;
}

/** Checks the limits of `options` and fills their defaults. */
function limitsOf(options: SqlServerOptions): Limits {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const defaultMaxRows = options.defaultMaxRows ?? DEFAULT_MAX_ROWS;
  if (!(timeoutMs >= 1)) throw new TypeError('timeoutMs must be at least 1');
  if (!Number.isInteger(defaultMaxRows) || defaultMaxRows < 1 || defaultMaxRows > MAX_ROWS_LIMIT) {
    throw new TypeError(`defaultMaxRows must be an integer from 1 to ${String(MAX_ROWS_LIMIT)}`);
  }
  const maxBytes = options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  const maxCellBytes = options.maxCellBytes ?? DEFAULT_MAX_CELL_BYTES;
  if (!(maxBytes >= 1) || !(maxCellBytes >= 1)) {
    throw new TypeError('maxResultBytes and maxCellBytes must be at least 1');
  }
  return { timeoutMs, defaultMaxRows, maxBytes, maxCellBytes };
}

const instructionsFor = (adapter: SqlAdapter): string => {
  const d = dialectOf(adapter.kind);
  return (
    `A read-only ${d.engine} gateway (${d.where} "${adapter.schema}"). Call list_tables, then ` +
    `describe_table, then query with one SELECT per call and ${d.placeholders} for values.`
  );
};

/** Creates the sql server, opening its database first (the embedded one takes a few seconds). */
export async function createSqlServer(options: SqlServerOptions = {}): Promise<SqlServer> {
  const limits = limitsOf(options);
  const adapter = options.adapter ?? (await openDatabase(options));
  const server = new McpServer(
    { name: 'sql', title: 'SQL gateway (read-only)', version: '0.1.0' },
    { instructions: instructionsFor(adapter), ...options.server },
  );
  registerSqlFeatures(server, adapter, limits);
  return {
    server,
    adapter,
    close: async () => {
      await server.close();
      await adapter.close();
    },
  };
}

/**
 * Adds the sql tools and resources to an existing server (the demo composes servers this way).
 * The database opens on first use (the embedded one holds most of a gigabyte once loaded), so
 * the server starts light and answers at once; the first query waits for it and reports a
 * failure to open. Returns what must be closed.
 */
export function registerSql(
  server: McpServer,
  options: SqlServerOptions = {},
): { close(): Promise<void> } {
  const limits = limitsOf(options);
  let opening: Promise<SqlAdapter> | undefined;
  const open = (): Promise<SqlAdapter> =>
    (opening ??=
      options.adapter === undefined ? openDatabase(options) : Promise.resolve(options.adapter));
  const url = options.databaseUrl;
  const mysql = url !== undefined && isMysqlUrl(url);
  const lazy: SqlAdapter = {
    kind: url === undefined ? 'pglite' : mysql ? 'mysql' : 'postgres',
    schema: options.schema ?? (mysql ? mysqlDatabaseOf(url) : 'public'),
    query: async (sql, params, queryOptions) => (await open()).query(sql, params, queryOptions),
    catalog: {
      listTables: async (read, schema) => catalogOf(await open()).listTables(read, schema),
      describeTable: async (read, schema, table) =>
        catalogOf(await open()).describeTable(read, schema, table),
    },
    close: async () => {
      if (opening !== undefined) await (await opening).close();
    },
  };
  registerSqlFeatures(server, lazy, limits);
  return { close: () => lazy.close().catch(() => undefined) };
}

/** The database a mysql:// URL names (the schema the tools show before it opens). */
function mysqlDatabaseOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.slice(1));
  } catch {
    return '';
  }
}
