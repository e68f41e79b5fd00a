import { describe, expect, it } from 'vitest';
import type { WireEntry } from './types';
import { MethodMemory, httpDetail, summarize } from './wire-summary';

const rpc = (seq: number, dir: '>>' | '<<', message: Record<string, unknown>): WireEntry => ({
  seq,
  time: seq,
  dir,
  kind: 'jsonrpc',
  message,
});

describe('wire entries as lines', () => {
  it('names requests, notifications and the method a response answers', () => {
    const memory = new MethodMemory();
    const line = (entry: WireEntry) => summarize(entry, memory.methodOf(entry));
    expect(line(rpc(1, '>>', { jsonrpc: '2.0', id: 3, method: 'tools/call' }))).toBe(
      '>> tools/call #3',
    );
    expect(line(rpc(2, '<<', { jsonrpc: '2.0', method: 'notifications/progress' }))).toBe(
      '<< notifications/progress',
    );
    expect(line(rpc(3, '<<', { jsonrpc: '2.0', id: 3, result: {} }))).toBe(
      '<< tools/call result #3',
    );
    // A request of the server, answered by the client.
    expect(line(rpc(4, '<<', { jsonrpc: '2.0', id: 0, method: 'elicitation/create' }))).toBe(
      '<< elicitation/create #0',
    );
    expect(line(rpc(5, '>>', { jsonrpc: '2.0', id: 0, error: { code: -1, message: 'no' } }))).toBe(
      '>> elicitation/create error #0: no',
    );
  });

  it('shows HTTP exchanges and SSE events shortly', () => {
    const http: WireEntry = {
      seq: 1,
      time: 1,
      dir: '<<',
      kind: 'http',
      http: {
        method: 'POST',
        status: 200,
        headers: { 'content-type': 'text/event-stream; charset=utf-8', 'mcp-method': 'tools/call' },
        durationMs: 12.4,
      },
    };
    expect(summarize(http, undefined)).toBe('<< HTTP POST 200 text/event-stream');
    expect(httpDetail(http)).toBe('tools/call · 12 ms');
    const sse: WireEntry = { ...http, http: { headers: {}, sse: { id: '7', event: 'message' } } };
    expect(summarize(sse, undefined)).toBe('<< SSE message id=7');
  });
});
