import { describe, expect, it } from 'vitest';
import type { RequestContext } from '../jsonrpc/connection.js';
import { JSON_TEXT, encode } from '../jsonrpc/codec.js';
import type { Request, Response } from '../jsonrpc/message.js';
import { modernResponse } from './modern-response.js';
import { McpServer } from './server.js';

const TAIL =
  ',"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"t","version":"1"}}}';
const META = { 'io.modelcontextprotocol/serverInfo': { name: 't', version: '1' } };

describe('modernResponse', () => {
  it('encodes as JSON.stringify of the response would, fields in the same order', () => {
    const source = { content: [{ type: 'text', text: 'hi "there"' }], isError: false };
    const result = { ...source, resultType: 'complete', _meta: META };
    const response = modernResponse('a\u2028', result, { source, tail: TAIL });
    const plain = { jsonrpc: '2.0', id: 'a\u2028', result };
    expect(encode(response)).toBe(JSON.stringify(plain));
    expect(JSON.stringify(response)).toBe(JSON.stringify(plain)); // the same fields, no extras
  });

  it('encodes an empty result', () => {
    const result = { resultType: 'complete', _meta: META };
    const response = modernResponse(7, result, { source: {}, tail: TAIL });
    expect(encode(response)).toBe(JSON.stringify({ jsonrpc: '2.0', id: 7, result }));
  });

  it('is not trusted once copied: a copy is serialized as it is', () => {
    const source = { content: [] };
    const response = modernResponse(
      1,
      { content: [], resultType: 'complete', _meta: META },
      {
        source,
        tail: TAIL,
      },
    );
    const copy = { ...response, result: { changed: true } };
    expect(JSON_TEXT in copy).toBe(false);
    expect(encode(copy)).toBe('{"jsonrpc":"2.0","id":1,"result":{"changed":true}}');
  });

  it('falls back to the decorated result when the source is not an object', () => {
    const source = Object(3) as object; // a boxed number: its text is "3"
    const result = { resultType: 'complete', _meta: META };
    const response = modernResponse(1, result, { source, tail: TAIL });
    expect(encode(response)).toBe(JSON.stringify({ jsonrpc: '2.0', id: 1, result }));
  });
});

describe('encode', () => {
  it('serializes values that do not encode themselves with JSON.stringify', () => {
    expect(encode({ jsonrpc: '2.0', id: 1, result: {} })).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{}}',
    );
    expect(encode([1, 'a'])).toBe('[1,"a"]');
    expect(encode(null)).toBe('null');
  });
});

/** Serves one 2026-07-28 request alone and answers its response. */
async function serveAlone(
  server: McpServer,
  method: string,
  params: Record<string, unknown> = {},
): Promise<Response> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const request: Request = { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } };
  const context = {
    id: 1,
    signal: new AbortController().signal,
    notify: () => Promise.resolve(),
    request: () => Promise.reject(new Error('no')),
    close: () => Promise.resolve(),
  } as unknown as RequestContext;
  const served = await server.serveRequest(request, context);
  if (served === undefined) throw new Error('not served alone');
  return served;
}

describe('2026-07-28 responses served alone', () => {
  const server = new McpServer({ name: 't', version: '1' });
  server.tool({ name: 'plain', inputSchema: { type: 'object' } }, () => 'ok');
  server.tool({ name: 'meta', inputSchema: { type: 'object' } }, () => ({
    content: [],
    _meta: { 'example.com/x': 1 },
  }));

  it('encode to their decorated result, whether self-encoding or not', async () => {
    for (const [method, params] of [
      ['tools/call', { name: 'plain', arguments: {} }],
      ['tools/call', { name: 'meta', arguments: {} }],
      ['tools/list', {}], // cacheable: gets ttlMs and cacheScope too
      ['ping', {}],
    ] as const) {
      const response = await serveAlone(server, method, params);
      const plain = JSON.stringify({ ...response });
      expect(JSON.parse(encode(response))).toEqual(JSON.parse(plain));
      expect(encode(response)).toBe(plain);
    }
  });

  it('a plain tool result self-encodes; one with its own _meta does not', async () => {
    expect(
      JSON_TEXT in (await serveAlone(server, 'tools/call', { name: 'plain', arguments: {} })),
    ).toBe(true);
    expect(
      JSON_TEXT in (await serveAlone(server, 'tools/call', { name: 'meta', arguments: {} })),
    ).toBe(false);
  });
});
