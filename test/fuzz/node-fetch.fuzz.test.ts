// Property-based test of the HTTP/1.1 client's response parser (src/transports/http/client/
// node-fetch.ts) over real sockets: generated and mutated responses, split at random points across
// separate writes by a server on 127.0.0.1. Whatever a server sends, every request settles (no
// crash, no hang), what is accepted stays within the head and body caps, and how the bytes were
// split never changes the verdict. Endless heads, chunk lines, trailers and bodies are refused.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { NodeFetch } from '../../src/transports/http/client/node-fetch.js';
import { createNodeFetch } from '../../src/transports/http/client/node-fetch.js';
import type { Method, Script, Verdict } from './raw-http.js';
import { SETTLE_MS, rawServer, viaNodeFetch } from './raw-http.js';
import { hostile } from './responses.js';
import { FUZZ, FUZZ_TIMEOUT_MS } from './settings.js';

const MAX_HEAD = 2048;
const MAX_BODY = 4096;
const fetches: NodeFetch[] = [];
afterAll(() => {
  for (const f of fetches) f.close();
});

function fetcher(): NodeFetch {
  const f = createNodeFetch({ maxHeaderBytes: MAX_HEAD, maxBodyBytes: MAX_BODY });
  fetches.push(f);
  return f;
}

/** Errors thrown where nobody can catch them (a socket event): each one would crash a process. */
const uncaught: unknown[] = [];
process.on('uncaughtException', (error) => uncaught.push(error));

async function run(script: Script, methods: readonly Method[]): Promise<Verdict[]> {
  const server = await rawServer(script);
  const f = fetcher();
  try {
    return await viaNodeFetch(f, server.url, methods, SETTLE_MS / 3);
  } finally {
    f.close();
    await server.close();
  }
}

/** What must not depend on how the bytes were split: accepted or not, status, body. */
function gist(verdicts: readonly Verdict[]): unknown[] {
  return verdicts.map((v) => (v.ok ? { status: v.status, body: v.body } : 'refused'));
}

describe('fuzz: HTTP/1.1 client (node-fetch) response parser', () => {
  it(
    'settles every request, keeps within its caps, and reads the same however the bytes are split',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(hostile, { minLength: 1, maxLength: 2 }),
          fc.array(fc.nat(), { maxLength: 8 }),
          fc.constantFrom<Method>('GET', 'GET', 'HEAD', 'POST'),
          fc.integer({ min: 1, max: 2 }),
          async (responses, cuts, method, requests) => {
            // Everything the server has goes out after the first request, then it hangs up: a
            // response that is complete settles at once, any other when the connection ends.
            const bytes = Buffer.concat(responses);
            const methods = Array.from({ length: requests }, () => method);
            const split = await run({ responses: [bytes], cuts }, methods);
            const whole = await run({ responses: [bytes] }, methods);
            expect(uncaught).toEqual([]);
            for (const verdict of [...split, ...whole]) {
              expect(verdict).not.toEqual({ ok: false, error: 'hang' });
              if (verdict.ok) expect(verdict.body.length).toBeLessThanOrEqual(MAX_BODY);
            }
            // A second request may meet bytes left over from the first response or not, as they
            // happen to arrive before or after it is sent: only the first verdict must agree.
            expect(gist(split.slice(0, 1))).toEqual(gist(whole.slice(0, 1)));
          },
        ),
        FUZZ,
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  const ENDLESS: [string, string, string][] = [
    ['a head', 'HTTP/1.1 200 OK\r\n', 'x-a: b\r\n'],
    ['one header line', 'HTTP/1.1 200 OK\r\nx-a: ', 'b'],
    ['informational responses', '', 'HTTP/1.1 100 Continue\r\n\r\n'],
    ['a chunk size line', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1', ';a=b'],
    ['trailers', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\n', 'x-t: 1\r\n'],
    ['one trailer line', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\nx-t: ', 'b'],
    ['chunks', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n', '1\r\nx\r\n'],
    ['a body until close', 'HTTP/1.1 200 OK\r\n\r\n', 'x'.repeat(100)],
    ['a huge content-length', 'HTTP/1.1 200 OK\r\ncontent-length: 1000000000\r\n\r\n', 'xx'],
  ];

  it.each(ENDLESS)(
    'refuses endless %s at the cap, with the connection still open',
    async (_name, prefix, unit) => {
      const server = await rawServer({
        responses: [Buffer.from(prefix, 'latin1')],
        close: false,
        endless: Buffer.from(unit.repeat(Math.ceil(256 / unit.length)), 'latin1'),
      });
      const f = fetcher();
      try {
        const [verdict] = await viaNodeFetch(f, server.url, ['GET']);
        expect(verdict).toMatchObject({ ok: false });
        expect(verdict).not.toEqual({ ok: false, error: 'hang' });
      } finally {
        f.close();
        await server.close();
      }
    },
    SETTLE_MS * 2,
  );
});
