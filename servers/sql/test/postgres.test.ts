// The sql server on a real PostgreSQL (MCPKIT_TEST_POSTGRES_URL): the shared suite in a schema of
// its own (mcpkit_test_<random>) seeded with the shop dataset and dropped afterwards, plus the
// read-only role option.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopStatements } from '../dataset.js';
import type { SqlServer } from '../server.js';
import { createSqlServer } from '../server.js';
import { loginUrl } from './logins.js';
import { sqlSuite } from './suite.js';

const url = process.env['MCPKIT_TEST_POSTGRES_URL'];
if (url === undefined) {
  console.log(
    'servers/sql: PostgreSQL tests skipped: set MCPKIT_TEST_POSTGRES_URL (e.g. postgres://postgres@127.0.0.1:5432/test)',
  );
}

const suffix = randomBytes(4).toString('hex');
const schema = `mcpkit_test_${suffix}`;
const role = `mcpkit_test_reader_${suffix}`;
// The gateway refuses a superuser login: it connects as a least-privilege one (docs/servers.md).
const login = `mcpkit_test_login_${suffix}`;

let admin: pg.Client | undefined;
let sql: SqlServer | undefined;

function get(): SqlServer {
  if (sql === undefined) throw new Error('the server did not start');
  return sql;
}

(url === undefined ? describe.skip : describe)('sql server on PostgreSQL', () => {
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.query(`SET search_path TO ${schema}`);
    for (const statement of shopStatements()) await admin.query(statement);
    await admin.query(`CREATE ROLE ${login} LOGIN`);
    await admin.query(`GRANT USAGE ON SCHEMA ${schema} TO ${login}`);
    await admin.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${login}`);
    sql = await createSqlServer({ databaseUrl: loginUrl(url!, login), schema });
  }, 60_000);

  afterAll(async () => {
    await sql?.close();
    await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin?.query(`DROP OWNED BY ${login}`).catch(() => undefined);
    await admin?.query(`DROP ROLE IF EXISTS ${login}`);
    await admin?.end();
  });

  it('is PostgreSQL on its own schema', () => {
    expect(get().adapter).toMatchObject({ kind: 'postgres', schema });
  });

  sqlSuite(get);

  describe('with a read-only role', () => {
    let narrow: SqlServer | undefined;
    beforeAll(async () => {
      await admin?.query(`CREATE ROLE ${role} NOLOGIN`);
      await admin?.query(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
      await admin?.query(`GRANT SELECT ON ${schema}.customers TO ${role}`);
      await admin?.query(`GRANT ${role} TO ${login}`);
      narrow = await createSqlServer({ databaseUrl: loginUrl(url!, login), schema, role });
    });
    afterAll(async () => {
      await narrow?.close();
      await admin?.query(`DROP OWNED BY ${role}`);
      await admin?.query(`DROP ROLE IF EXISTS ${role}`);
    });
    const run = (statement: string) =>
      narrow!.adapter.query(statement, [], { readOnly: true, timeoutMs: 5000, maxRows: 10 });

    it('runs every query as the role', async () => {
      expect((await run('SELECT current_user')).rows).toEqual([[role]]);
      expect((await run('SELECT count(*) FROM customers')).rows).toEqual([[80]]);
      await expect(run('SELECT * FROM orders')).rejects.toMatchObject({
        code: '42501',
        message: expect.stringMatching(/permission denied/),
      });
      await expect(run("SELECT pg_read_file('/etc/hostname')")).rejects.toMatchObject({
        code: '42501',
      });
    });

    it('lists only the tables the role may read', async () => {
      const { server } = narrow!;
      const { connectWire } = await import('../../../test/helpers/wire.js');
      const w = await connectWire(server);
      await w.initialize();
      const listed = await w.request('tools/call', { name: 'list_tables', arguments: {} });
      expect(listed.structuredContent.tables.map((t: { name: string }) => t.name)).toEqual([
        'customers',
      ]);
      w.assertServerFramesValid('2025-11-25');
      await w.close();
    });
  });
});
