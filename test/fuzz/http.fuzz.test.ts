// Property-based test of the Streamable HTTP handler (the fetch face, in process): random methods,
// headers and bodies never make it throw, every answer is a well-formed refusal or result, and the
// server still serves a valid initialize and a 2026-07-28 request afterwards.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/server/index.js';
import { toFetchHandler } from '../../src/transports/http/server/fetch.js';
import { createStreamableHttpHandler } from '../../src/transports/http/server/handler.js';
import { faceOf, initializeBody, modernRequest } from '../integration/http-server-harness.js';
import { FUZZ, FUZZ_TIMEOUT_MS, jsonValue, message } from './settings.js';

const server = new McpServer({ name: 'fuzz', version: '1.0.0' });
server.tool(
  {
    name: 'echo',
    description: 'Echoes.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  },
  (args) => (typeof args['text'] === 'string' ? args['text'] : ''),
);
const handler = createStreamableHttpHandler(() => server, { maxBodyBytes: 64 * 1024 });
// Random requests go to the fetch handler exactly as generated; the checks after them go through
// the test harness's face of the same handler, which adds the standard headers.
const handle = toFetchHandler(handler);
afterAll(async () => {
  await handler.close();
  await server.close();
});

const STATUSES = new Set([200, 202, 204, 400, 403, 404, 405, 406, 408, 409, 413, 415, 500, 503]);

const header = fc.oneof(
  fc.constantFrom(
    ['accept', 'application/json, text/event-stream'],
    ['accept', 'text/event-stream'],
    ['accept', 'application/json'],
    ['accept', '*/*;q=0'],
    ['content-type', 'application/json'],
    ['content-type', 'text/plain'],
    ['content-type', 'application/json; charset=latin1'],
    ['mcp-protocol-version', '2025-11-25'],
    ['mcp-protocol-version', '2026-07-28'],
    ['mcp-protocol-version', '1999-01-01'],
    ['mcp-method', 'tools/call'],
    ['mcp-name', 'echo'],
    ['mcp-session-id', '00000000000000000000000000000000'],
    ['last-event-id', '1'],
    ['origin', 'https://evil.example'],
    ['origin', 'http://127.0.0.1:9'],
    ['host', 'evil.example'],
  ),
  fc.tuple(
    fc.constantFrom(
      'mcp-method',
      'mcp-name',
      'mcp-session-id',
      'mcp-protocol-version',
      'accept',
      'last-event-id',
      'x-any',
    ),
    fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\t\x20-\x7e]/g, '')),
  ),
);

const body = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }),
  jsonValue.map((v) => JSON.stringify(v)),
  message.map((m) => JSON.stringify(m)),
  fc.array(message, { maxLength: 4 }).map((m) => JSON.stringify(m)),
  message.map((m) =>
    JSON.stringify({
      ...m,
      params: {
        ...(m['params'] as object),
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
      },
    }),
  ),
);

async function readAll(response: Response): Promise<string> {
  // A stream that stays open (a GET stream, a listen) is read for its first bytes only.
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const first = await Promise.race([
    reader.read(),
    new Promise<undefined>((r) => setTimeout(r, 50)),
  ]);
  await reader.cancel().catch(() => undefined);
  return first === undefined || first.done ? '' : new TextDecoder().decode(first.value);
}

describe('fuzz: Streamable HTTP handler', () => {
  it(
    'answers random requests with a well-formed refusal or result, and keeps serving',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('POST', 'POST', 'POST', 'GET', 'DELETE', 'PUT', 'OPTIONS'),
          fc.array(header, { maxLength: 6 }),
          body,
          async (method, headers, payload) => {
            const init: RequestInit = {
              method,
              headers: [['host', 'localhost'], ...headers] as [string, string][],
            };
            if (method === 'POST' || method === 'PUT') init.body = payload as BodyInit;
            const response = await handle(new Request('http://localhost/mcp', init));
            expect(STATUSES.has(response.status), String(response.status)).toBe(true);
            const text = await readAll(response);
            const type = response.headers.get('content-type');
            if (type === 'application/json' && text !== '') {
              const parsed: unknown = JSON.parse(text);
              for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
                expect(item).toMatchObject({ jsonrpc: '2.0' });
                expect('result' in item || 'error' in item).toBe(true);
              }
            }
          },
        ),
        FUZZ,
      );
      const face = await faceOf('fetch', handler);
      const init = await face.request({ body: initializeBody('2025-11-25', 1) });
      expect(init.status).toBe(200);
      expect(await init.json()).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
      const echo = { name: 'echo', arguments: { text: 'still here' } };
      const modern = await face.request(modernRequest('tools/call', echo, { id: 2 }));
      expect(await modern.json()).toMatchObject({
        id: 2,
        result: { content: [{ text: 'still here' }] },
      });
    },
    FUZZ_TIMEOUT_MS,
  );
});
