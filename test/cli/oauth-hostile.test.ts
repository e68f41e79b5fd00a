// `mcpkit list <url>` against a server whose authorization server is hostile (issue #36, points
// 4 and 5): one that accepts and never answers ends the command within --timeout with a clear
// error (it used to wait for 30 s per metadata URL, then say there was no metadata); a metadata
// document of 64 MiB is refused at 1 MiB with the rest never read, also with --trace (whose
// copy of each answer used to be read whole).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Flood, Peer } from '../helpers/hostile-http.js';
import { floodBody, startHttpPeer, startSilentServer } from '../helpers/hostile-http.js';
import { cli } from './run-cli.js';

/** An MCP server that refuses every request 401, naming `issuer` in its resource metadata. */
async function guardedServer(issuer: () => string): Promise<Peer> {
  const server: Peer = await startHttpPeer((path, res) => {
    const metadata = `${server.url}/.well-known/oauth-protected-resource/mcp`;
    if (path.startsWith('/.well-known/oauth-protected-resource')) {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ resource: `${server.url}/mcp`, authorization_servers: [issuer()] }));
      return;
    }
    res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${metadata}"` }).end();
  });
  return server;
}

describe('mcpkit list <url> with a hostile authorization server', () => {
  const peers: Peer[] = [];
  const floods: Flood[] = [];
  let silent: Peer;
  let flooding: Peer;

  beforeAll(async () => {
    silent = await startSilentServer();
    flooding = await startHttpPeer((_path, res) => {
      floods.push(floodBody(res, 64 * 1024 * 1024));
    });
    peers.push(silent, flooding);
  });

  afterAll(async () => {
    for (const peer of peers) await peer.close();
  });

  it('one that accepts and never answers: exit 2 within --timeout, saying so', async () => {
    const server = await guardedServer(() => silent.url);
    peers.push(server);
    const started = Date.now();
    const ran = await cli(['list', `${server.url}/mcp`, '--timeout', '500', '--no-browser']);
    expect(Date.now() - started).toBeLessThan(6000);
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).toContain(`${silent.url}/.well-known/oauth-authorization-server`);
    expect(ran.stderr).toContain('did not answer within 500 ms');
  });

  it.each([[[]], [['--trace']]])(
    'metadata of 64 MiB (%j): refused at 1 MiB, the rest never read',
    async (extra: string[]) => {
      const server = await guardedServer(() => flooding.url);
      peers.push(server);
      const before = floods.length;
      const ran = await cli(['list', `${server.url}/mcp`, '--no-browser', ...extra]);
      expect(ran.code, ran.stderr).toBe(2);
      expect(ran.stderr).toContain('larger than 1 MiB');
      const mine = floods.slice(before);
      expect(mine).toHaveLength(1);
      expect(await mine[0]!.finished).toBe(false);
      expect(mine[0]!.written()).toBeLessThan(16 * 1024 * 1024);
    },
  );
});
