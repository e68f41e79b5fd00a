// The tests every sql backend must pass, run by pglite.test.ts and postgres.test.ts against
// their own server: read-only enforcement by the database (each refusal the brief lists), limits,
// and the MCP tools and resources in both eras with every server frame validated.
import { afterEach, describe, expect, it } from 'vitest';
import { MODERN, connectWire, type Wire } from '../../../test/helpers/wire.js';
import { SqlError } from '../adapter.js';
import type { QueryOptions } from '../adapter.js';
import { SHOP_SIZES } from '../dataset.js';
import type { SqlParam } from '../logic.js';
import { formatTable } from '../logic.js';
import type { SqlServer } from '../server.js';

/** Defines the shared tests; `get` returns the server under test (created in a beforeAll). */
export function sqlSuite(get: () => SqlServer): void {
  const run = (sql: string, params: SqlParam[] = [], options: Partial<QueryOptions> = {}) =>
    get().adapter.query(sql, params, { readOnly: true, timeoutMs: 5000, maxRows: 100, ...options });
  const refused = async (sql: string, params: SqlParam[] = []) => {
    const error = await run(sql, params).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, sql).toBeInstanceOf(SqlError);
    return error as SqlError;
  };
  const orderCount = async () => (await run('SELECT count(*) FROM orders')).rows[0]![0];

  describe('reads', () => {
    it('runs a query with bound parameters of every kind', async () => {
      const result = await run(
        'SELECT $1::text AS t, $2::int AS i, $3::numeric AS n, $4::boolean AS b, $5::text IS NULL AS z',
        ['x', 7, 1.5, true, null],
      );
      expect(result.columns).toEqual([
        { name: 't', type: 'text' },
        { name: 'i', type: 'integer' },
        { name: 'n', type: 'numeric' },
        { name: 'b', type: 'boolean' },
        { name: 'z', type: 'boolean' },
      ]);
      expect(result.rows).toEqual([['x', 7, '1.5', true, true]]);
    });

    it('holds the seeded shop', async () => {
      expect(await orderCount()).toBe(SHOP_SIZES.orders);
      const types = await run(
        "SELECT created_at, country FROM customers WHERE id = 1 UNION ALL SELECT '2024-02-03'::date, 'XX'",
      );
      expect(types.columns.map((c) => c.type)).toEqual(['date', 'character']);
      expect(types.rows[1]).toEqual(['2024-02-03', 'XX']);
    });

    it('cuts results at maxRows, fetching only one more row', async () => {
      // Hundreds of millions of rows: only a cursor that stops after 11 finishes within the
      // 5 s limit (reading them all would be cancelled by the statement timeout).
      const huge = 'SELECT a.order_id FROM order_lines a, order_lines b, order_lines c';
      const cut = await run(huge, [], { maxRows: 10 });
      expect(cut).toMatchObject({ rowCount: 10, truncated: true });
      expect(cut.rows).toHaveLength(10);
      const exact = await run('SELECT 1 UNION ALL SELECT 2', [], { maxRows: 2 });
      expect(exact).toMatchObject({ rowCount: 2, truncated: false });
    });

    it('cuts results at a byte budget while fetching, and long cells with a note', async () => {
      // About 1 KB a row: the default 256 KiB budget holds a quarter of 1 000 rows.
      const wide = "SELECT repeat('y', 1000) AS y FROM generate_series(1, 100000)";
      const cut = await run(wide, [], { maxRows: 1000 });
      expect(cut).toMatchObject({ truncated: true, truncatedBy: 'bytes' });
      expect(cut.rowCount).toBeGreaterThan(200);
      expect(cut.rowCount).toBeLessThan(300);
      const cell = await run("SELECT repeat('x', 1000000) AS x, 'short' AS s", [], { maxRows: 1 });
      expect(cell).toMatchObject({ rowCount: 1, truncated: false, cutCells: 1 });
      const [long, short] = cell.rows[0] as string[];
      expect(long).toMatch(/^x{32768}… \[cut: 967232 more characters\]$/);
      expect(short).toBe('short');
      expect(formatTable(cell, 1)).toMatch(/1 cell was too long and cut/);
    });

    it('runs statements that cannot back a cursor (SHOW, EXPLAIN)', async () => {
      const show = await run('SHOW search_path');
      expect(show.rows).toEqual([[get().adapter.schema]]);
      const explain = await run('EXPLAIN SELECT * FROM orders WHERE id = $1', [1]);
      expect(explain.rows.length).toBeGreaterThan(0);
    });

    it('serves concurrent queries, each in its own transaction', async () => {
      const results = await Promise.all(
        [1, 2, 3, 4, 5].map((id) => run('SELECT id FROM customers WHERE id = $1', [id])),
      );
      expect(results.map((r) => r.rows[0]![0])).toEqual([1, 2, 3, 4, 5]);
    });
  });

  describe('read-only refusals (enforced by the database)', () => {
    it('refuses writes and DDL with the database message', async () => {
      const cases: [string, RegExp][] = [
        [
          "INSERT INTO customers VALUES (999, 'x', 'x@x', 'XX', '2024-01-01')",
          /cannot execute INSERT in a read-only transaction/,
        ],
        ['UPDATE products SET price = 0', /cannot execute UPDATE in a read-only transaction/],
        ['DELETE FROM order_lines', /cannot execute DELETE in a read-only transaction/],
        ['CREATE TABLE evil (x int)', /cannot execute CREATE TABLE in a read-only transaction/],
        ['DROP TABLE order_lines', /cannot execute DROP TABLE in a read-only transaction/],
        ['TRUNCATE orders', /cannot execute TRUNCATE TABLE in a read-only transaction/],
        [
          'WITH gone AS (DELETE FROM order_lines RETURNING *) SELECT count(*) FROM gone',
          /cannot execute (DELETE|SELECT) in a read-only transaction/,
        ],
      ];
      for (const [sql, message] of cases) {
        const error = await refused(sql);
        expect(error.message, sql).toMatch(message);
      }
      expect((await refused('UPDATE products SET price = 0')).code).toBe('25006');
      expect(await orderCount()).toBe(SHOP_SIZES.orders);
    });

    it('refuses more than one statement (extended protocol)', async () => {
      for (const sql of ['SELECT 1; SELECT 2', 'COMMIT; DELETE FROM order_lines']) {
        const error = await refused(sql);
        expect(error.message).toBe('cannot insert multiple commands into a prepared statement');
      }
      expect(await orderCount()).toBe(SHOP_SIZES.orders);
    });

    it('makes a lone COMMIT, ROLLBACK, BEGIN or END harmless', async () => {
      for (const sql of ['COMMIT', 'ROLLBACK', 'BEGIN', 'END', 'COMMIT AND CHAIN']) {
        const result = await run(sql);
        expect(result.columns, sql).toEqual([]);
        // The next statement runs in a fresh read-only transaction all the same.
        await refused('DELETE FROM order_lines');
      }
      expect(await orderCount()).toBe(SHOP_SIZES.orders);
    });

    it('refuses to start a read-write transaction inside its own', async () => {
      const error = await refused('START TRANSACTION READ WRITE');
      expect(error.message).toMatch(/read-write mode inside a read-only transaction/);
      await refused('DELETE FROM order_lines');
    });

    it('refuses SET TRANSACTION READ WRITE', async () => {
      const error = await refused('SET TRANSACTION READ WRITE');
      expect(error.code).toBe('25001');
      expect(error.message).toMatch(/read-write mode/);
      const viaFunction = await refused("SELECT set_config('transaction_read_only', 'off', false)");
      expect(viaFunction.code).toBe('25001');
    });

    it('lets no session setting outlive its query', async () => {
      await run('SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE');
      await run('SET default_transaction_read_only = off');
      await run("SET statement_timeout = '1h'");
      await refused('DELETE FROM order_lines');
      const [[readOnly, timeout]] = (
        await run(
          "SELECT current_setting('transaction_read_only'), current_setting('statement_timeout')",
        )
      ).rows as [[string, string]];
      expect(readOnly).toBe('on');
      expect(timeout).toBe('5s');
    });

    it('cancels a query that runs too long (statement timeout), then serves again', async () => {
      const error = await run('SELECT pg_sleep(30)', [], { timeoutMs: 150 }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SqlError);
      expect((error as SqlError).message).toMatch(/canceling statement due to statement timeout/);
      expect((error as SqlError).code).toBe('57014');
      expect(await orderCount()).toBe(SHOP_SIZES.orders);
    });

    it('cancels a query when its signal aborts', async () => {
      const controller = new AbortController();
      const pending = run('SELECT pg_sleep(30)', [], { signal: controller.signal });
      setTimeout(() => {
        controller.abort();
      }, 50);
      const error = await pending.catch((e: unknown) => e);
      expect((error as SqlError).message).toMatch(/canceling statement due to user request/);
      expect(await orderCount()).toBe(SHOP_SIZES.orders);
    });
  });

  describe('over MCP', () => {
    const wires: Wire[] = [];
    afterEach(async () => {
      await Promise.all(wires.splice(0).map((w) => w.close()));
    });

    for (const era of ['2025-11-25', '2024-11-05', MODERN] as const) {
      it(`lists, describes and queries (${era})`, async () => {
        const w = await connectWire(get().server);
        wires.push(w);
        if (era !== MODERN) await w.initialize(era);
        const send = (method: string, params: Record<string, unknown> = {}): Promise<any> =>
          era === MODERN ? w.modern(method, params) : w.request(method, params);
        const call = (name: string, args: Record<string, unknown> = {}) =>
          send('tools/call', { name, arguments: args });

        const { tools } = await send('tools/list');
        expect(tools.map((t: { name: string }) => t.name)).toEqual([
          'list_tables',
          'describe_table',
          'query',
        ]);

        const listed = await call('list_tables');
        expect(listed.structuredContent.tables.map((t: { name: string }) => t.name)).toEqual([
          'customers',
          'order_lines',
          'order_totals',
          'orders',
          'products',
        ]);
        expect(listed.content[0].text).toMatch(
          /- order_totals \(view\): The total of each order\./,
        );

        const described = await call('describe_table', { table: 'order_lines' });
        expect(described.structuredContent).toMatchObject({
          name: 'order_lines',
          primaryKey: ['order_id', 'line_no'],
          foreignKeys: [
            { columns: ['order_id'], references: { table: 'orders', columns: ['id'] } },
            { columns: ['product_id'], references: { table: 'products', columns: ['id'] } },
          ],
        });
        expect(described.structuredContent.columns[4]).toEqual({
          name: 'unit_price',
          type: 'numeric(10,2)',
          nullable: false,
          default: null,
          description: null,
        });
        expect(described.content[0].text).toMatch(
          /Foreign key \(order_id\) references orders \(id\)/,
        );
        const missing = await call('describe_table', { table: 'nope' });
        expect(missing.isError).toBe(true);
        expect(missing.content[0].text).toMatch(/no table or view "nope"/);

        const queried = await call('query', {
          sql: 'SELECT id, name FROM customers WHERE id <= $1 ORDER BY id',
          params: [3],
        });
        expect(queried.isError).toBeUndefined();
        expect(queried.structuredContent).toMatchObject({
          columns: [
            { name: 'id', type: 'integer' },
            { name: 'name', type: 'text' },
          ],
          rowCount: 3,
          truncated: false,
        });
        expect(queried.content[0].text).toMatch(/^id \| name\n---\+-+\n 1 \| /);
        expect(queried.content[0].text).toMatch(/\(3 rows\)$/);

        const cut = await call('query', { sql: 'SELECT id FROM orders ORDER BY id', maxRows: 5 });
        expect(cut.structuredContent).toMatchObject({ rowCount: 5, truncated: true });
        expect(cut.content[0].text).toMatch(/Truncated: the query returned more than 5 rows/);

        const write = await call('query', { sql: 'DELETE FROM orders WHERE id = $1', params: [1] });
        expect(write.isError).toBe(true);
        expect(write.content[0].text).toMatch(
          /^cannot execute DELETE in a read-only transaction \(SQLSTATE 25006\)/,
        );
        const bad = await call('query', { sql: 'SELEC 1' });
        expect(bad.isError).toBe(true);
        expect(bad.content[0].text).toMatch(/syntax error/);
        const badArgs = await call('query', { sql: 'SELECT 1', maxRows: 5000 });
        expect(badArgs.isError).toBe(true);
        w.assertServerFramesValid(era);
      });

      it(`serves table schemas as resources, with completion (${era})`, async () => {
        const w = await connectWire(get().server);
        wires.push(w);
        if (era !== MODERN) await w.initialize(era);
        const send = (method: string, params: Record<string, unknown> = {}): Promise<any> =>
          era === MODERN ? w.modern(method, params) : w.request(method, params);
        const { resources } = await send('resources/list');
        expect(resources.map((r: { uri: string }) => r.uri)).toContain(
          'sql://tables/orders/schema',
        );
        const read = await send('resources/read', { uri: 'sql://tables/orders/schema' });
        expect(read.contents[0].mimeType).toBe('application/json');
        expect(JSON.parse(read.contents[0].text)).toMatchObject({
          name: 'orders',
          foreignKeys: [{ columns: ['customer_id'], references: { table: 'customers' } }],
        });
        await expect(
          send('resources/read', { uri: 'sql://tables/nope/schema' }),
        ).rejects.toMatchObject({ code: era === MODERN ? -32602 : -32002 });
        const completion = await send('completion/complete', {
          ref: { type: 'ref/resource', uri: 'sql://tables/{name}/schema' },
          argument: { name: 'name', value: 'order' },
        });
        expect(completion.completion.values).toEqual(['order_lines', 'order_totals', 'orders']);
        w.assertServerFramesValid(era);
      });
    }
  });
}
