import { describe, expect, it } from 'vitest';
import type { RequestContext } from '../jsonrpc/serve.js';
import { JSON_TEXT, encode, encodePieces } from '../jsonrpc/codec.js';
import type { Request, Response } from '../jsonrpc/message.js';
import { servedResponse } from './served-response.js';
import { McpServer } from './server.js';

const META = { 'io.modelcontextprotocol/serverInfo': { name: 't', version: '1' } };
const FIELDS = `"resultType":"complete","_meta":${JSON.stringify(META)}`;

/** What JSON.stringify makes of the response's fields: what its own text must equal. */
function plainText(response: Response): string {
  return JSON.stringify({ ...response });
}

describe('servedResponse', () => {
  it('writes what JSON.stringify would, for text results and others', () => {
    const results: object[] = [
      { content: [{ type: 'text', text: 'hi "there"\n\u2028' }] },
      { content: [{ type: 'text', text: 'x' }], isError: true },
      { content: [{ text: 'x', type: 'text' }] }, // other order: serialized
      { content: [{ type: 'text', text: 'x', annotations: { priority: 1 } }] },
      { content: [{ type: 'text', text: 1 }] },
      { content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] },
      { content: [] },
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      {},
    ];
    for (const result of results) {
      for (const id of [1, 'a\u2028']) {
        const response = servedResponse(id, result);
        expect(encode(response)).toBe(plainText(response));
        const source = result;
        const decorated = { ...source, resultType: 'complete', _meta: META };
        const modern = servedResponse(id, decorated, { source, fields: FIELDS });
        expect(encode(modern)).toBe(plainText(modern));
      }
    }
  });

  it('quotes text and writes ids as JSON.stringify would, escapes and long texts included', () => {
    const texts = [
      '',
      'hello world',
      'tab\there',
      'back\\slash',
      'quote "',
      '\u007f\u0080é',
      'lone \ud800 surrogate',
      'pair \ud83d\ude00',
      'x'.repeat(256),
      `${'x'.repeat(300)}"`,
    ];
    for (const text of texts) {
      for (const id of [0, -1, 1.5, 1e21, 2 ** 53, 'id', '']) {
        const source = { content: [{ type: 'text', text }] };
        const response = servedResponse(id, source);
        expect(encode(response)).toBe(plainText(response));
        const decorated = { ...source, resultType: 'complete', _meta: META };
        const modern = servedResponse(id, decorated, { source, fields: FIELDS });
        expect(encode(modern)).toBe(plainText(modern));
      }
    }
  });

  it('writes a legacy result as it is when encoded, changes included', () => {
    const result: Record<string, unknown> = { content: [{ type: 'text', text: 'x' }] };
    const response = servedResponse(1, result);
    result['isError'] = true;
    expect(encode(response)).toBe(plainText(response));
  });

  it('is not trusted once copied: a copy is serialized as it is', () => {
    const source = { content: [] };
    const decorated = { content: [], resultType: 'complete', _meta: META };
    const response = servedResponse(1, decorated, { source, fields: FIELDS });
    const copy = { ...response, result: { changed: true } };
    expect(JSON_TEXT in copy).toBe(false);
    expect(encode(copy)).toBe('{"jsonrpc":"2.0","id":1,"result":{"changed":true}}');
  });

  it('falls back to the response as it is when the source is not an object', () => {
    const source = Object(3) as object; // a boxed number: its text is "3"
    const decorated = { resultType: 'complete', _meta: META };
    const response = servedResponse(1, decorated, { source, fields: FIELDS });
    expect(encode(response)).toBe(plainText(response));
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

/** Serves one request on its own (2026-07-28 unless `legacy`) and answers its response. */
async function serveOnItsOwn(
  server: McpServer,
  request: { method: string; params?: Record<string, unknown>; legacy?: boolean },
): Promise<Response> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const params = request.legacy === true ? request.params : { ...request.params, _meta: meta };
  const message: Request = { jsonrpc: '2.0', id: 1, method: request.method, params: params ?? {} };
  const context = {
    id: 1,
    signal: new AbortController().signal,
    notify: () => Promise.resolve(),
    request: () => Promise.reject(new Error('no')),
    close: () => Promise.resolve(),
  } as unknown as RequestContext;
  const options =
    request.legacy === true ? { legacyStateless: { revision: '2025-11-25' as const } } : undefined;
  return await server.serveRequest(message, context, options);
}

describe('responses of requests served on their own', () => {
  const server = new McpServer({ name: 't', version: '1' });
  server.tool({ name: 'plain', inputSchema: { type: 'object' } }, () => 'ok "quoted"');
  server.tool({ name: 'meta', inputSchema: { type: 'object' } }, () => ({
    content: [],
    _meta: { 'example.com/x': 1 },
  }));
  const requests = [
    { method: 'tools/call', params: { name: 'plain', arguments: {} } },
    { method: 'tools/call', params: { name: 'meta', arguments: {} } },
    { method: 'tools/call', params: { name: 'nope', arguments: {} } },
    { method: 'tools/list' }, // 2026-07-28: cacheable, gets ttlMs and cacheScope too
    { method: 'ping' },
  ];

  it('encode as their fields would, in both eras', async () => {
    for (const request of requests) {
      for (const legacy of [false, true]) {
        const response = await serveOnItsOwn(server, { ...request, legacy });
        expect(encode(response)).toBe(plainText(response));
      }
    }
  });

  it('write their own text, a result with its own _meta keeping it beside serverInfo', async () => {
    const plain = await serveOnItsOwn(server, requests[0]!);
    expect(JSON_TEXT in plain).toBe(true);
    expect(JSON.parse(encode(plain))).toMatchObject({
      result: { content: [{ type: 'text', text: 'ok "quoted"' }], resultType: 'complete' },
    });
    const own = await serveOnItsOwn(server, requests[1]!);
    expect(JSON_TEXT in own).toBe(true);
    expect(JSON.parse(encode(own))).toMatchObject({
      result: {
        resultType: 'complete',
        _meta: { 'example.com/x': 1, 'io.modelcontextprotocol/serverInfo': { name: 't' } },
      },
    });
  });
});

describe('pieces of a large answer', () => {
  const server = new McpServer({ name: 't', version: '1' });
  const texts = {
    plain: 'a'.repeat(70_000),
    escaped: `${'a'.repeat(40_000)}"\n\u2028\ud800${'b'.repeat(40_000)}`,
    // A surrogate pair across the 64K mark, where the text is escaped a slice at a time.
    pair: `${'"'.repeat(65_535)}\u{1f600}\udc00${'c'.repeat(70_000)}\ud83d`,
  };
  for (const [kind, text] of Object.entries(texts)) {
    server.tool({ name: kind, inputSchema: { type: 'object' } }, () => text);
  }
  for (let i = 0; i < 600; i++) {
    server.tool({ name: `t${String(i)}`, description: 'x'.repeat(80) }, () => 'ok');
  }
  const requests: { method: string; params?: Record<string, unknown> }[] = [
    ...Object.keys(texts).map((name) => ({
      method: 'tools/call',
      params: { name, arguments: {} },
    })),
    { method: 'tools/call', params: { name: 't0', arguments: {} } },
    { method: 'tools/list' },
  ];

  it('join into the text JSON.stringify makes, in both eras', async () => {
    for (const request of requests) {
      for (const legacy of [false, true]) {
        const response = await serveOnItsOwn(server, { ...request, legacy });
        const encoded = encodePieces(response);
        const pieces = typeof encoded === 'string' ? [encoded] : encoded;
        expect(pieces.join('')).toBe(plainText(response));
        expect(encode(response)).toBe(plainText(response));
        const bytes = encodePieces(response, true);
        const decoded = typeof bytes === 'string' ? [bytes] : bytes;
        const utf8 = new TextDecoder();
        const text = decoded.map((p) => (typeof p === 'string' ? p : utf8.decode(p))).join('');
        expect(text).toBe(plainText(response));
        const large = request.params?.['name'] !== 't0';
        expect(pieces.length > 1).toBe(large);
        for (const piece of pieces.slice(0, -1)) expect(piece).not.toMatch(/[\r\n]/);
      }
    }
  });
});
