// The local OAuth recipe of docs/auth.md (issue #43 point 5), real parts: `mcpkit auth
// dev-server` (oidc-provider) and `mcpkit serve everything --auth-issuer` as child processes,
// `mcpkit login` signing in through a stand-in browser ($BROWSER follows the redirects, as a
// person's browser would: the dev server approves at once). Also the two client errors that
// misled: a dead server URL, and an authorization server that grants fewer scopes than needed.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, cli, closedPort, spawnCli, waitFor } from './run-cli.js';

const BROWSER = `${process.execPath} ${join(FIXTURES, 'sign-in.mjs')}`;

describe('mcpkit auth dev-server: OAuth tried locally', () => {
  let authServer: ChildProcess;
  let server: ChildProcess;
  let issuer = '';
  let secret = '';
  let url = '';
  const env = { MCPKIT_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'mcpkit-dev-auth-')), BROWSER };

  beforeAll(async () => {
    authServer = spawnCli(['auth', 'dev-server', '--port', '0', '--scopes', 'mcp:read']);
    const started = await waitFor(authServer, /--client-secret (\S+)\n/);
    issuer = /at (http:\/\/127\.0\.0\.1:\d+) \(NOT FOR PRODUCTION/.exec(started.input)?.[1] ?? '';
    secret = started[1] ?? '';
    server = spawnCli([
      'serve',
      'everything',
      '--http',
      '127.0.0.1:0',
      '--auth-issuer',
      issuer,
      '--auth-scopes',
      'mcp:read',
    ]);
    url = (await waitFor(server, /serving at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/))[1] ?? '';
  }, 30_000);
  afterAll(async () => {
    for (const child of [server, authServer]) {
      child.kill('SIGTERM');
      await once(child, 'close');
    }
  });

  it('listens on loopback only and says it is not for production', () => {
    expect(issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('login signs in (registration, code with PKCE, a JWT for the resource); calls then use the token', async () => {
    const login = await cli(['login', url, '--json'], { env });
    expect(login.code, login.stderr).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({
      server: url,
      issuer,
      scope: 'mcp:read',
      refreshable: true,
    });
    const called = await cli(['call', url, 'echo', '--arg', 'message=signed in'], { env });
    expect(called.code, called.stderr).toBe(0);
    expect(called.stdout).toContain('signed in');
  }, 30_000);

  it('the client credentials client it prints gets a token without a browser', async () => {
    const agent = await cli(
      [
        'login',
        url,
        '--grant',
        'client_credentials',
        '--client-id',
        'mcpkit-dev-agent',
        '--client-secret',
        secret,
        '--json',
      ],
      { env: { MCPKIT_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'mcpkit-dev-agent-')) } },
    );
    expect(agent.code, agent.stderr).toBe(0);
    expect(JSON.parse(agent.stdout)).toMatchObject({ issuer, scope: 'mcp:read' });
  }, 30_000);

  it('a scope the authorization server does not grant: named, granted vs needed, not "HTTP 403"', async () => {
    // get-env needs everything:env, which this dev server does not grant (--scopes mcp:read).
    const ran = await cli(['call', url, 'get-env'], { env, timeoutMs: 30_000 });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('needs the scope "everything:env"');
    expect(ran.stderr).toContain('granted: "mcp:read"');
    expect(ran.stderr).not.toContain('HTTP 403');
    expect(ran.stderr).not.toContain('sign in with mcpkit login');
  }, 30_000);

  it('login to a server that is down says the server cannot be reached, not ".../register"', async () => {
    const dead = `http://127.0.0.1:${String(await closedPort())}/mcp`;
    const ran = await cli(['login', dead], { env });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(`the MCP server at ${dead} cannot be reached`);
    expect(ran.stderr).not.toContain('/register');
    expect(ran.stderr).toMatch(/hint: is the server running/);
  });
});
