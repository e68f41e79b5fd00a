// The sql server's features over one SqlAdapter: list_tables, describe_table, query (read-only,
// bound parameters, rows and bytes capped) and the sql://tables/{name}/schema resources with
// their completions. The words that differ between the engines (Dialect) and PostgreSQL's
// catalog (PGlite and PostgreSQL; an adapter may bring its own) live here too.
import type { JsonSchemaObject, McpServer } from '../../src/server/index.js';
import { resourceNotFound } from '../../src/protocol/index.js';
import type { CatalogRead, QueryOptions, SqlAdapter, SqlCatalog } from './adapter.js';
import { toSqlError } from './adapter.js';
import type { QueryResult, SqlParam, TableInfo, TableSchema } from './logic.js';
import {
  DESCRIBE_TABLE_SQL,
  LIST_TABLES_SQL,
  MAX_ROWS_LIMIT,
  describeFailure,
  formatTable,
  formatTableSchema,
  toTableSchema,
} from './logic.js';

/** The server's limits, checked and defaulted (limitsOf in server.ts). */
export interface Limits {
  timeoutMs: number;
  defaultMaxRows: number;
  maxBytes: number;
  maxCellBytes: number;
}

/** The words that differ between the engines: the tools and the SQL are otherwise the same. */
export interface Dialect {
  engine: string;
  where: string;
  placeholders: string;
  example: string;
  paramsHelp: string;
}

/** The dialect of an adapter's engine. */
export function dialectOf(kind: SqlAdapter['kind']): Dialect {
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

/** The catalog of `adapter`: its own, else PostgreSQL's. */
export function catalogOf(adapter: SqlAdapter): SqlCatalog {
  return adapter.catalog ?? POSTGRES_CATALOG;
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

const READ_ONLY_TOOL = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/** What every feature reads through: the adapter, bounded by the limits. */
interface Access {
  readonly adapter: SqlAdapter;
  readonly limits: Limits;
  readonly dialect: Dialect;
  read(
    sql: string,
    params: readonly SqlParam[],
    options?: Partial<QueryOptions>,
  ): Promise<QueryResult>;
  listTables(signal?: AbortSignal): Promise<TableInfo[]>;
  describe(table: string, signal?: AbortSignal): Promise<TableSchema | undefined>;
  /** The error a tool throws for a failed statement: the database's words, explained. */
  failed(error: unknown): Error;
}

/** Registers the tools, the schema resources and their completions. */
export function registerSqlFeatures(server: McpServer, adapter: SqlAdapter, limits: Limits): void {
  const access = accessOf(adapter, limits);
  registerListTables(server, access);
  registerDescribeTable(server, access);
  registerQuery(server, access);
  registerTableSchemas(server, access);
}

function accessOf(adapter: SqlAdapter, limits: Limits): Access {
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
  return {
    adapter,
    limits,
    dialect: dialectOf(adapter.kind),
    read,
    listTables: (signal) => catalog.listTables(reader(signal), adapter.schema),
    describe: (table, signal) => catalog.describeTable(reader(signal), adapter.schema, table),
    failed: (error) =>
      new Error(describeFailure(toSqlError(error), { timeoutMs: limits.timeoutMs }), {
        cause: error,
      }),
  };
}

function registerListTables(server: McpServer, access: Access): void {
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
      annotations: READ_ONLY_TOOL,
    },
    async (_args, ctx) => {
      const tables = await access.listTables(ctx.signal).catch((error: unknown) => {
        throw access.failed(error);
      });
      const lines = tables.map(
        (t) => `- ${t.name} (${t.kind})${t.description === null ? '' : `: ${t.description}`}`,
      );
      const text =
        tables.length === 0
          ? `Schema "${access.adapter.schema}" has no tables you can read.`
          : `Schema "${access.adapter.schema}":\n${lines.join('\n')}`;
      return {
        content: [{ type: 'text', text }],
        structuredContent: { schema: access.adapter.schema, tables: tables.map((t) => ({ ...t })) },
      };
    },
  );
}

function registerDescribeTable(server: McpServer, access: Access): void {
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
      annotations: READ_ONLY_TOOL,
    },
    async (args, ctx) => {
      const table = args['table'] as string;
      const described = await access.describe(table, ctx.signal).catch((error: unknown) => {
        throw access.failed(error);
      });
      if (described === undefined) {
        throw new Error(
          `no table or view "${table}" in schema "${access.adapter.schema}"; call list_tables to see them`,
        );
      }
      return {
        content: [{ type: 'text', text: formatTableSchema(described, access.adapter.schema) }],
        structuredContent: { ...described },
      };
    },
  );
}

function registerQuery(server: McpServer, access: Access): void {
  server.tool(
    {
      name: 'query',
      title: 'Run a read-only query',
      description: `Runs one read-only SQL statement (${access.dialect.engine} dialect) and returns the rows as a table. Pass values as params for ${access.dialect.placeholders}; never inline them. Writes are refused.`,
      inputSchema: {
        type: 'object',
        properties: {
          sql: {
            type: 'string',
            minLength: 1,
            maxLength: 100_000,
            description: `One SQL statement, e.g. ${access.dialect.example}.`,
          },
          params: {
            type: 'array',
            items: { type: ['string', 'number', 'boolean', 'null'] },
            maxItems: 100,
            description: access.dialect.paramsHelp,
          },
          maxRows: {
            type: 'integer',
            minimum: 1,
            maximum: MAX_ROWS_LIMIT,
            default: access.limits.defaultMaxRows,
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
      annotations: READ_ONLY_TOOL,
    },
    async (args, ctx) => {
      const sql = args['sql'] as string;
      const params = (args['params'] ?? []) as SqlParam[];
      const maxRows =
        typeof args['maxRows'] === 'number' ? args['maxRows'] : access.limits.defaultMaxRows;
      let result: QueryResult;
      try {
        result = await access.read(sql, params, { maxRows, signal: ctx.signal });
      } catch (error) {
        throw access.failed(error);
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
}

function registerTableSchemas(server: McpServer, access: Access): void {
  server.resourceTemplate(
    {
      uriTemplate: 'sql://tables/{name}/schema',
      name: 'table-schema',
      title: 'Table schema',
      description: 'The columns and keys of one table, as JSON.',
      mimeType: 'application/json',
      complete: {
        name: async (value) =>
          (await access.listTables()).map((t) => t.name).filter((name) => name.startsWith(value)),
      },
      list: async () =>
        (await access.listTables()).map((t) => ({
          uri: `sql://tables/${encodeURIComponent(t.name)}/schema`,
          name: `${t.name} schema`,
          mimeType: 'application/json',
          ...(t.description === null ? {} : { description: t.description }),
        })),
    },
    async (uri, variables, ctx) => {
      const raw = variables['name'];
      const name = typeof raw === 'string' ? safeDecode(raw) : undefined;
      const described = name === undefined ? undefined : await access.describe(name, ctx.signal);
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
