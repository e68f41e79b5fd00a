// sql: a read-only database gateway. Tools list tables, describe them and run one read-only
// statement with bound parameters; each table's schema is also a resource. Without a
// databaseUrl it serves an embedded PGlite seeded with a small shop; with one, a PostgreSQL
// database, or a MySQL or MariaDB one (mysql:// or mariadb://). The same tools in all; the SQL
// is the engine's own dialect (PostgreSQL's $1 parameters, MySQL's ?).
import type { JsonSchemaObject, McpServerOptions } from '../../src/server/index.js';
import { McpServer } from '../../src/server/index.js';
import { resourceNotFound } from '../../src/protocol/index.js';
import type { CatalogRead, QueryOptions, SqlAdapter, SqlCatalog } from './adapter.js';
import {
  DEFAULT_MAX_CELL_BYTES,
  DEFAULT_MAX_RESULT_BYTES,
  createAdapter,
  toSqlError,
} from './adapter.js';
import { shopStatements } from './dataset.js';
import type { QueryResult, SqlParam, TableInfo, TableSchema } from './logic.js';
import {
  DEFAULT_MAX_ROWS,
  DEFAULT_TIMEOUT_MS,
  DESCRIBE_TABLE_SQL,
  LIST_TABLES_SQL,
  MAX_ROWS_LIMIT,
  describeFailure,
  formatTable,
  formatTableSchema,
  toTableSchema,
} from './logic.js';
import { isMysqlUrl, openMysql } from './mysql.js';
import { startPglite } from './pglite.js';
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

/** The words that differ between the engines: the tools and the SQL are otherwise the same. */
interface Dialect {
  engine: string;
  where: string;
  placeholders: string;
  example: string;
  paramsHelp: string;
}

function dialectOf(kind: SqlAdapter['kind']): Dialect {
  if (kind === 'mysql') {
    return {
      engine: 'MySQL/MariaDB',
      where: 'database',
      placeholders: '?',
      example: 'SELECT name FROM customers WHERE country = ?',
      paramsHelp: 'Values for each ?, in order.',
    };
  }
  return {
    engine: 'PostgreSQL',
    where: 'schema',
    placeholders: '$1, $2, …',
    example: 'SELECT name FROM customers WHERE country = $1',
    paramsHelp: 'Values for $1, $2, … in order.',
  };
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

/** PostgreSQL's catalog (PGlite and PostgreSQL): one statement each, over pg_catalog. */
const POSTGRES_CATALOG: SqlCatalog = {
  async listTables(read: CatalogRead, schema: string): Promise<TableInfo[]> {
    const result = await read(LIST_TABLES_SQL, [schema]);
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    return result.rows.map(([name, kind, description]) => ({
      name: text(name),
      kind: text(kind),
      description: typeof description === 'string' ? description : null,
    }));
  },
  async describeTable(read, schema, table): Promise<TableSchema | undefined> {
    const result = await read(DESCRIBE_TABLE_SQL, [schema, table]);
    const row = result.rows[0];
    return row === undefined ? undefined : toTableSchema(row[0]);
  },
};

function catalogOf(adapter: SqlAdapter): SqlCatalog {
  return adapter.catalog ?? POSTGRES_CATALOG;
}

interface Limits {
  timeoutMs: number;
  defaultMaxRows: number;
  maxBytes: number;
  maxCellBytes: number;
}

const COLUMNS_SCHEMA: JsonSchemaObject = {
  type: 'array',
  items: {
    type: 'object',
    properties: { name: { type: 'string' }, type: { type: 'string' } },
    required: ['name', 'type'],
    additionalProperties: false,
  },
};

const NAMES = { type: 'array', items: { type: 'string' } };

/** describe_table's structured content (logic.ts TableSchema), kept short: it is listed. */
const TABLE_SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    kind: { type: 'string' },
    description: { type: ['string', 'null'] },
    columns: { type: 'array', items: { type: 'object' } },
    primaryKey: NAMES,
    foreignKeys: { type: 'array', items: { type: 'object' } },
  },
  required: ['name', 'kind', 'columns', 'primaryKey', 'foreignKeys'],
};

const TABLE_NAME = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description: 'A table or view name, as list_tables shows it.',
};

/** Registers the tools, the schema resources and their completions. */
function registerSqlFeatures(server: McpServer, adapter: SqlAdapter, limits: Limits): void {
  const read = (sql: string, params: readonly SqlParam[], options: Partial<QueryOptions> = {}) =>
    adapter.query(sql, params, {
      readOnly: true,
      timeoutMs: limits.timeoutMs,
      maxRows: MAX_ROWS_LIMIT,
      maxBytes: limits.maxBytes,
      maxCellBytes: limits.maxCellBytes,
      ...options,
    });
  const catalog = catalogOf(adapter);
  const reader =
    (signal: AbortSignal | undefined): CatalogRead =>
    (sql, params) =>
      read(sql, params, { signal });
  const listTables = (signal?: AbortSignal): Promise<TableInfo[]> =>
    catalog.listTables(reader(signal), adapter.schema);
  const describe = (table: string, signal?: AbortSignal): Promise<TableSchema | undefined> =>
    catalog.describeTable(reader(signal), adapter.schema, table);
  const dialect = dialectOf(adapter.kind);
  const failed = (error: unknown): Error =>
    new Error(describeFailure(toSqlError(error), { timeoutMs: limits.timeoutMs }), {
      cause: error,
    });
  const readOnlyTool = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

  server.tool(
    {
      name: 'list_tables',
      title: 'List tables',
      description:
        'Lists the tables and views you can query, with their descriptions. Call it first.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      outputSchema: {
        type: 'object',
        properties: {
          schema: { type: 'string' },
          tables: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                kind: { type: 'string' },
                description: { type: ['string', 'null'] },
              },
              required: ['name', 'kind', 'description'],
              additionalProperties: false,
            },
          },
        },
        required: ['schema', 'tables'],
        additionalProperties: false,
      },
      annotations: readOnlyTool,
    },
    async (_args, ctx) => {
      const tables = await listTables(ctx.signal).catch((error: unknown) => {
        throw failed(error);
      });
      const lines = tables.map(
        (t) => `- ${t.name} (${t.kind})${t.description === null ? '' : `: ${t.description}`}`,
      );
      const text =
        tables.length === 0
          ? `Schema "${adapter.schema}" has no tables you can read.`
          : `Schema "${adapter.schema}":\n${lines.join('\n')}`;
      return {
        content: [{ type: 'text', text }],
        structuredContent: { schema: adapter.schema, tables: tables.map((t) => ({ ...t })) },
      };
    },
  );

  server.tool(
    {
      name: 'describe_table',
      title: 'Describe a table',
      description:
        'Shows the columns of a table or view (types, nullability, defaults) and its primary and foreign keys. Call it before writing a query.',
      inputSchema: {
        type: 'object',
        properties: { table: TABLE_NAME },
        required: ['table'],
        additionalProperties: false,
      },
      outputSchema: TABLE_SCHEMA,
      annotations: readOnlyTool,
    },
    async (args, ctx) => {
      const table = args['table'] as string;
      const described = await describe(table, ctx.signal).catch((error: unknown) => {
        throw failed(error);
      });
      if (described === undefined) {
        throw new Error(
          `no table or view "${table}" in schema "${adapter.schema}"; call list_tables to see them`,
        );
      }
      return {
        content: [{ type: 'text', text: formatTableSchema(described, adapter.schema) }],
        structuredContent: { ...described },
      };
    },
  );

  server.tool(
    {
      name: 'query',
      title: 'Run a read-only query',
      description: `Runs one read-only SQL statement (${dialect.engine} dialect) and returns the rows as a table. Pass values as params for ${dialect.placeholders}; never inline them. Writes are refused.`,
      inputSchema: {
        type: 'object',
        properties: {
          sql: {
            type: 'string',
            minLength: 1,
            maxLength: 100_000,
            description: `One SQL statement, e.g. ${dialect.example}.`,
          },
          params: {
            type: 'array',
            items: { type: ['string', 'number', 'boolean', 'null'] },
            maxItems: 100,
            description: dialect.paramsHelp,
          },
          maxRows: {
            type: 'integer',
            minimum: 1,
            maximum: MAX_ROWS_LIMIT,
            default: limits.defaultMaxRows,
            description: 'Most rows to return; the rest are cut with a note.',
          },
        },
        required: ['sql'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: {
          columns: COLUMNS_SCHEMA,
          rows: { type: 'array', items: { type: 'array' } },
          rowCount: { type: 'integer', minimum: 0 },
          truncated: { type: 'boolean' },
          truncatedBy: { enum: ['rows', 'bytes'] },
          cutCells: { type: 'integer', minimum: 1 },
        },
        required: ['columns', 'rows', 'rowCount', 'truncated'],
        additionalProperties: false,
      },
      annotations: readOnlyTool,
    },
    async (args, ctx) => {
      const sql = args['sql'] as string;
      const params = (args['params'] ?? []) as SqlParam[];
      const maxRows = typeof args['maxRows'] === 'number' ? args['maxRows'] : limits.defaultMaxRows;
      let result: QueryResult;
      try {
        result = await read(sql, params, { maxRows, signal: ctx.signal });
      } catch (error) {
        throw failed(error);
      }
      const { columns, rows, rowCount, truncated, truncatedBy, cutCells } = result;
      const structured: Record<string, unknown> = { columns, rows, rowCount, truncated };
      if (truncatedBy !== undefined) structured['truncatedBy'] = truncatedBy;
      if (cutCells !== undefined) structured['cutCells'] = cutCells;
      return {
        content: [{ type: 'text', text: formatTable(result, maxRows) }],
        structuredContent: structured,
      };
    },
  );

  server.resourceTemplate(
    {
      uriTemplate: 'sql://tables/{name}/schema',
      name: 'table-schema',
      title: 'Table schema',
      description: 'The columns and keys of one table, as JSON.',
      mimeType: 'application/json',
      complete: {
        name: async (value) =>
          (await listTables()).map((t) => t.name).filter((name) => name.startsWith(value)),
      },
      list: async () =>
        (await listTables()).map((t) => ({
          uri: `sql://tables/${encodeURIComponent(t.name)}/schema`,
          name: `${t.name} schema`,
          mimeType: 'application/json',
          ...(t.description === null ? {} : { description: t.description }),
        })),
    },
    async (uri, variables, ctx) => {
      const raw = variables['name'];
      const name = typeof raw === 'string' ? safeDecode(raw) : undefined;
      const described = name === undefined ? undefined : await describe(name, ctx.signal);
      if (described === undefined) throw resourceNotFound(uri, ctx.era);
      return JSON.stringify(described, null, 2);
    },
  );
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
