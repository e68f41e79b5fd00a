import { describe, expect, it } from 'vitest';
import { SHOP_SIZES, createRandom, shopStatements, sqlString } from '../dataset.js';
import {
  describeFailure,
  formatTable,
  formatTableSchema,
  normalizeValue,
  toTableSchema,
  type QueryResult,
} from '../logic.js';

describe('shop dataset', () => {
  it('is the same on every run and differs by seed', () => {
    expect(shopStatements()).toEqual(shopStatements());
    expect(shopStatements(1)).not.toEqual(shopStatements(2));
    const random = createRandom(7);
    const first = [random(), random()];
    const again = createRandom(7);
    expect([again(), again()]).toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('creates the four tables and a view, and fills them', () => {
    const [schema, ...inserts] = shopStatements();
    for (const table of ['customers', 'products', 'orders', 'order_lines']) {
      expect(schema).toContain(`CREATE TABLE ${table} (`);
    }
    expect(schema).toContain('CREATE VIEW order_totals');
    const rows = (table: string) =>
      inserts
        .filter((s) => s.startsWith(`INSERT INTO ${table} `))
        .reduce((n, s) => n + s.split('\n').length - 1, 0);
    expect(rows('customers')).toBe(SHOP_SIZES.customers);
    expect(rows('products')).toBe(SHOP_SIZES.products);
    expect(rows('orders')).toBe(SHOP_SIZES.orders);
    expect(rows('order_lines')).toBeGreaterThan(SHOP_SIZES.orders);
  });

  it('quotes string literals', () => {
    expect(sqlString("it's")).toBe("'it''s'");
  });
});

describe('normalizeValue', () => {
  it('keeps exact int8 values as numbers and the rest as text', () => {
    expect(normalizeValue('42', 20)).toBe(42);
    expect(normalizeValue('9007199254740993', 20)).toBe('9007199254740993');
    expect(normalizeValue('12.50', 1700)).toBe('12.50');
    expect(normalizeValue(null, 25)).toBeNull();
    expect(normalizeValue(undefined, 25)).toBeNull();
  });

  it('turns driver objects into JSON', () => {
    expect(normalizeValue(new Date('2024-01-02T03:04:05Z'), 1184)).toBe('2024-01-02T03:04:05.000Z');
    expect(normalizeValue(new Uint8Array([1, 255]), 17)).toBe('\\x01ff');
    expect(normalizeValue(10n, 20)).toBe(10);
    expect(normalizeValue(2n ** 64n, 20)).toBe('18446744073709551616');
    expect(normalizeValue({ a: [1, new Date(0)] }, 3802)).toEqual({
      a: [1, '1970-01-01T00:00:00.000Z'],
    });
    expect(normalizeValue(Number.NaN, 701)).toBe('NaN');
  });
});

describe('formatTable', () => {
  const result: QueryResult = {
    columns: [
      { name: 'id', type: 'integer' },
      { name: 'name', type: 'text' },
      { name: 'note', type: 'text' },
    ],
    rows: [
      [1, 'Ada', null],
      [10, 'Grace', 'line1\nline2'],
    ],
    rowCount: 2,
    truncated: false,
  };

  it('aligns columns, right-aligns numbers and spells NULL', () => {
    expect(formatTable(result, 100)).toBe(
      [
        'id | name  | note',
        '---+-------+-------------',
        ' 1 | Ada   | NULL',
        '10 | Grace | line1\\nline2',
        '(2 rows)',
      ].join('\n'),
    );
  });

  it('says when rows were cut', () => {
    const text = formatTable({ ...result, truncated: true }, 2);
    expect(text).toMatch(/\(2 rows\)\nTruncated: the query returned more than 2 rows/);
  });

  it('cuts long cells in the text only', () => {
    const long = 'x'.repeat(200);
    const text = formatTable({ ...result, rows: [[1, long, null]], rowCount: 1 }, 100);
    expect(text).toContain(`${'x'.repeat(59)}…`);
    expect(text).toContain('(1 row)');
  });

  it('explains a statement without a result set', () => {
    const text = formatTable(
      { columns: [], rows: [], rowCount: 0, truncated: false, command: 'COMMIT' },
      100,
    );
    expect(text).toMatch(/no result set \(COMMIT\).*read-only transaction, which is rolled back/);
  });
});

describe('describeFailure', () => {
  it('keeps the database message and adds what to do', () => {
    const readOnly = describeFailure(
      { message: 'cannot execute INSERT in a read-only transaction', code: '25006' },
      { timeoutMs: 5000 },
    );
    expect(readOnly).toMatch(
      /^cannot execute INSERT in a read-only transaction \(SQLSTATE 25006\)\n/,
    );
    expect(readOnly).toMatch(/only reads are allowed/);
    const timeout = describeFailure(
      { message: 'canceling statement due to statement timeout', code: '57014' },
      { timeoutMs: 250 },
    );
    expect(timeout).toMatch(/longer than 250 ms/);
    const missing = describeFailure(
      { message: 'relation "x" does not exist', code: '42P01', hint: 'Check it.' },
      { timeoutMs: 1 },
    );
    expect(missing).toBe(
      'relation "x" does not exist (SQLSTATE 42P01)\nHINT: Check it.\nCall list_tables to see the tables.',
    );
    expect(describeFailure({ message: 'socket hang up' }, { timeoutMs: 1 })).toBe(
      'database error: socket hang up',
    );
  });
});

describe('table schemas', () => {
  it('normalizes and formats a described table', () => {
    const table = toTableSchema({
      name: 'order_lines',
      kind: 'table',
      description: 'Lines.',
      columns: [
        { name: 'order_id', type: 'integer', nullable: false, default: null, description: null },
        { name: 'line_no', type: 'integer', nullable: false, default: null, description: null },
        {
          name: 'note',
          type: 'text',
          nullable: true,
          default: "''::text",
          description: 'Free text.',
        },
      ],
      primaryKey: ['order_id', 'line_no'],
      foreignKeys: [
        {
          name: 'fk',
          columns: ['order_id'],
          references: { schema: 'public', table: 'orders', columns: ['id'] },
        },
      ],
    });
    expect(formatTableSchema(table, 'public')).toBe(
      [
        'table public.order_lines: Lines.',
        '- order_id integer NOT NULL PRIMARY KEY',
        '- line_no integer NOT NULL PRIMARY KEY',
        "- note text NULL DEFAULT ''::text -- Free text.",
        'Primary key: (order_id, line_no)',
        'Foreign key (order_id) references orders (id)',
      ].join('\n'),
    );
    expect(
      toTableSchema({
        name: 'v',
        kind: 'view',
        description: null,
        columns: null,
        primaryKey: null,
        foreignKeys: null,
      }),
    ).toMatchObject({
      columns: [],
      primaryKey: [],
      foreignKeys: [],
    });
  });
});
