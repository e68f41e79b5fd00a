// MySQL and MariaDB types in the words PostgreSQL's answers use, so both databases answer alike:
// a result column's type from its field packet, a cell as JSON (exact integers as numbers,
// tinyint(1) as booleans, bytes as `\x…` hex), and an information_schema column type.
import type { FieldPacket } from 'mysql2';
import type { JsonValue } from './logic.js';

// mysql2's column type codes (MySQL protocol).
const T = {
  DECIMAL: 0,
  TINY: 1,
  SHORT: 2,
  LONG: 3,
  FLOAT: 4,
  DOUBLE: 5,
  NULL: 6,
  TIMESTAMP: 7,
  LONGLONG: 8,
  INT24: 9,
  DATE: 10,
  TIME: 11,
  DATETIME: 12,
  YEAR: 13,
  VARCHAR: 15,
  BIT: 16,
  JSON: 245,
  NEWDECIMAL: 246,
  ENUM: 247,
  SET: 248,
  TINY_BLOB: 249,
  MEDIUM_BLOB: 250,
  LONG_BLOB: 251,
  BLOB: 252,
  VAR_STRING: 253,
  STRING: 254,
  GEOMETRY: 255,
} as const;
const UNSIGNED_FLAG = 32;
const BINARY_CHARSET = 63;

/** A result column's type, in the words PostgreSQL's results use (logic.ts). */
export function resultTypeName(field: FieldPacket): string {
  const type = field.columnType ?? field.type ?? -1;
  const unsigned = ((field.flags as number | undefined) ?? 0) & UNSIGNED_FLAG;
  const binary = field.characterSet === BINARY_CHARSET;
  switch (type) {
    case T.TINY:
      return field.columnLength === 1 && unsigned === 0 ? 'boolean' : 'smallint';
    case T.SHORT:
      return unsigned === 0 ? 'smallint' : 'integer';
    case T.LONG:
    case T.INT24:
      return unsigned === 0 || type === T.INT24 ? 'integer' : 'bigint';
    case T.LONGLONG:
      return unsigned === 0 ? 'bigint' : 'numeric';
    case T.DECIMAL:
    case T.NEWDECIMAL:
      return 'numeric';
    case T.FLOAT:
      return 'real';
    case T.DOUBLE:
      return 'double precision';
    case T.DATE:
      return 'date';
    case T.TIME:
      return 'time without time zone';
    case T.DATETIME:
      return 'timestamp without time zone';
    case T.TIMESTAMP:
      return 'timestamp with time zone';
    case T.YEAR:
      return 'smallint';
    case T.JSON:
      return 'json';
    case T.BIT:
      return 'bit';
    case T.NULL:
      return 'text';
    case T.GEOMETRY:
      return 'geometry';
    case T.ENUM:
    case T.SET:
      return 'text';
    case T.STRING:
      return binary ? 'bytea' : 'character';
    case T.VARCHAR:
    case T.VAR_STRING:
      return binary ? 'bytea' : 'character varying';
    case T.TINY_BLOB:
    case T.MEDIUM_BLOB:
    case T.LONG_BLOB:
    case T.BLOB:
      return binary ? 'bytea' : 'text';
    default:
      return `mysql type ${String(type)}`;
  }
}

/** A cell as JSON: exact integers as numbers, tinyint(1) 0/1 as booleans, bytes as `\x…` hex. */
export function cellOf(value: unknown, field: FieldPacket | undefined): JsonValue {
  if (value === null || value === undefined) return null;
  const type = field === undefined ? 'text' : resultTypeName(field);
  if (type === 'boolean' && (value === 0 || value === 1)) return value === 1;
  if (typeof value === 'string' && (type === 'bigint' || type === 'numeric')) {
    if (/^-?\d+$/.test(value) && Number.isSafeInteger(Number(value))) return Number(value);
    return value;
  }
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') {
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  }
  if (Buffer.isBuffer(value)) {
    if (type === 'bit') return value.reduce((n, byte) => n * 256 + byte, 0);
    return `\\x${value.toString('hex')}`;
  }
  if (value instanceof Date) return value.toISOString();
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}
