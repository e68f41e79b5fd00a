// The sql server's domain logic, with no MCP and no driver in it: result shapes and limits,
// value normalization (the same JSON from PGlite and node-postgres), the aligned text table,
// catalog queries and how database errors read to a model.

/** A bound parameter: `$1`, `$2`, … in the statement. */
export type SqlParam = string | number | boolean | null;

/** A JSON value, as result cells are sent. */
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A result column: its name and PostgreSQL type. */
export interface Column {
  name: string;
  type: string;
}

/** What a query returns, after the row limit. */
export interface QueryResult {
  columns: Column[];
  rows: JsonValue[][];
  /** Rows returned (at most maxRows). */
  rowCount: number;
  /** True when the statement produced more rows than are shown. */
  truncated: boolean;
  /** Which limit left rows out: maxRows, or the byte budget of a result. */
  truncatedBy?: 'rows' | 'bytes';
  /** How many cells were cut to the longest cell allowed. */
  cutCells?: number;
  /** The command tag, when the driver reports it (SELECT, SHOW, COMMIT, …). */
  command?: string;
}

/** Rows a query returns when the caller does not say. */
export const DEFAULT_MAX_ROWS = 100;
/** The most rows one query may return. */
export const MAX_ROWS_LIMIT = 1000;
/** How long one query may run by default. */
export const DEFAULT_TIMEOUT_MS = 5000;

/** Type OIDs whose text form is kept as is (dates, times, bytea, numeric, int8). */
export const RAW_TEXT_TYPES: readonly number[] = [17, 20, 1082, 1083, 1114, 1184, 1186, 1266, 1700];

const TYPE_NAMES: Readonly<Record<number, string>> = {
  16: 'boolean',
  17: 'bytea',
  18: 'char',
  19: 'name',
  20: 'bigint',
  21: 'smallint',
  23: 'integer',
  25: 'text',
  26: 'oid',
  114: 'json',
  700: 'real',
  701: 'double precision',
  1042: 'character',
  1043: 'character varying',
  1082: 'date',
  1083: 'time without time zone',
  1114: 'timestamp without time zone',
  1184: 'timestamp with time zone',
  1186: 'interval',
  1266: 'time with time zone',
  1700: 'numeric',
  2950: 'uuid',
  3802: 'jsonb',
};

/** The name of a type OID, when it is a common one. */
export function knownTypeName(oid: number): string | undefined {
  return TYPE_NAMES[oid];
}

/**
 * Turns what a driver produced into JSON: int8 text becomes a number when it is exact, dates
 * become ISO strings, bytes become PostgreSQL hex (`\x…`), and nested values are walked.
 */
export function normalizeValue(value: unknown, typeId: number): JsonValue {
  if (value === null || value === undefined) return null;
  if (typeId === 20 && typeof value === 'string' && /^-?\d+$/.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }
  return toJson(value);
}

function toJson(value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
      return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
    case 'symbol':
      return value.toString();
    case 'undefined':
    case 'function':
      return null;
    case 'object':
      break;
  }
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`;
  if (Array.isArray(value)) return value.map(toJson);
  const object: Record<string, JsonValue> = {};
  for (const [key, item] of Object.entries(value)) object[key] = toJson(item);
  return object;
}

const MAX_CELL = 60;

function cellText(value: JsonValue): string {
  if (value === null) return 'NULL';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const flat = text.replaceAll('\r', '\\r').replaceAll('\n', '\\n').replaceAll('\t', '\\t');
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

const NUMERIC = new Set([
  'smallint',
  'integer',
  'bigint',
  'real',
  'double precision',
  'numeric',
  'oid',
]);

/**
 * Formats a result as an aligned text table, psql style: numbers right-aligned, NULL spelled
 * out, long cells cut at 60 characters (structuredContent keeps them whole).
 */
export function formatTable(result: QueryResult, maxRows: number): string {
  const { columns, rows } = result;
  if (columns.length === 0) {
    const command = result.command === undefined ? '' : ` (${result.command})`;
    return `The statement returned no result set${command}. Every query runs in its own read-only transaction, which is rolled back afterwards.`;
  }
  const cells = rows.map((row) => columns.map((_, i) => cellText(row[i] ?? null)));
  const widths = columns.map((c, i) =>
    Math.max(c.name.length, ...cells.map((r) => (r[i] ?? '').length)),
  );
  const right = columns.map((c) => NUMERIC.has(c.type));
  const line = (values: readonly string[], alignRight: readonly boolean[]) =>
    values
      .map((v, i) => {
        const width = widths[i] ?? 0;
        return alignRight[i] === true ? v.padStart(width) : v.padEnd(width);
      })
      .join(' | ')
      .trimEnd();
  const header = line(
    columns.map((c) => c.name),
    columns.map(() => false),
  );
  const rule = widths.map((w) => '-'.repeat(w)).join('-+-');
  const body = cells.map((r) => line(r, right));
  const count = `(${String(result.rowCount)} row${result.rowCount === 1 ? '' : 's'})`;
  return [header, rule, ...body, count].join('\n') + notesOf(result, maxRows);
}

/** What the model must know about what it is not shown. */
function notesOf(result: QueryResult, maxRows: number): string {
  let notes = '';
  if (result.truncated && result.truncatedBy === 'bytes') {
    notes += `\nTruncated: the rows shown fill the byte budget of one result and more rows exist. Select fewer or narrower columns, or add a WHERE or LIMIT.`;
  } else if (result.truncated) {
    notes += `\nTruncated: the query returned more than ${String(maxRows)} rows and only the first ${String(maxRows)} are shown. Add a WHERE or LIMIT, or raise maxRows (up to ${String(MAX_ROWS_LIMIT)}).`;
  }
  if (result.cutCells !== undefined) {
    notes += `\n${String(result.cutCells)} cell${result.cutCells === 1 ? ' was' : 's were'} too long and cut (marked "… [cut: N more characters]"). Select a substring (left(col, n)) to see a part.`;
  }
  return notes;
}

/** An error the database reported: its message and SQLSTATE code. */
export interface DatabaseErrorInfo {
  message: string;
  code?: string | undefined;
  detail?: string | undefined;
  hint?: string | undefined;
}

/** The text of the `isError` result for a failed query, for a model to read and act on. */
export function describeFailure(error: DatabaseErrorInfo, limits: { timeoutMs: number }): string {
  const { message, code } = error;
  const lines = [
    code === undefined ? `database error: ${message}` : `${message} (SQLSTATE ${code})`,
  ];
  if (error.detail !== undefined && error.detail !== '') lines.push(`DETAIL: ${error.detail}`);
  if (error.hint !== undefined && error.hint !== '') lines.push(`HINT: ${error.hint}`);
  if (code === '25006' || code === '25001') {
    lines.push('This server runs every query in a read-only transaction: only reads are allowed.');
  } else if (
    (code === '57014' && /statement timeout/.test(message)) ||
    /max_statement_time exceeded|maximum statement execution time exceeded/.test(message)
  ) {
    lines.push(
      `The query ran longer than ${String(limits.timeoutMs)} ms and was cancelled; narrow it (WHERE, LIMIT) and try again.`,
    );
  } else if (code === '42601' && /multiple commands/.test(message)) {
    lines.push('Send exactly one SQL statement per call.');
  } else if (code === '42P01') {
    lines.push('Call list_tables to see the tables.');
  }
  return lines.join('\n');
}

/** A table or view of the schema. */
export interface TableInfo {
  name: string;
  kind: string;
  description: string | null;
}

/** Lists the tables and views of schema `$1` that the current role may read. */
export const LIST_TABLES_SQL = `SELECT c.relname AS name,
  CASE c.relkind WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view'
    WHEN 'f' THEN 'foreign table' ELSE 'table' END AS kind,
  obj_description(c.oid, 'pg_class') AS description
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
  AND has_table_privilege(c.oid, 'SELECT')
ORDER BY c.relname`;

/** Describes table `$2` of schema `$1` as one JSON value ({@link TableSchema}). */
export const DESCRIBE_TABLE_SQL = `SELECT json_build_object(
  'name', c.relname,
  'kind', CASE c.relkind WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view'
    WHEN 'f' THEN 'foreign table' ELSE 'table' END,
  'description', obj_description(c.oid, 'pg_class'),
  'columns', (SELECT json_agg(json_build_object(
      'name', a.attname, 'type', format_type(a.atttypid, a.atttypmod),
      'nullable', NOT a.attnotnull, 'default', pg_get_expr(d.adbin, d.adrelid),
      'description', col_description(c.oid, a.attnum)) ORDER BY a.attnum)
    FROM pg_attribute a
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped),
  'primaryKey', (SELECT json_agg(a.attname ORDER BY k.ord)
    FROM pg_index i
    CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
    JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
    WHERE i.indrelid = c.oid AND i.indisprimary),
  'foreignKeys', (SELECT json_agg(json_build_object(
      'name', con.conname,
      'columns', (SELECT json_agg(a.attname ORDER BY k.ord)
        FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
        JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum),
      'references', json_build_object(
        'schema', fn.nspname, 'table', fc.relname,
        'columns', (SELECT json_agg(a.attname ORDER BY k.ord)
          FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, ord)
          JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum)))
      ORDER BY con.conname)
    FROM pg_constraint con
    JOIN pg_class fc ON fc.oid = con.confrelid
    JOIN pg_namespace fn ON fn.oid = fc.relnamespace
    WHERE con.conrelid = c.oid AND con.contype = 'f')
) AS description
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r', 'p', 'v', 'm', 'f')`;

/** A column of a described table. */
export interface ColumnInfo {
  name: string;
  type: string;
  nullable: boolean;
  default: string | null;
  description: string | null;
}

/** A foreign key of a described table. */
export interface ForeignKeyInfo {
  name: string;
  columns: string[];
  references: { schema: string; table: string; columns: string[] };
}

/** A described table, as describe_table and the schema resources return it. */
export interface TableSchema {
  name: string;
  kind: string;
  description: string | null;
  columns: ColumnInfo[];
  primaryKey: string[];
  foreignKeys: ForeignKeyInfo[];
}

/** Normalizes what DESCRIBE_TABLE_SQL returned (json_agg gives null for no rows). */
export function toTableSchema(raw: unknown): TableSchema {
  const value = (raw ?? {}) as Partial<Record<keyof TableSchema, unknown>>;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    name: String(value.name),
    kind: String(value.kind),
    description: text(value.description),
    columns: Array.isArray(value.columns) ? (value.columns as ColumnInfo[]) : [],
    primaryKey: Array.isArray(value.primaryKey) ? (value.primaryKey as string[]) : [],
    foreignKeys: Array.isArray(value.foreignKeys) ? (value.foreignKeys as ForeignKeyInfo[]) : [],
  };
}

/** Formats a described table as readable text. */
export function formatTableSchema(table: TableSchema, schema: string): string {
  const lines = [
    `${table.kind} ${schema}.${table.name}${table.description === null ? '' : `: ${table.description}`}`,
  ];
  const pk = new Set(table.primaryKey);
  for (const c of table.columns) {
    const parts = [`- ${c.name} ${c.type}`, c.nullable ? 'NULL' : 'NOT NULL'];
    if (pk.has(c.name)) parts.push('PRIMARY KEY');
    if (c.default !== null) parts.push(`DEFAULT ${c.default}`);
    if (c.description !== null) parts.push(`-- ${c.description}`);
    lines.push(parts.join(' '));
  }
  if (table.primaryKey.length > 1) lines.push(`Primary key: (${table.primaryKey.join(', ')})`);
  for (const fk of table.foreignKeys) {
    const target =
      fk.references.schema === schema
        ? fk.references.table
        : `${fk.references.schema}.${fk.references.table}`;
    lines.push(
      `Foreign key (${fk.columns.join(', ')}) references ${target} (${fk.references.columns.join(', ')})`,
    );
  }
  return lines.join('\n');
}
