// The health endpoint of the Streamable HTTP handler (`health`): what a load balancer's probe
// gets on both faces, with and without a check (redisHealthCheck's too), and that it is outside
// the MCP checks.
import { afterEach, describe, expect, it } from 'vitest';
import { redisHealthCheck } from '../../src/stores/redis/index.js';
import { McpServer } from '../../src/server/index.js';
import type { StreamableHttpOptions } from '../../src/transports/http/server/options.js';
import type { Face } from './http-server-harness.js';
import { FACES, startFace } from './http-server-harness.js';

const faces: Face[] = [];
afterEach(async () => {
  await Promise.all(faces.splice(0).map((f) => f.close()));
});

async function start(kind: 'node' | 'fetch', options: StreamableHttpOptions) {
  const server = new McpServer({ name: 'health', version: '1.0.0' }, { onError: () => {} });
  const face = await startFace(kind, server, options);
  faces.push(face);
  return face;
}

describe.each(FACES)('health endpoint (%s face)', (kind) => {
  it('answers 200 {"status":"ok"} with the check\'s details, whatever the Host', async () => {
    const face = await start(kind, { health: { check: () => ({ redis: 'up' }) } });
    const ok = await face.request({
      method: 'GET',
      path: '/healthz',
      headers: { host: '10.0.0.7:8080' },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(await ok.json()).toEqual({ status: 'ok', redis: 'up' });
  });

  it('answers 503 with the reason when the check throws, and 405 to other methods', async () => {
    let down = true;
    const face = await start(kind, {
      health: {
        path: '/ready',
        check: async () => {
          await Promise.resolve();
          if (down) throw new Error('redis unreachable');
        },
      },
    });
    const unavailable = await face.request({ method: 'GET', path: '/ready' });
    expect(unavailable.status).toBe(503);
    expect(await unavailable.json()).toEqual({ status: 'unavailable', error: 'redis unreachable' });
    down = false;
    expect((await face.request({ method: 'GET', path: '/ready' })).status).toBe(200);
    const posted = await face.request({ method: 'POST', path: '/ready', body: {} });
    expect(posted.status).toBe(405);
  });

  it("adds a failed check's details to the 503 (redisHealthCheck's redis: 'unreachable')", async () => {
    const check = redisHealthCheck({ isReady: false, ping: () => Promise.resolve('PONG') });
    const face = await start(kind, { health: { check } });
    const down = await face.request({ method: 'GET', path: '/healthz' });
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({
      status: 'unavailable',
      redis: 'unreachable',
      error: 'redis: not connected',
    });
  });

  it('answers 200 {"status":"ok","redis":"ok"} while Redis answers PING', async () => {
    const check = redisHealthCheck({ isReady: true, ping: () => Promise.resolve('PONG') });
    const face = await start(kind, { health: { check } });
    const ok = await face.request({ method: 'GET', path: '/healthz' });
    expect(await ok.json()).toEqual({ status: 'ok', redis: 'ok' });
  });

  it('is not there unless asked for', async () => {
    const face = await start(kind, {});
    expect((await face.request({ method: 'GET', path: '/healthz' })).status).toBe(404);
  });
});
