// `mcpkit serve everything --http 127.0.0.1:0 --auth-issuer <issuer>` against a real
// authorization server (oidc-provider): it refuses and admits as docs/auth.md says, for the CLI
// itself (mcpkit call with an Authorization header) and for raw HTTP requests.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSilentServer } from '../helpers/hostile-http.js';
import type { AuthorizationServer } from '../helpers/oidc.js';
import { startAuthorizationServer } from '../helpers/oidc.js';
import { cli, spawnCli, waitFor } from './run-cli.js';

describe('mcpkit serve --auth-issuer', () => {
  let as: AuthorizationServer;
  let server: ChildProcess;
  let url = '';

  beforeAll(async () => {
    as = await startAuthorizationServer(['mcp', 'everything:env']);
    server = spawnCli(['serve', 'everything', '--http', '127.0.0.1:0', '--auth-issuer', as.issuer]);
    const match = await waitFor(server, /serving at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/);
    url = match[1] ?? '';
  }, 30_000);

  afterAll(async () => {
    server.kill('SIGTERM');
    await once(server, 'close');
    await as.close();
  });

  it('serves its metadata, naming the issuer and the scopes its tools declare', async () => {
    const metadata = url.replace('/mcp', '/.well-known/oauth-protected-resource/mcp');
    const response = await fetch(metadata);
    expect(await response.json()).toEqual({
      resource: url,
      authorization_servers: [as.issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: ['everything:env'],
    });
  });

  it('refuses the CLI without a token (401, exit 2), and admits it with one', async () => {
    // The CLI starts signing in on the 401; this provider takes no registrations, so it says
    // that a client id is needed.
    const refused = await cli(['call', url, 'get-sum', '--arg', 'a=1', '--arg', 'b=2']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('authorization failed');
    expect(refused.stderr).toContain('--client-id');
    const token = await as.token(url, 'mcp');
    const admitted = await cli([
      'call',
      url,
      'get-sum',
      '--arg',
      'a=1',
      '--arg',
      'b=2',
      '-H',
      `Authorization: Bearer ${token}`,
    ]);
    expect(admitted.code).toBe(0);
    expect(admitted.stdout).toContain('3');
  });

  it('steps up for get-env: 403 naming everything:env, then admitted with it', async () => {
    const post = (token: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'get-env',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'get-env',
            arguments: {},
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      });
    const weak = await post(await as.token(url, 'mcp'));
    expect(weak.status).toBe(403);
    expect(weak.headers.get('www-authenticate')).toContain('scope="everything:env"');
    const strong = await post(await as.token(url, 'mcp everything:env'));
    expect(strong.status).toBe(200);
  });

  it('refuses a token minted for another resource', async () => {
    const other = await as.token('https://elsewhere.example.com/mcp', 'mcp');
    const ran = await cli(['list', url, '-H', `Authorization: Bearer ${other}`]);
    expect(ran.code).toBe(2);
  });

  it('says when the issuer cannot be used, and that the auth flags need an issuer', async () => {
    const [bad, lonely] = await Promise.all([
      cli([
        'serve',
        'pingme',
        '--http',
        '127.0.0.1:0',
        '--auth-issuer',
        'http://127.0.0.1:9/nowhere',
      ]),
      cli(['serve', 'pingme', '--http', '0', '--auth-scopes', 'mcp']),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'cannot use http://127.0.0.1:9/nowhere as the authorization server',
    );
    expect(lonely.code).toBe(3);
    expect(lonely.stderr).toContain('--auth-scopes needs --auth-issuer');
  });

  it('/healthz reports the verifier: auth ok while the issuer answers', async () => {
    const response = await fetch(url.replace('/mcp', '/healthz'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', auth: 'ok' });
  });

  it('an issuer that accepts and never answers: start-up fails within --auth-timeout', async () => {
    const silent = await startSilentServer();
    try {
      const started = Date.now();
      const ran = await cli([
        'serve',
        'pingme',
        '--http',
        '127.0.0.1:0',
        '--auth-issuer',
        silent.url,
        '--auth-timeout',
        '500',
      ]);
      expect(Date.now() - started).toBeLessThan(6000);
      expect(ran.code, ran.stderr).toBe(2);
      expect(ran.stderr).toContain(`cannot use ${silent.url} as the authorization server`);
      expect(ran.stderr).toContain('did not answer within 500 ms');
      expect(silent.connections()).toBeGreaterThan(0);
    } finally {
      await silent.close();
    }
  });

  it('--auth-dpop advertises DPoP in the metadata', async () => {
    const child = spawnCli([
      'serve',
      'pingme',
      '--http',
      '127.0.0.1:0',
      '--auth-issuer',
      as.issuer,
      '--auth-dpop',
    ]);
    try {
      const match = await waitFor(child, /serving at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/);
      const base = match[1] ?? '';
      const response = await fetch(
        base.replace('/mcp', '/.well-known/oauth-protected-resource/mcp'),
      );
      expect(await response.json()).toMatchObject({
        resource: base,
        dpop_bound_access_tokens_required: false,
        dpop_signing_alg_values_supported: expect.arrayContaining(['ES256']),
      });
    } finally {
      child.kill('SIGTERM');
      await once(child, 'close');
    }
  });
});
