// The OAuth client against hostile servers on 127.0.0.1 (issue #36, points 4 and 5): an answer
// far larger than any OAuth document (resource metadata, authorization server metadata, a
// registration, a token) is read only up to the 1 MiB cap and the rest never taken, and an
// authorization server that never answers (or sends its headers and then nothing) ends the flow
// within the time limit. Each ends with an AuthorizationError that says what happened.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { OAuthProvider } from '../../src/client/index.js';
import { createOAuthClient } from '../../src/client/index.js';
import type { Flood, Peer } from '../helpers/hostile-http.js';
import { floodBody, startHttpPeer, startSilentServer } from '../helpers/hostile-http.js';

const HUGE = 64 * 1024 * 1024;

type Step = 'resource' | 'metadata' | 'register' | 'token';

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** Signs in at once: the code comes back with the state the client sent. */
const provider: OAuthProvider = {
  redirectUri: () => 'http://127.0.0.1:9/callback',
  authorize: (url) => {
    const state = new URL(url).searchParams.get('state') ?? '';
    return Promise.resolve(`http://127.0.0.1:9/callback?code=c&state=${state}`);
  },
};

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function peer(handle: Parameters<typeof startHttpPeer>[0]): Promise<Peer> {
  const started = await startHttpPeer(handle);
  closing.push(() => started.close());
  return started;
}

/** An authorization server that answers `huge` with 64 MiB, and everything else correctly. */
async function authorizationServer(huge: Step | undefined, floods: Flood[]): Promise<Peer> {
  const as: Peer = await peer((path, res) => {
    const issuer = as.url;
    const step: Step | undefined =
      path === '/.well-known/oauth-authorization-server'
        ? 'metadata'
        : path === '/register'
          ? 'register'
          : path === '/token'
            ? 'token'
            : undefined;
    if (step !== undefined && step === huge) {
      floods.push(floodBody(res, HUGE));
      return;
    }
    switch (step) {
      case 'metadata':
        json(res, 200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          registration_endpoint: `${issuer}/register`,
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
        });
        return;
      case 'register':
        json(res, 201, { client_id: 'registered-client' });
        return;
      case 'token':
        json(res, 200, { access_token: 'the-token', token_type: 'Bearer' });
        return;
      case undefined:
        json(res, 404, { error: 'not_found' });
    }
  });
  return as;
}

/** A resource server naming `issuer`, whose metadata is 64 MiB when `huge` is 'resource'. */
async function resourceServer(issuer: string, huge: boolean, floods: Flood[]): Promise<string> {
  const rs: Peer = await peer((path, res) => {
    if (!path.startsWith('/.well-known/oauth-protected-resource')) {
      json(res, 404, {});
    } else if (huge) {
      floods.push(floodBody(res, HUGE));
    } else {
      json(res, 200, { resource: `${rs.url}/mcp`, authorization_servers: [issuer] });
    }
  });
  return `${rs.url}/mcp`;
}

describe('the OAuth client reads no OAuth answer past 1 MiB', () => {
  it.each<Step>(['resource', 'metadata', 'register', 'token'])(
    'a %s answer of 64 MiB: refused at the cap, the rest never read',
    async (huge) => {
      const floods: Flood[] = [];
      const as = await authorizationServer(huge, floods);
      const serverUrl = await resourceServer(as.url, huge === 'resource', floods);
      const client = createOAuthClient({ serverUrl, provider, timeoutMs: 10_000 });
      const error: unknown = await client.authorize().then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toMatchObject({ name: 'AuthorizationError', code: 'response_too_large' });
      expect((error as Error).message).toContain('larger than 1 MiB');
      expect(floods).toHaveLength(1);
      const [flood] = floods as [Flood];
      expect(await flood.finished).toBe(false);
      // What the socket buffers took beyond the cap, never the 64 MiB.
      expect(flood.written()).toBeLessThan(16 * 1024 * 1024);
    },
    20_000,
  );
});

describe('the OAuth client gives up on an authorization server that does not answer', () => {
  it('one that accepts and never answers: unreachable, within the time limit', async () => {
    const silent = await startSilentServer();
    closing.push(() => silent.close());
    const serverUrl = await resourceServer(silent.url, false, []);
    const client = createOAuthClient({ serverUrl, provider, timeoutMs: 300 });
    const started = Date.now();
    const error: unknown = await client.authorize().catch((failure: unknown) => failure);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toMatchObject({ name: 'AuthorizationError', code: 'unreachable' });
    expect((error as Error).message).toContain(`${silent.url}/.well-known/`);
    expect((error as Error).message).toContain('did not answer within 300 ms');
  });

  it('a token endpoint that sends its headers and then nothing: the same', async () => {
    const as: Peer = await peer((path, res) => {
      if (path === '/token') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"access_token":');
        return;
      }
      json(res, 200, {
        issuer: as.url,
        authorization_endpoint: `${as.url}/authorize`,
        token_endpoint: `${as.url}/token`,
        code_challenge_methods_supported: ['S256'],
      });
    });
    const serverUrl = await resourceServer(as.url, false, []);
    const client = createOAuthClient({
      serverUrl,
      provider,
      client: { client_id: 'known' },
      timeoutMs: 300,
    });
    const started = Date.now();
    const error: unknown = await client.authorize().catch((failure: unknown) => failure);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toMatchObject({ name: 'AuthorizationError', code: 'unreachable' });
    expect((error as Error).message).toContain('did not answer within 300 ms');
  });
});
