// The CLI signs in to a server behind a real authorization server (oidc-provider with a scripted
// user, test/helpers/oidc.ts): `mcpkit list <url>` runs the browser step once ($BROWSER is a
// stand-in that signs in and lands on the CLI's loopback redirect) and reuses the stored token
// afterwards; login and logout; --no-browser prints the URL; --trace masks every secret; the
// token file is readable by its owner only; client credentials need no browser; `mcpkit inspect`
// signs in the same way before its page sees the server.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthorizationServer } from '../helpers/oidc.js';
import { CLIENT_ID, CLIENT_SECRET, startAuthorizationServer } from '../helpers/oidc.js';
import { FIXTURES, cli, collect, spawnCli, waitFor } from './run-cli.js';

const BROWSER = `${process.execPath} ${join(FIXTURES, 'sign-in.mjs')}`;

describe('signing in from the CLI', () => {
  let as: AuthorizationServer;
  let server: ChildProcess;
  let url = '';

  beforeAll(async () => {
    as = await startAuthorizationServer(['mcp', 'everything:env'], { interactive: true });
    server = spawnCli(['serve', 'everything', '--http', '127.0.0.1:0', '--auth-issuer', as.issuer]);
    url = (await waitFor(server, /serving at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/))[1] ?? '';
  }, 30_000);

  afterAll(async () => {
    server.kill('SIGTERM');
    await once(server, 'close');
    await as.close();
  });

  /** A fresh config folder and sign-in log; runs the CLI with them. */
  function user() {
    const home = mkdtempSync(join(tmpdir(), 'mcpkit-oauth-'));
    const log = join(home, 'sign-ins.log');
    const env = { MCPKIT_CONFIG_DIR: home, BROWSER, SIGN_IN_LOG: log };
    return {
      home,
      signIns: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').length : 0),
      run: (args: string[]) => cli(args, { env, timeoutMs: 30_000 }),
    };
  }

  it('list signs in once through the browser, then reuses the stored token', async () => {
    const me = user();
    const first = await me.run(['list', url]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('get-sum');
    expect(first.stderr).toContain('Sign in');
    expect(me.signIns()).toBe(1);
    const second = await me.run(['list', url]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain('Sign in');
    expect(me.signIns()).toBe(1);
    // One file per server, readable by its owner only, in a folder only they can enter.
    const folder = join(me.home, 'oauth');
    const [file] = readdirSync(folder);
    expect(statSync(join(folder, file!)).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  });

  it('steps up for a tool that needs another scope, in the same command', async () => {
    const me = user();
    // First "mcp" only (the server would take any scope it lists); get-env needs everything:env.
    const ran = await me.run(['call', url, 'get-env', '--scope', 'mcp']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(me.signIns()).toBe(2);
  });

  it('login signs in ahead of use; logout forgets the tokens', async () => {
    const me = user();
    const login = await me.run(['login', url, '--json']);
    expect(login.code, login.stderr).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({
      server: url,
      issuer: as.issuer,
      tokenType: 'Bearer',
      refreshable: true,
    });
    const listed = await me.run(['list', url]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(me.signIns()).toBe(1);
    const logout = await me.run(['logout', url]);
    expect(logout.stdout).toBe(`signed out of ${url}\n`);
    expect(readdirSync(join(me.home, 'oauth'))).toEqual([]);
    const again = await me.run(['logout', url]);
    expect(again.stdout).toBe(`no sign-in was stored for ${url}\n`);
  });

  it('--no-browser prints the URL and waits for the redirect', async () => {
    const me = user();
    const child = spawnCli(['login', url, '--no-browser'], { MCPKIT_CONFIG_DIR: me.home });
    const done = collect(child, 20_000);
    const [, printed] = await waitFor(child, /Sign in\S* to authorize mcpkit: (\S+)\n/);
    expect(printed).toContain('code_challenge_method=S256');
    // The person opens it: here, the stand-in browser.
    const browser = spawn(process.execPath, [join(FIXTURES, 'sign-in.mjs'), printed ?? '']);
    await once(browser, 'close');
    const ran = await done;
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('signed in');
  });

  it('--trace shows the OAuth exchanges with every secret and token masked', async () => {
    const me = user();
    const ran = await me.run(['list', url, '--trace']);
    expect(ran.code, ran.stderr).toBe(0);
    const oauth = ran.stderr.split('\n').filter((line) => line.includes(' oauth '));
    expect(oauth.some((line) => line.includes('POST') && line.includes('/token'))).toBe(true);
    expect(oauth.some((line) => line.includes('"access_token":"***"'))).toBe(true);
    expect(oauth.some((line) => line.includes('code_verifier=***'))).toBe(true);
    const stored = readFileSync(
      join(me.home, 'oauth', readdirSync(join(me.home, 'oauth'))[0]!),
      'utf8',
    );
    const { access_token: token } = (
      JSON.parse(stored) as Record<string, { access_token?: string }>
    )[`tokens ${url}`]!;
    expect(token).toEqual(expect.any(String));
    expect(ran.stderr).not.toContain(token!);
  });

  it('inspect signs in through the browser, and its page sees the signed-in server', async () => {
    const me = user();
    const child = spawnCli(['inspect', url, '--no-open'], {
      MCPKIT_CONFIG_DIR: me.home,
      BROWSER,
      SIGN_IN_LOG: join(me.home, 'sign-ins.log'),
    });
    try {
      // The URL (with its access token) is the one line on stdout.
      child.stdout?.setEncoding('utf8');
      const [line] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [string];
      const page = new URL(line.trim());
      const headers = { 'x-mcpkit-token': page.searchParams.get('token') ?? '' };
      const state = async (): Promise<{ connected: boolean; tools: { name: string }[] }> =>
        (await fetch(`${page.origin}/api/state`, { headers })).json() as never;
      await expect
        .poll(async () => (await state()).tools.map((tool) => tool.name), { timeout: 30_000 })
        .toContain('get-sum');
      expect((await state()).connected).toBe(true);
      expect(me.signIns()).toBe(1);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'close');
    }
  });

  it('client credentials: --client-id and MCPKIT_CLIENT_SECRET, no browser', async () => {
    const me = user();
    const ran = await cli(
      ['list', url, '--grant', 'client_credentials', '--client-id', CLIENT_ID, '--scope', 'mcp'],
      { env: { MCPKIT_CONFIG_DIR: me.home, MCPKIT_CLIENT_SECRET: CLIENT_SECRET } },
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('get-sum');
    expect(ran.stderr).not.toContain('Sign in');
  });
});
