// mcpkit serve sql on MySQL/MariaDB (MCPKIT_TEST_MYSQL_URL, an admin login such as root): the
// admin login is refused with a hint, a least-privilege login (created here, SELECT on one
// table of its own) lists, describes and queries over stdio, and --allow-privileged-login serves
// the admin with a warning while the read-only transaction still refuses writes.
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, collect, spawnCli } from './run-cli.js';

const url = process.env['MCPKIT_TEST_MYSQL_URL'];
if (url === undefined) {
  console.log('test/cli: serve sql on MySQL skipped: set MCPKIT_TEST_MYSQL_URL');
}

const suffix = randomBytes(4).toString('hex');
const table = `mcpkit_cli_${suffix}_items`;
const login = `mcpkit_ro_${suffix}`;

/** `url` with `user` as its login and no password. */
function as(user: string): string {
  const u = new URL(url!);
  u.username = user;
  u.password = '';
  return u.toString();
}

/** A stdio session with `mcpkit serve sql`: one request at a time, answers by id. */
function stdioSession(child: ChildProcess) {
  let buffer = '';
  const waiting = new Map<number, (message: any) => void>();
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const message = JSON.parse(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      waiting.get(message.id)?.(message);
    }
  });
  let next = 1;
  return (method: string, params: Record<string, unknown> = {}): Promise<any> => {
    const id = next++;
    const answered = new Promise((resolve) => waiting.set(id, resolve));
    child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return answered;
  };
}

const INITIALIZE = {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'test', version: '1.0.0' },
};

(url === undefined ? describe.skip : describe)('mcpkit serve sql on MySQL/MariaDB', () => {
  let admin: mysql.Connection | undefined;

  beforeAll(async () => {
    admin = await mysql.createConnection(url!);
    await admin.query(
      `CREATE TABLE ${table} (id int PRIMARY KEY, name varchar(40) NOT NULL, price decimal(8,2)) COMMENT 'Things for sale.'`,
    );
    await admin.query(`INSERT INTO ${table} VALUES (1, 'kettle', 19.90), (2, 'teapot', 24.50)`);
    await admin.query(`CREATE USER '${login}'@'%'`);
    await admin.query(`GRANT SELECT ON ${table} TO '${login}'@'%'`);
  });

  afterAll(async () => {
    await admin?.query(`DROP TABLE IF EXISTS ${table}`);
    await admin?.query(`DROP USER IF EXISTS '${login}'@'%'`);
    await admin?.end();
  });

  it('refuses the admin login, naming its privileges, with a hint', async () => {
    const ran = await cli(['serve', 'sql'], { env: { DATABASE_URL: url! } });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/mcpkit serve: refusing to serve: the login '[^']+'@'[^']+' holds/);
    expect(ran.stderr).toMatch(/hint: .*--allow-privileged-login/);
  });

  it('lists, describes and queries tables read-only on a least-privilege login', async () => {
    const child = spawnCli(['serve', 'sql', '--stdio'], { DATABASE_URL: as(login) });
    const done = collect(child, 30_000);
    const send = stdioSession(child);
    const init = await send('initialize', INITIALIZE);
    expect(init.result.serverInfo.name).toBe('sql');
    expect(init.result.instructions).toMatch(/read-only MySQL\/MariaDB gateway \(database "/);
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      (await send('tools/call', { name, arguments: args })).result;

    const listed = await call('list_tables');
    expect(listed.structuredContent.tables).toEqual([
      { name: table, kind: 'table', description: 'Things for sale.' },
    ]);
    const described = await call('describe_table', { table });
    expect(described.structuredContent).toMatchObject({
      name: table,
      primaryKey: ['id'],
      columns: [
        // MySQL's own declared types: the dialect `query` takes.
        { name: 'id', type: expect.stringMatching(/^int(\(11\))?$/), nullable: false },
        { name: 'name', type: 'varchar(40)', nullable: false },
        { name: 'price', type: 'decimal(8,2)', nullable: true },
      ],
    });
    const queried = await call('query', {
      sql: `SELECT name, price FROM ${table} WHERE price > ? ORDER BY id`,
      params: [20],
    });
    expect(queried.structuredContent.rows).toEqual([['teapot', '24.50']]);
    const write = await call('query', { sql: `DELETE FROM ${table}` });
    expect(write.isError).toBe(true);
    expect(write.content[0].text).toMatch(/DELETE command denied/);
    child.stdin!.end();
    const ran = await done;
    expect(ran.code).toBe(0);
    expect(ran.stderr).toContain('mcpkit serve: sql is serving on stdio');
    const [rows] = await admin!.query({ sql: `SELECT count(*) FROM ${table}`, rowsAsArray: true });
    expect(rows).toEqual([[2]]);
  }, 30_000);

  it('serves the admin login with --allow-privileged-login, warning, and still refuses writes', async () => {
    const child = spawnCli(['serve', 'sql', '--stdio', '--allow-privileged-login'], {
      DATABASE_URL: url!.replace(/^mysql:/, 'mariadb:'),
    });
    const done = collect(child, 30_000);
    const send = stdioSession(child);
    await send('initialize', INITIALIZE);
    const write = await send('tools/call', {
      name: 'query',
      arguments: { sql: `UPDATE ${table} SET price = 0` },
    });
    expect(write.result.isError).toBe(true);
    expect(write.result.content[0].text).toMatch(
      /^Cannot execute statement in a READ ONLY transaction \(SQLSTATE 25006\)/,
    );
    child.stdin!.end();
    const ran = await done;
    expect(ran.stderr).toMatch(/warning: serving on a privileged login/);
    const [rows] = await admin!.query({
      sql: `SELECT sum(price) FROM ${table}`,
      rowsAsArray: true,
    });
    expect(rows).toEqual([['44.40']]);
  }, 30_000);
});
