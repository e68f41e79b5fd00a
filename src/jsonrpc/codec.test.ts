import { describe, expect, it } from 'vitest';
import { decode, decodeValue, encode } from './codec.js';

function invalidCode(text: string, allowBatch = false): number | undefined {
  const decoded = decode(text, { allowBatch });
  return decoded.kind === 'invalid' ? decoded.response.error.code : undefined;
}

describe('decode', () => {
  it('decodes requests, notifications and both kinds of response', () => {
    const cases = [
      { jsonrpc: '2.0', id: 1, method: 'a', params: { x: 1 } },
      { jsonrpc: '2.0', id: 'abc', method: 'a', params: [1, 2] },
      { jsonrpc: '2.0', id: 0, method: 'a' },
      { jsonrpc: '2.0', method: 'n' },
      { jsonrpc: '2.0', id: 7, result: { ok: true } },
      { jsonrpc: '2.0', id: 7, result: null },
      { jsonrpc: '2.0', id: 'x', error: { code: -32601, message: 'nope', data: [1] } },
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } },
    ];
    for (const message of cases) {
      const decoded = decode(JSON.stringify(message));
      expect(decoded).toEqual({ kind: 'message', message });
    }
  });

  it('refuses ids that cannot be echoed exactly: floats, and integers beyond 2^53', () => {
    for (const id of ['1.5', '1e300', '9007199254740993', '-9007199254740993']) {
      const request = `{"jsonrpc":"2.0","id":${id},"method":"ping"}`;
      expect(decode(request)).toMatchObject({
        kind: 'invalid',
        response: {
          id: null,
          error: { code: -32600, message: /id must be a string or an integer/ },
        },
      });
      expect(decode(`{"jsonrpc":"2.0","id":${id},"result":{}}`).kind).toBe('invalid');
    }
    for (const id of ['9007199254740991', '-1', '0', '"9007199254740993"']) {
      expect(decode(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`).kind).toBe('message');
    }
  });

  it('answers invalid JSON with -32700 and id null', () => {
    for (const text of ['', '{', '{"jsonrpc":"2.0",', 'nul', '{"a":1}}', '\u0000']) {
      const decoded = decode(text);
      expect(decoded.kind).toBe('invalid');
      if (decoded.kind !== 'invalid') continue;
      expect(decoded.response.id).toBeNull();
      expect(decoded.response.error.code).toBe(-32700);
      expect(decoded.response.error.message).toMatch(/^parse error/);
    }
  });

  it('answers structurally invalid messages with -32600 and id null', () => {
    const cases: unknown[] = [
      null,
      1,
      'str',
      true,
      {},
      { jsonrpc: '1.0', id: 1, method: 'a' },
      { id: 1, method: 'a' },
      { jsonrpc: 2, id: 1, method: 'a' },
      { jsonrpc: '2.0', id: 1, method: 5 },
      { jsonrpc: '2.0', id: 1, method: null },
      { jsonrpc: '2.0', id: 1, method: 'a', params: 'str' },
      { jsonrpc: '2.0', id: 1, method: 'a', params: 3 },
      { jsonrpc: '2.0', id: 1, method: 'a', params: null },
      { jsonrpc: '2.0', id: null, method: 'a' },
      { jsonrpc: '2.0', id: {}, method: 'a' },
      { jsonrpc: '2.0', id: true, method: 'a' },
      { jsonrpc: '2.0', id: 1, result: 1, error: { code: 1, message: 'x' } },
      { jsonrpc: '2.0', id: 1, method: 'a', result: 1 },
      { jsonrpc: '2.0', result: 1 },
      { jsonrpc: '2.0', id: null, result: 1 },
      { jsonrpc: '2.0', id: 1 },
      { jsonrpc: '2.0', id: 1, error: 'bad' },
      { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'x' } },
      { jsonrpc: '2.0', id: 1, error: { code: 1 } },
    ];
    for (const value of cases) {
      const decoded = decodeValue(value);
      expect(decoded.kind, JSON.stringify(value)).toBe('invalid');
      if (decoded.kind !== 'invalid') continue;
      expect(decoded.response.id).toBeNull();
      expect(decoded.response.error.code).toBe(-32600);
    }
  });

  it('refuses batches unless allowed, with a clear -32600', () => {
    const batch = JSON.stringify([{ jsonrpc: '2.0', method: 'n' }]);
    const decoded = decode(batch);
    expect(decoded.kind).toBe('invalid');
    if (decoded.kind === 'invalid')
      expect(decoded.response.error.message).toMatch(/batches are not supported/);
    expect(invalidCode('[]', true)).toBe(-32600);
  });

  it('decodes an allowed batch element by element', () => {
    const text = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'a' },
      { bad: true },
      { jsonrpc: '2.0', method: 'n' },
    ]);
    const decoded = decode(text, { allowBatch: true });
    expect(decoded.kind).toBe('batch');
    if (decoded.kind !== 'batch') return;
    expect(decoded.items).toHaveLength(3);
    expect(decoded.items[0]).toEqual({ message: { jsonrpc: '2.0', id: 1, method: 'a' } });
    expect(decoded.items[1]).toMatchObject({ invalid: { id: null, error: { code: -32600 } } });
  });

  it('never throws on hostile input', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(() => decode(deep)).not.toThrow();
    expect(() => decode('{"__proto__":{"x":1},"jsonrpc":"2.0","method":"a"}')).not.toThrow();
    expect(() => decode('\uFFFD\uD800')).not.toThrow();
  });

  it('round-trips a 10 MB message', () => {
    const big = 'x'.repeat(10 * 1024 * 1024);
    const message = { jsonrpc: '2.0' as const, id: 1, method: 'big', params: { big } };
    const decoded = decode(encode(message));
    expect(decoded.kind).toBe('message');
    if (decoded.kind === 'message') expect(decoded.message).toEqual(message);
  });
});
