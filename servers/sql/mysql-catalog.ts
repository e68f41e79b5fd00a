// list_tables and describe_table on MySQL and MariaDB, from information_schema: what the login
// may see is what it has privileges on. Column types are MySQL's own (`int(11)`, `decimal(10,2)`,
// `datetime`), the dialect `query` takes (a view's comment, always "VIEW", is no description).
import type { CatalogRead, SqlCatalog } from './adapter.js';
import type { TableInfo, TableSchema } from './logic.js';

const LIST_SQL = `SELECT TABLE_NAME, TABLE_TYPE, TABLE_COMMENT
FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY CAST(TABLE_NAME AS BINARY)`;

const TABLE_SQL = `SELECT TABLE_NAME, TABLE_TYPE, TABLE_COMMENT
FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?`;

const COLUMNS_SQL = `SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT, COLUMN_COMMENT
FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?
ORDER BY ORDINAL_POSITION`;

const KEYS_SQL = `SELECT CONSTRAINT_NAME, COLUMN_NAME, REFERENCED_TABLE_SCHEMA,
  REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME
FROM information_schema.KEY_COLUMN_USAGE
WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?
  AND (CONSTRAINT_NAME = 'PRIMARY' OR REFERENCED_TABLE_NAME IS NOT NULL)
ORDER BY CONSTRAINT_NAME, ORDINAL_POSITION`;

const str = (value: unknown): string => (typeof value === 'string' ? value : String(value));
const orNull = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

/** A column type as information_schema spells it, in lower case with single spaces. */
function mysqlColumnType(columnType: string): string {
  return columnType.trim().replace(/\s+/g, ' ').toLowerCase();
}

function kindOf(tableType: unknown): string {
  const type = str(tableType).toUpperCase();
  if (type.includes('VIEW')) return 'view';
  if (type === 'SEQUENCE') return 'sequence';
  return 'table';
}

/** The description of a table: its comment (a view's comment is always "VIEW", so none). */
function descriptionOf(tableType: unknown, comment: unknown): string | null {
  return kindOf(tableType) === 'view' ? null : orNull(comment);
}

/** list_tables and describe_table on MySQL and MariaDB. */
export const MYSQL_CATALOG: SqlCatalog = {
  async listTables(read: CatalogRead, schema: string): Promise<TableInfo[]> {
    const { rows } = await read(LIST_SQL, [schema]);
    return rows.map(([name, type, comment]) => ({
      name: str(name),
      kind: kindOf(type),
      description: descriptionOf(type, comment),
    }));
  },
  async describeTable(read, schema, table): Promise<TableSchema | undefined> {
    const [found] = (await read(TABLE_SQL, [schema, table])).rows;
    if (found === undefined) return undefined;
    const [name, type, comment] = found;
    const columns = (await read(COLUMNS_SQL, [schema, table])).rows.map(
      ([column, columnType, nullable, defaultValue, columnComment]) => ({
        name: str(column),
        type: mysqlColumnType(str(columnType)),
        nullable: nullable === 'YES',
        default: defaultValue === null || defaultValue === 'NULL' ? null : str(defaultValue),
        description: orNull(columnComment),
      }),
    );
    const keys = (await read(KEYS_SQL, [schema, table])).rows;
    const primaryKey = keys
      .filter(([constraint]) => constraint === 'PRIMARY')
      .map((k) => str(k[1]));
    const foreignKeys: TableSchema['foreignKeys'] = [];
    for (const [constraint, column, refSchema, refTable, refColumn] of keys) {
      if (constraint === 'PRIMARY') continue;
      let fk = foreignKeys.find((k) => k.name === constraint);
      if (fk === undefined) {
        fk = {
          name: str(constraint),
          columns: [],
          references: { schema: str(refSchema), table: str(refTable), columns: [] },
        };
        foreignKeys.push(fk);
      }
      fk.columns.push(str(column));
      fk.references.columns.push(str(refColumn));
    }
    return {
      name: str(name),
      kind: kindOf(type),
      description: descriptionOf(type, comment),
      columns,
      primaryKey,
      foreignKeys,
    };
  },
};
