// The gateway's login check on a real PostgreSQL (MCPKIT_TEST_POSTGRES_URL, a superuser): a
// privileged login or role is refused with the privilege named, a least-privilege one serves and
// cannot reach the server's files or programs.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlServer } from '../server.js';
import { loginUrl } from './logins.js';

const url = process.env['MCPKIT_TEST_POSTGRES_URL'];
if (url === undefined) {
  console.log('servers/sql: login check tests skipped: set MCPKIT_TEST_POSTGRES_URL');
}

const suffix = randomBytes(4).toString('hex');
const low = `mcpkit_t_low_${suffix}`;
const files = `mcpkit_t_files_${suffix}`;
const signal = `mcpkit_t_signal_${suffix}`;
let admin: pg.Client | undefined;

(url === undefined ? describe.skip : describe)('sql gateway login check', () => {
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE ROLE ${low} LOGIN`);
    await admin.query(`CREATE ROLE ${files} LOGIN IN ROLE pg_read_server_files`);
    await admin.query(`CREATE ROLE ${signal} NOLOGIN IN ROLE pg_signal_backend`);
    await admin.query(`GRANT ${signal} TO ${low}`);
  });

  afterAll(async () => {
    for (const role of [low, files, signal]) await admin?.query(`DROP ROLE IF EXISTS ${role}`);
    await admin?.end();
  });

  it('refuses a superuser login, naming the privilege', async () => {
    await expect(createSqlServer({ databaseUrl: url })).rejects.toThrow(
      /refusing to serve: the login "\w+" is a superuser\. A read-only transaction does not stop/,
    );
  });

  it('refuses a member of a predefined role that reaches the server, directly or as its SET ROLE', async () => {
    await expect(createSqlServer({ databaseUrl: loginUrl(url!, files) })).rejects.toThrow(
      `the login "${files}" is a member of pg_read_server_files`,
    );
    await expect(
      createSqlServer({ databaseUrl: loginUrl(url!, low), role: signal }),
    ).rejects.toThrow(/is a member of pg_signal_backend/);
  });

  it('serves a superuser only when told to, with a warning', async () => {
    const warnings: string[] = [];
    const sql = await createSqlServer({
      databaseUrl: url,
      allowPrivilegedLogin: true,
      onWarning: (message) => warnings.push(message),
    });
    await sql.close();
    expect(warnings).toEqual([expect.stringMatching(/privileged login.*is a superuser/)]);
  });

  it('serves a least-privilege login, which cannot reach files or programs', async () => {
    await admin?.query(`REVOKE ${signal} FROM ${low}`);
    const sql = await createSqlServer({ databaseUrl: loginUrl(url!, low) });
    try {
      const run = (statement: string) =>
        sql.adapter.query(statement, [], { readOnly: true, timeoutMs: 5000, maxRows: 10 });
      await expect(run("COPY (SELECT 1) TO PROGRAM 'true'")).rejects.toMatchObject({
        code: '42501',
      });
      await expect(run("SELECT pg_read_file('/etc/hostname')")).rejects.toMatchObject({
        code: '42501',
      });
      await expect(run('SELECT count(*) FROM pg_authid')).rejects.toMatchObject({ code: '42501' });
    } finally {
      await sql.close();
    }
  });
});
