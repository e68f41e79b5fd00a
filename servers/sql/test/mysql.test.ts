// The sql server on a real MySQL or MariaDB (MCPKIT_TEST_MYSQL_URL, a login that may create
// databases and users, e.g. root): a database of its own (mcpkit_test_<random>) seeded with the
// shop, served on a read-only login (SELECT, SHOW VIEW), and on a login that may write, allowed
// with allowPrivilegedLogin, to show that the read-only transaction itself refuses every write.
// The same refusals, limits and MCP tools as the PostgreSQL suite (suite.ts), in MySQL's dialect.
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MODERN, connectWire, type Wire } from '../../../test/helpers/wire.js';
import type { QueryOptions } from '../adapter.js';
import { SqlError } from '../adapter.js';
import { SHOP_SIZES, mysqlShopStatements } from '../dataset.js';
import type { SqlParam } from '../logic.js';
import { describeFailure, formatTable } from '../logic.js';
import { parseGrant, privilegesBeyondReading } from '../mysql-privileges.js';
import type { SqlServer } from '../server.js';
import { createSqlServer } from '../server.js';
import { freezingProxy } from './proxy.js';

const url = process.env['MCPKIT_TEST_MYSQL_URL'];
if (url === undefined) {
  console.log(
    'servers/sql: MySQL tests skipped: set MCPKIT_TEST_MYSQL_URL (e.g. mysql://root@127.0.0.1:3306/test)',
  );
}

const suffix = randomBytes(4).toString('hex');
const database = `mcpkit_test_${suffix}`;
const reader = `mcpkit_ro_${suffix}`;
const writer = `mcpkit_rw_${suffix}`;
const filer = `mcpkit_file_${suffix}`;
const role = `mcpkit_role_${suffix}`;
const nester = `mcpkit_nest_${suffix}`;
const outer = `mcpkit_outer_${suffix}`;
const inner = `mcpkit_inner_${suffix}`;
const everywhere = `mcpkit_all_${suffix}`;

/** `url` with `user` as its login (no password) and `db` as its database. */
function loginUrl(user: string, db = database): string {
  const u = new URL(url!);
  u.username = user;
  u.password = '';
  u.pathname = `/${db}`;
  return u.toString();
}

let admin: mysql.Connection | undefined;
let ro: SqlServer | undefined;
let rw: SqlServer | undefined;
const warnings: string[] = [];

const options = (extra: Partial<QueryOptions> = {}): QueryOptions => ({
  readOnly: true,
  timeoutMs: 5000,
  maxRows: 100,
  ...extra,
});
const runOn =
  (get: () => SqlServer | undefined) =>
  (sql: string, params: SqlParam[] = [], extra: Partial<QueryOptions> = {}) =>
    get()!.adapter.query(sql, params, options(extra));
const run = runOn(() => ro);
const write = runOn(() => rw);
const refusedBy = async (
  exec: typeof run,
  sql: string,
  params: SqlParam[] = [],
): Promise<SqlError> => {
  const error = await exec(sql, params).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, sql).toBeInstanceOf(SqlError);
  return error as SqlError;
};
const orderCount = async () => (await run('SELECT count(*) FROM orders')).rows[0]![0];
const READ_ONLY = /^Cannot execute statement in a READ ONLY transaction$/;

describe('MySQL privileges', () => {
  it('reads SHOW GRANTS lines, roles and the privileges beyond reading', () => {
    const lines = [
      'GRANT USAGE ON *.* TO `app`@`%`',
      'GRANT SELECT, SHOW VIEW ON `shop`.* TO `app`@`%`',
      'GRANT SELECT (id, name), INSERT ON `shop`.`t` TO `app`@`%`',
      'GRANT FILE ON *.* TO `app`@`%` WITH GRANT OPTION',
      'GRANT `reporting` TO `app`@`%`',
      'SET DEFAULT ROLE `reporting` FOR `app`@`%`',
    ].map(parseGrant);
    expect(lines[4]).toEqual({ kind: 'role', role: '`reporting`', to: '`app`@`%`' });
    expect(lines[5]).toBeUndefined();
    expect(privilegesBeyondReading(lines.filter((l) => l !== undefined))).toEqual([
      'holds INSERT on `shop`.`t`',
      'holds FILE, GRANT OPTION on *.*',
    ]);
  });

  it('finds grants that read the system schemas, LIKE wildcards of database grants included', () => {
    const found = (on: string) =>
      privilegesBeyondReading([parseGrant(`GRANT SELECT, SHOW VIEW ON ${on} TO \`a\`@\`%\``)!]);
    const reads = (schemas: string) => [
      expect.stringMatching(new RegExp(`^holds SELECT on .*, which reads the system ${schemas} `)),
    ];
    expect(found('*.*')).toEqual(reads('schemas mysql, performance_schema, sys'));
    expect(found('`mysql`.*')).toEqual(reads('schema mysql'));
    expect(found('`mysql`.`global_priv`')).toEqual(reads('schema mysql'));
    expect(found('`m%`.*')).toEqual(reads('schema mysql'));
    expect(found('`my_ql`.*')).toEqual(reads('schema mysql'));
    expect(found('`performance\\_schema`.*')).toEqual(reads('schema performance_schema'));
    expect(found('`%`.*')).toEqual(reads('schemas mysql, performance_schema, sys'));
    for (const on of ['`shop`.*', '`shop`.`t`', '`mysql_app`.*', '`my\\_ql`.*', '`my_ql`.`user`'])
      expect(found(on), on).toEqual([]);
    expect(
      privilegesBeyondReading([parseGrant('GRANT SHOW VIEW, SHOW DATABASES ON *.* TO `a`@`%`')!]),
    ).toEqual([]);
  });
});

/** A TCP proxy to a MySQL (or to nothing); `freeze()` cuts every connection and answers no new one. */
const proxy = (target: URL | undefined) => freezingProxy(target, 3306);

describe('sql gateway on a MySQL that does not answer', () => {
  it('fails to start within connectTimeoutMs, naming the address', async () => {
    const silent = await proxy(undefined);
    try {
      await expect(
        createSqlServer({
          databaseUrl: `mysql://reader@127.0.0.1:${String(silent.port)}/shop`,
          connectTimeoutMs: 300,
        }),
      ).rejects.toMatchObject({
        code: '08001',
        message: `MySQL at 127.0.0.1:${String(silent.port)} did not answer within 300 ms`,
      });
    } finally {
      await silent.close();
    }
  });

  it('refuses a URL without a database', async () => {
    await expect(createSqlServer({ databaseUrl: 'mysql://reader@127.0.0.1:1' })).rejects.toThrow(
      /names its database/,
    );
  });
});

(url === undefined ? describe.skip : describe)('sql server on MySQL/MariaDB', () => {
  beforeAll(async () => {
    admin = await mysql.createConnection(url!);
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.query(`USE ${database}`);
    for (const statement of mysqlShopStatements()) await admin.query(statement);
    await admin.query(`CREATE USER '${reader}'@'%'`);
    await admin.query(`GRANT SELECT, SHOW VIEW ON ${database}.* TO '${reader}'@'%'`);
    await admin.query(`CREATE USER '${writer}'@'%'`);
    await admin.query(
      `GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, ALTER, CREATE TEMPORARY TABLES ON ${database}.* TO '${writer}'@'%'`,
    );
    ro = await createSqlServer({ databaseUrl: loginUrl(reader) });
    rw = await createSqlServer({
      databaseUrl: loginUrl(writer).replace(/^mysql:/, 'mariadb:'),
      allowPrivilegedLogin: true,
      onWarning: (message) => warnings.push(message),
    });
  }, 60_000);

  afterAll(async () => {
    await ro?.close();
    await rw?.close();
    await admin?.query(`DROP DATABASE IF EXISTS ${database}`);
    for (const user of [reader, writer, filer, nester, everywhere]) {
      await admin?.query(`DROP USER IF EXISTS '${user}'@'%'`);
    }
    for (const name of [role, outer, inner]) {
      await admin?.query(`DROP ROLE IF EXISTS ${name}`).catch(() => undefined);
    }
    await admin?.end();
  });

  it('is MySQL on its own database, the writer allowed with a warning', () => {
    expect(ro!.adapter).toMatchObject({ kind: 'mysql', schema: database });
    expect(rw!.adapter).toMatchObject({ kind: 'mysql', schema: database });
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `privileged login.*the login '${writer}'@'%' holds .*INSERT.* on \`${database}\``,
        ),
      ),
    ]);
  });

  describe('reads', () => {
    it('runs a query with bound parameters of every kind', async () => {
      const result = await run(
        'SELECT ? AS t, CAST(? AS SIGNED) AS i, CAST(? AS DECIMAL(4,2)) AS n, ? AS b, ? IS NULL AS z',
        ['x', 7, 1.5, true, null],
      );
      expect(result.columns.map((c) => c.name)).toEqual(['t', 'i', 'n', 'b', 'z']);
      expect(result.columns.slice(0, 3).map((c) => c.type)).toEqual([
        'character varying',
        'bigint',
        'numeric',
      ]);
      expect(result.rows).toEqual([['x', 7, '1.50', 1, 1]]);
    });

    it('holds the seeded shop, with types in PostgreSQL words', async () => {
      expect(await orderCount()).toBe(SHOP_SIZES.orders);
      const types = await run(
        'SELECT created_at, country, in_stock, price, ordered_at FROM customers, products, orders WHERE customers.id = 1 AND products.id = 1 AND orders.id = 1',
      );
      expect(types.columns.map((c) => c.type)).toEqual([
        'date',
        'character',
        'boolean',
        'numeric',
        'timestamp without time zone',
      ]);
      const [created, country, inStock, price, ordered] = types.rows[0]!;
      expect(created).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(country).toMatch(/^[A-Z]{2}$/);
      expect(typeof inStock).toBe('boolean');
      expect(price).toMatch(/^\d+\.\d{2}$/);
      expect(ordered).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:00$/);
      const bytes = await run("SELECT x'00ff' AS b, 9007199254740993 AS big, 42 AS small");
      expect(bytes.rows).toEqual([['\\x00ff', '9007199254740993', 42]]);
    });

    it('cuts results at maxRows, the server sending only one more row', async () => {
      // Millions of rows: only a limit the server applies (sql_select_limit) finishes at once.
      const huge = 'SELECT a.order_id FROM order_lines a, order_lines b, order_lines c';
      const cut = await run(huge, [], { maxRows: 10 });
      expect(cut).toMatchObject({ rowCount: 10, truncated: true, truncatedBy: 'rows' });
      // A LIMIT of its own overrides sql_select_limit: the rows past the limit are dropped,
      // then the connection given up, and the next query is served all the same.
      const limited = await run(`${huge} LIMIT 100000000`, [], { maxRows: 10 });
      expect(limited).toMatchObject({ rowCount: 10, truncated: true });
      const exact = await run('SELECT 1 UNION ALL SELECT 2', [], { maxRows: 2 });
      expect(exact).toMatchObject({ rowCount: 2, truncated: false });
      expect(await orderCount()).toBe(SHOP_SIZES.orders);
    });

    it('cuts results at a byte budget, and long cells with a note', async () => {
      const wide = "SELECT repeat('y', 1000) AS y FROM order_lines a, order_lines b";
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

    it('runs SHOW and EXPLAIN', async () => {
      const show = await run('SHOW TABLES');
      expect(show.rows.map((r) => r[0])).toContain('orders');
      const explain = await run('EXPLAIN SELECT * FROM orders WHERE id = ?', [1]);
      expect(explain.rows.length).toBeGreaterThan(0);
    });

    it('serves concurrent queries, each in its own transaction', async () => {
      const results = await Promise.all(
        [1, 2, 3, 4, 5].map((id) => run('SELECT id FROM customers WHERE id = ?', [id])),
      );
      expect(results.map((r) => r.rows[0]![0])).toEqual([1, 2, 3, 4, 5]);
    });
  });

  describe('read-only refusals (enforced by the database)', () => {
    it('refuses writes and DDL in the read-only transaction, on a login that may write', async () => {
      const cases = [
        "INSERT INTO customers VALUES (999, 'x', 'x@x', 'XX', '2024-01-01')",
        'UPDATE products SET price = 0',
        'DELETE FROM order_lines',
        'CREATE TABLE evil (x int)',
        'CREATE TEMPORARY TABLE evil (x int)',
        'DROP TABLE order_lines',
        'TRUNCATE orders',
        'ALTER TABLE orders ADD COLUMN evil int',
        'REPLACE INTO products SELECT * FROM products',
      ];
      for (const sql of cases) {
        const error = await refusedBy(write, sql);
        expect(error.message, sql).toMatch(READ_ONLY);
        expect(error.code, sql).toBe('25006');
      }
      const params = await refusedBy(write, 'DELETE FROM orders WHERE id = ?', [1]);
      expect(params.code).toBe('25006');
      expect(await orderCount()).toBe(SHOP_SIZES.orders);
    });

    it('refuses writes on the read-only login by its grants as well', async () => {
      const error = await refusedBy(run, 'DELETE FROM order_lines');
      expect(error.message).toMatch(/DELETE command denied/);
      const file = await refusedBy(run, "SELECT 1 INTO OUTFILE '/tmp/mcpkit-evil'");
      expect(file.message).toMatch(/Access denied/);
    });

    it('refuses more than one statement (multipleStatements off)', async () => {
      for (const sql of ['SELECT 1; SELECT 2', 'COMMIT; DELETE FROM order_lines']) {
        const error = await refusedBy(write, sql);
        expect(error.message).toMatch(/You have an error in your SQL syntax/);
        expect(error.hint).toMatch(/exactly one SQL statement/);
        expect(describeFailure(error, { timeoutMs: 5000 })).toMatch(/HINT: send exactly one/);
      }
      const prepared = await refusedBy(write, 'SELECT ?; DELETE FROM order_lines', [1]);
      expect(prepared.message).toMatch(/SQL syntax/);
      expect(await orderCount()).toBe(SHOP_SIZES.orders);
    });

    it('makes a lone COMMIT, ROLLBACK, BEGIN or START TRANSACTION harmless', async () => {
      for (const sql of [
        'COMMIT',
        'ROLLBACK',
        'BEGIN',
        'START TRANSACTION READ WRITE',
        'COMMIT AND CHAIN',
        'SET SESSION TRANSACTION READ WRITE',
      ]) {
        const result = await write(sql);
        expect(result.columns, sql).toEqual([]);
        // The next statement runs in a fresh read-only transaction all the same.
        expect((await refusedBy(write, 'DELETE FROM order_lines')).code).toBe('25006');
      }
      expect(await orderCount()).toBe(SHOP_SIZES.orders);
    });

    it('refuses SET TRANSACTION READ WRITE inside its transaction', async () => {
      const error = await refusedBy(write, 'SET TRANSACTION READ WRITE');
      expect(error.code).toBe('25001');
      expect(describeFailure(error, { timeoutMs: 5000 })).toMatch(/read-only transaction/);
    });

    it('lets no session setting outlive its query', async () => {
      for (const sql of [
        'SET SESSION tx_read_only = 0',
        'SET SESSION max_statement_time = 0',
        'SET SESSION sql_select_limit = DEFAULT',
        "SET @mcpkit = 'kept'",
      ]) {
        await write(sql);
      }
      expect((await refusedBy(write, 'DELETE FROM order_lines')).code).toBe('25006');
      const settings = await write(
        'SELECT @@tx_read_only, @@max_statement_time, @@sql_select_limit, @mcpkit',
        [],
        { maxRows: 7 },
      );
      expect(settings.rows).toEqual([[1, 5, 8, null]]);
      await expect(run('USE mysql')).rejects.toBeInstanceOf(SqlError);
      expect((await run('SELECT DATABASE()')).rows).toEqual([[database]]);
    });

    it('stops a query that runs too long (max_statement_time), then serves again', async () => {
      const error = await run('SELECT SLEEP(30)', [], { timeoutMs: 150 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SqlError);
      expect((error as SqlError).message).toMatch(/max_statement_time exceeded/);
      expect(describeFailure(error as SqlError, { timeoutMs: 150 })).toMatch(
        /ran longer than 150 ms/,
      );
      expect(await orderCount()).toBe(SHOP_SIZES.orders);
    });

    it('cancels a query when its signal aborts (KILL QUERY)', async () => {
      const controller = new AbortController();
      const pending = run('SELECT SLEEP(30)', [], { signal: controller.signal });
      setTimeout(() => {
        controller.abort();
      }, 100);
      const error = await pending.catch((e: unknown) => e);
      expect((error as SqlError).message).toMatch(/Query execution was interrupted/);
      expect(await orderCount()).toBe(SHOP_SIZES.orders);
    });
  });

  describe('the login check', () => {
    it('refuses the admin login, naming its privileges', async () => {
      await expect(
        createSqlServer({ databaseUrl: loginUrl(new URL(url!).username) }),
      ).rejects.toThrow(
        /refusing to serve: the login '[^']+'@'[^']+' holds .* on \*\.\*.*A read-only transaction does not stop/,
      );
    });

    it('refuses FILE, directly or through a role the login may SET ROLE to', async () => {
      await admin!.query(`CREATE USER '${filer}'@'%'`);
      await admin!.query(`GRANT FILE ON *.* TO '${filer}'@'%'`);
      await admin!.query(`GRANT SELECT ON ${database}.* TO '${filer}'@'%'`);
      await expect(createSqlServer({ databaseUrl: loginUrl(filer) })).rejects.toMatchObject({
        name: 'PrivilegedLoginError',
        message: expect.stringContaining(`the login '${filer}'@'%' holds FILE on *.*`),
      });
      const roles = await admin!.query(`CREATE ROLE ${role}`).then(
        () => true,
        () => false, // MySQL before 8 has no roles
      );
      if (!roles) return;
      await admin!.query(`GRANT FILE ON *.* TO ${role}`);
      await admin!.query(`REVOKE FILE ON *.* FROM '${filer}'@'%'`);
      await admin!.query(`GRANT ${role} TO '${filer}'@'%'`);
      await expect(createSqlServer({ databaseUrl: loginUrl(filer) })).rejects.toThrow(
        new RegExp(`the role \`?${role}\`? holds FILE on \\*\\.\\*`),
      );
    });
    it('checks a role granted to a role, naming the role that holds a privilege', async () => {
      const roles = await admin!.query(`CREATE ROLE ${outer}`).then(
        () => true,
        () => false, // MySQL before 8 has no roles
      );
      if (!roles) return;
      await admin!.query(`CREATE ROLE ${inner}`);
      await admin!.query(`GRANT SELECT ON ${database}.* TO ${inner}`);
      await admin!.query(`GRANT ${inner} TO ${outer}`);
      await admin!.query(`CREATE USER '${nester}'@'%'`);
      await admin!.query(`GRANT SELECT ON ${database}.* TO '${nester}'@'%'`);
      await admin!.query(`GRANT ${outer} TO '${nester}'@'%'`);
      // Both roles may only read: served, nothing reported as unchecked.
      const served = await createSqlServer({ databaseUrl: loginUrl(nester) });
      await served.close();
      await admin!.query(`GRANT FILE ON *.* TO ${inner}`);
      const error = await createSqlServer({ databaseUrl: loginUrl(nester) }).catch(
        (e: unknown) => e as Error,
      );
      expect((error as Error).message).toMatch(
        new RegExp(`the role \`?${inner}\`? holds FILE on \\*\\.\\*`),
      );
      expect((error as Error).message).not.toMatch(/could not be checked/);
    });

    it('refuses a login that may read the mysql schema (password hashes)', async () => {
      await admin!.query(`CREATE USER '${everywhere}'@'%'`);
      await admin!.query(`GRANT SELECT, SHOW VIEW ON *.* TO '${everywhere}'@'%'`);
      await expect(createSqlServer({ databaseUrl: loginUrl(everywhere) })).rejects.toMatchObject({
        name: 'PrivilegedLoginError',
        message: expect.stringMatching(
          new RegExp(
            `the login '${everywhere}'@'%' holds SELECT on \\*\\.\\*, which reads the system schemas mysql, performance_schema, sys .*password hashes`,
          ),
        ),
      });
      await admin!.query(`REVOKE SELECT, SHOW VIEW ON *.* FROM '${everywhere}'@'%'`);
      await admin!.query(`GRANT SELECT ON ${database}.* TO '${everywhere}'@'%'`);
      await admin!.query(`GRANT SELECT ON mysql.user TO '${everywhere}'@'%'`);
      await expect(createSqlServer({ databaseUrl: loginUrl(everywhere) })).rejects.toThrow(
        /holds SELECT on `mysql`\.`user`, which reads the system schema mysql/,
      );
    });
  });

  it('answers within the limit when the database stops answering', async () => {
    const front = await proxy(new URL(url!));
    const errors: unknown[] = [];
    const hung = await createSqlServer({
      databaseUrl: loginUrl(reader).replace(/:\d+\//, `:${String(front.port)}/`),
      connectTimeoutMs: 60_000,
      server: { onError: (error) => errors.push(error) },
    });
    try {
      const ok = await hung.adapter.query('SELECT 1', [], options());
      expect(ok.rows).toEqual([[1]]);
      front.freeze();
      const error = await hung.adapter
        .query('SELECT 1', [], options({ timeoutMs: 300 }))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SqlError);
      expect((error as SqlError).message).toMatch(
        /no database connection within the 300 ms limit|Connection lost|closed state/,
      );
    } finally {
      await hung.close();
      await front.close();
    }
  });

  describe('over MCP', () => {
    const wires: Wire[] = [];
    afterEach(async () => {
      await Promise.all(wires.splice(0).map((w) => w.close()));
    });

    for (const era of ['2025-11-25', MODERN] as const) {
      it(`lists, describes and queries (${era})`, async () => {
        const w = await connectWire(ro!.server);
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
        const queryTool = tools.find((t: { name: string }) => t.name === 'query');
        expect(queryTool.description).toMatch(/MySQL\/MariaDB dialect.*params for \?/);

        const listed = await call('list_tables');
        expect(listed.structuredContent).toEqual({
          schema: database,
          tables: [
            {
              name: 'customers',
              kind: 'table',
              description: 'People who have an account in the shop.',
            },
            {
              name: 'order_lines',
              kind: 'table',
              description: 'The products of each order, at the price paid.',
            },
            { name: 'order_totals', kind: 'view', description: null },
            {
              name: 'orders',
              kind: 'table',
              description: 'One row per order; lines are in order_lines.',
            },
            {
              name: 'products',
              kind: 'table',
              description: 'What the shop sells, with current prices.',
            },
          ],
        });

        const described = await call('describe_table', { table: 'order_lines' });
        expect(described.structuredContent).toMatchObject({
          name: 'order_lines',
          kind: 'table',
          primaryKey: ['order_id', 'line_no'],
          foreignKeys: [
            {
              name: 'order_lines_order_id_fkey',
              columns: ['order_id'],
              references: { schema: database, table: 'orders', columns: ['id'] },
            },
            {
              name: 'order_lines_product_id_fkey',
              columns: ['product_id'],
              references: { schema: database, table: 'products', columns: ['id'] },
            },
          ],
        });
        // Declared types in MySQL's own words, the dialect query takes.
        expect(described.structuredContent.columns.map((c: { type: string }) => c.type)).toEqual([
          expect.stringMatching(/^int(\(11\))?$/),
          expect.stringMatching(/^int(\(11\))?$/),
          expect.stringMatching(/^int(\(11\))?$/),
          expect.stringMatching(/^int(\(11\))?$/),
          'decimal(10,2)',
        ]);
        expect(described.structuredContent.columns[4]).toEqual({
          name: 'unit_price',
          type: 'decimal(10,2)',
          nullable: false,
          default: null,
          description: null,
        });
        expect(described.content[0].text).toMatch(
          /Foreign key \(order_id\) references orders \(id\)/,
        );
        const products = await call('describe_table', { table: 'products' });
        expect(products.structuredContent.columns[4]).toMatchObject({
          name: 'in_stock',
          type: 'tinyint(1)',
          default: '1',
        });
        const missing = await call('describe_table', { table: 'nope' });
        expect(missing.isError).toBe(true);
        expect(missing.content[0].text).toMatch(/no table or view "nope"/);

        const queried = await call('query', {
          sql: 'SELECT id, name FROM customers WHERE id <= ? ORDER BY id',
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

        const denied = await call('query', { sql: 'DELETE FROM orders WHERE id = ?', params: [1] });
        expect(denied.isError).toBe(true);
        expect(denied.content[0].text).toMatch(/DELETE command denied .*\(SQLSTATE 42000\)/);
        const bad = await call('query', { sql: 'SELEC 1' });
        expect(bad.isError).toBe(true);
        expect(bad.content[0].text).toMatch(/error in your SQL syntax/);
        const badArgs = await call('query', { sql: 'SELECT 1', maxRows: 5000 });
        expect(badArgs.isError).toBe(true);
        w.assertServerFramesValid(era);
      });
    }

    it('answers a write with the read-only refusal and its explanation', async () => {
      const w = await connectWire(rw!.server);
      wires.push(w);
      await w.initialize();
      const write = await w.request('tools/call', {
        name: 'query',
        arguments: { sql: 'DELETE FROM orders WHERE id = ?', params: [1] },
      });
      expect(write.isError).toBe(true);
      expect(write.content[0].text).toBe(
        'Cannot execute statement in a READ ONLY transaction (SQLSTATE 25006)\n' +
          'This server runs every query in a read-only transaction: only reads are allowed.',
      );
      w.assertServerFramesValid('2025-11-25');
    });

    it('serves table schemas as resources, with completion', async () => {
      const w = await connectWire(ro!.server);
      wires.push(w);
      await w.initialize();
      const { resources } = await w.request('resources/list');
      expect(resources.map((r: { uri: string }) => r.uri)).toContain('sql://tables/orders/schema');
      const read = await w.request('resources/read', { uri: 'sql://tables/orders/schema' });
      expect(JSON.parse(read.contents[0].text)).toMatchObject({
        name: 'orders',
        foreignKeys: [{ columns: ['customer_id'], references: { table: 'customers' } }],
      });
      const completion = await w.request('completion/complete', {
        ref: { type: 'ref/resource', uri: 'sql://tables/{name}/schema' },
        argument: { name: 'name', value: 'order' },
      });
      expect(completion.completion.values).toEqual(['order_lines', 'order_totals', 'orders']);
      w.assertServerFramesValid('2025-11-25');
    });
  });
});
