import { describe, expect, it } from 'vitest';
import type { Message } from '../../../jsonrpc/message.js';
import { modernRevisionOf, standardHeaders } from './headers.js';
import {
  HttpErrorCode,
  jsonRpcErrorsIn,
  mediaTypeOf,
  reconnectDelay,
  reconnectPolicy,
  refusedPost,
} from './http.js';

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
const request = (method: string, params: Record<string, unknown>): Message => ({
  jsonrpc: '2.0',
  id: 1,
  method,
  params,
});

describe('standardHeaders', () => {
  it('mirrors method and name of a 2026-07-28 request', () => {
    expect(standardHeaders(request('tools/call', { name: 'x', _meta: meta }))).toEqual({
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': 'x',
    });
    expect(standardHeaders(request('resources/read', { uri: 'file:///é', _meta: meta }))).toEqual({
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'resources/read',
      'Mcp-Name': '=?base64?ZmlsZTovLy/DqQ==?=',
    });
    expect(standardHeaders(request('tools/list', { _meta: meta }))).toEqual({
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/list',
    });
  });

  it('leaves legacy requests, notifications and responses alone', () => {
    expect(standardHeaders(request('tools/call', { name: 'x' }))).toEqual({});
    expect(standardHeaders({ jsonrpc: '2.0', method: 'n', params: { _meta: meta } })).toEqual({});
    expect(standardHeaders({ jsonrpc: '2.0', id: 1, result: { _meta: meta } })).toEqual({});
    expect(modernRevisionOf(request('x', { _meta: { ...meta, x: 1 } }))).toBe('2026-07-28');
    expect(modernRevisionOf(request('x', { _meta: [] }))).toBeUndefined();
  });
});

describe('HTTP helpers', () => {
  const response = (status: number, headers: Record<string, string> = {}) =>
    new Response(null, { status, headers });

  it('parses media types instead of matching substrings', () => {
    expect(mediaTypeOf(response(200, { 'Content-Type': 'Application/JSON; charset=utf-8' }))).toBe(
      'application/json',
    );
    expect(mediaTypeOf(response(200, { 'Content-Type': 'application/json-seq' }))).toBe(
      'application/json-seq',
    );
    expect(mediaTypeOf(response(200))).toBeUndefined();
  });

  it('recognizes JSON-RPC error bodies only', () => {
    const error = { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'no' } };
    expect(jsonRpcErrorsIn(JSON.stringify(error))).toEqual([error]);
    expect(jsonRpcErrorsIn(JSON.stringify([error, error]))).toHaveLength(2);
    expect(jsonRpcErrorsIn('{"error":"invalid_token"}')).toBeUndefined();
    expect(jsonRpcErrorsIn('<html>')).toBeUndefined();
    expect(jsonRpcErrorsIn('{"jsonrpc":"2.0","id":1,"result":{}}')).toBeUndefined();
  });

  it('keeps the server error for its request, and synthesizes the rest', () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'x' },
    });
    const refused = refusedPost(response(400), body, [7]);
    expect(refused.responses).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'x' } },
    ]);
    const two = refusedPost(response(500), 'boom', [1, 2]);
    expect(two.responses.map((r) => r.error)).toEqual([
      expect.objectContaining({
        code: HttpErrorCode.HttpStatus,
        message: 'HTTP 500 Internal Server Error',
      }),
      expect.objectContaining({
        data: { status: 500, statusText: 'Internal Server Error', body: 'boom' },
      }),
    ]);
    expect(two.error.message).toBe('HTTP 500 Internal Server Error');
  });

  it('backs off exponentially unless the server sent retry', () => {
    const policy = reconnectPolicy({ initialDelayMs: 100, maxDelayMs: 350, minDelayMs: 50 });
    expect(
      [0, 1, 2, 3].map((n) => reconnectDelay(policy, { failures: n, retryMs: undefined })),
    ).toEqual([100, 200, 350, 350]);
    expect(reconnectDelay(policy, { failures: 3, retryMs: 500 })).toBe(500);
    // The floor holds against the server's retry; streams that bring nothing double it.
    expect(reconnectDelay(policy, { failures: 0, retryMs: 0, empties: 1 })).toBe(50);
    expect(
      [2, 3, 4].map((empties) => reconnectDelay(policy, { failures: 0, retryMs: 0, empties })),
    ).toEqual([100, 200, 350]);
    expect(reconnectPolicy({}).minDelayMs).toBe(250);
    expect(() => reconnectPolicy({ maxRetries: -1 })).toThrow(TypeError);
  });
});
