import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../../server/index.js';
import { createFetchHandler } from './fetch.js';
import type { Listening } from './node.js';
import { listen } from './node.js';

// A large text answer is written in pieces (issue #44): the bytes are what they were as one
// string, JSON and SSE, legacy and 2026-07-28, escaped or not; so is a large listing.
const TEXTS: Record<string, string> = {
  plain: 'a'.repeat(200_000),
  escaped: `${'a'.repeat(100_000)}"\n\\\u2028${'b'.repeat(100_000)}`,
};
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'big', version: '1' } };

function bigServer(): McpServer {
  const server = new McpServer({ name: 'big', version: '1' });
  for (const [name, text] of Object.entries(TEXTS)) {
    server.tool({ name, inputSchema: { type: 'object' } }, () => text);
  }
  return server;
}

const servers: Record<string, Listening> = {};
beforeAll(async () => {
  for (const mode of ['json', 'sse'] as const) {
    servers[mode] = await listen(bigServer, { port: 0, sessions: false, responseMode: mode });
  }
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((s) => s.close()));
});

async function call(mode: 'json' | 'sse', era: 'legacy' | 'modern', name: string) {
  const params = era === 'modern' ? { name, arguments: {}, _meta: META } : { name, arguments: {} };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': era === 'modern' ? '2026-07-28' : '2025-11-25',
  };
  if (era === 'modern') Object.assign(headers, { 'mcp-method': 'tools/call', 'mcp-name': name });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params });
  const response = await fetch(servers[mode]?.url ?? '', { method: 'POST', headers, body });
  return { response, text: await response.text() };
}

describe('a large answer', () => {
  for (const mode of ['json', 'sse'] as const) {
    for (const era of ['legacy', 'modern'] as const) {
      it(`is written as its one JSON text would be (${mode}, ${era})`, async () => {
        for (const [name, text] of Object.entries(TEXTS)) {
          const result: Record<string, unknown> = { content: [{ type: 'text', text }] };
          if (era === 'modern')
            Object.assign(result, { resultType: 'complete', _meta: SERVER_INFO });
          const json = JSON.stringify({ jsonrpc: '2.0', id: 5, result });
          const { response, text: reply } = await call(mode, era, name);
          expect(response.status).toBe(200);
          if (mode === 'json') {
            expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(json)));
            expect(reply).toBe(json);
          } else {
            expect(reply).toContain(`data: ${json}\n\n`);
          }
        }
      });
    }
  }
});

describe('a large escaped answer over SSE', () => {
  it('reaches a fetch face as the bytes of its one JSON text', async () => {
    const handler = createFetchHandler(bigServer, { sessions: false, responseMode: 'sse' });
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'escaped', arguments: {} },
    });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    };
    const response = await handler(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body }),
    );
    const result = { content: [{ type: 'text', text: TEXTS['escaped'] }] };
    const json = JSON.stringify({ jsonrpc: '2.0', id: 7, result });
    expect(await response.text()).toContain(`data: ${json}\n\n`);
  });
});
