import { describe, expect, it } from 'vitest';
import { encode, requestMessage } from '../jsonrpc/codec.js';
import type { MetaFields } from './meta-params.js';
import { MetaTexts, metaObject, metaParams, takesMeta } from './meta-params.js';

const INFO = { name: 'probe', version: '1.0.0' };
const BASE: MetaFields = {
  token: undefined,
  revision: '2026-07-28',
  capabilities: {},
  info: INFO,
  level: undefined,
  ownCapabilities: true,
};

/** What the params and the request encode to, and what the plain objects serialize to. */
function both(source: Record<string, unknown>, fields: MetaFields, texts = new MetaTexts()) {
  const meta = metaObject(fields);
  const params = metaParams(source, meta, texts.text(fields));
  const plain = { ...source, _meta: meta };
  return {
    params,
    plain,
    got: encode(requestMessage(7, 'tools/call', params)),
    want: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: plain }),
  };
}

describe('metaParams', () => {
  it('writes what JSON.stringify of the spread copy writes', () => {
    const cases: [Record<string, unknown>, Partial<MetaFields>][] = [
      [{ name: 'echo', arguments: { message: 'hello world' } }, {}],
      [{}, {}],
      [{ uri: 'file:///a "quoted" \\ path\n' }, { token: 'tok"1' }],
      [
        { name: 'x', skipped: undefined, f: () => 1 },
        { token: 3, level: 'debug' },
      ],
      [{ name: '\u00e9\ud83d\ude00' }, { capabilities: { roots: { listChanged: true } } }],
      [{ arguments: [1, null, 'a'] }, { info: { name: 'n\u2028', version: '2' } }],
    ];
    for (const [source, fields] of cases) {
      const { got, want, params, plain } = both(source, { ...BASE, ...fields });
      expect(got).toBe(want);
      expect(JSON.stringify(params)).toBe(JSON.stringify(plain));
      expect(Object.keys(params)).toEqual(Object.keys(plain));
    }
  });

  it('copies a field named __proto__ as the spread does, without changing the prototype', () => {
    const source = JSON.parse('{"__proto__":{"a":1},"b":2}') as Record<string, unknown>;
    const { got, want, params } = both(source, BASE);
    expect(got).toBe(want);
    expect(Object.keys(params)).toEqual(['__proto__', 'b', '_meta']);
  });

  it('serializes the source as it is when encoded', () => {
    const args: Record<string, unknown> = { a: 1 };
    const source = { name: 'echo', arguments: args };
    const texts = new MetaTexts();
    const params = metaParams(source, metaObject(BASE), texts.text(BASE));
    args['b'] = 2;
    expect(encode(requestMessage(1, 'tools/call', params))).toBe(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { ...source, _meta: metaObject(BASE) },
      }),
    );
  });

  it('keeps its texts per revision and info object, and follows a change of either', () => {
    const texts = new MetaTexts();
    const first = texts.text(BASE);
    expect(texts.text(BASE)).toBe(first);
    expect(JSON.parse(first)).toEqual(metaObject(BASE));
    const other = { ...BASE, revision: '2027-01-01', info: { name: 'other', version: '2' } };
    expect(JSON.parse(texts.text(other))).toEqual(metaObject(other));
    expect(JSON.parse(texts.text({ ...other, level: 'error' }))).toEqual(
      metaObject({ ...other, level: 'error' }),
    );
  });

  it('keeps the whole text for the own capabilities of the client, never for a per-call object', () => {
    const texts = new MetaTexts();
    const own = { roots: { listChanged: true } };
    const kept = texts.text({ ...BASE, capabilities: own });
    expect(texts.text({ ...BASE, capabilities: own })).toBe(kept);
    expect(JSON.parse(kept)).toEqual(metaObject({ ...BASE, capabilities: own }));
    const given: Record<string, unknown> = { sampling: {} };
    const fields = { ...BASE, capabilities: given, ownCapabilities: false };
    expect(JSON.parse(texts.text(fields))).toEqual(metaObject(fields));
    given['elicitation'] = {};
    expect(JSON.parse(texts.text(fields))).toEqual(metaObject(fields));
    // Another object, a token, a level, a revision or an info: each written as it is.
    for (const other of [
      { ...BASE, capabilities: {} },
      { ...BASE, capabilities: own, token: 5 },
      { ...BASE, capabilities: own, level: 'info' },
      { ...BASE, capabilities: own, revision: '2027-01-01' },
      { ...BASE, capabilities: own, info: { name: 'other', version: '3' } },
    ]) {
      expect(JSON.parse(texts.text(other))).toEqual(metaObject(other));
    }
    expect(texts.text({ ...BASE, capabilities: own })).toBe(kept);
  });

  it('takes plain objects without their own _meta or toJSON only', () => {
    expect(takesMeta({ name: 'x' })).toBe(true);
    expect(takesMeta({ _meta: {} })).toBe(false);
    expect(takesMeta({ toJSON: () => ({}) })).toBe(false);
    expect(takesMeta(Object.create(null) as Record<string, unknown>)).toBe(false);
    class Params {
      name = 'x';
    }
    expect(takesMeta(new Params() as unknown as Record<string, unknown>)).toBe(false);
  });
});

describe('requestMessage', () => {
  it('is the plain request for plain params, and escapes what it writes itself', () => {
    expect(requestMessage(1, 'ping')).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(requestMessage('a', 'm', { x: 1 })).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      method: 'm',
      params: { x: 1 },
    });
    const params = metaParams({}, metaObject(BASE), new MetaTexts().text(BASE));
    for (const [id, method] of [
      ['id "quoted"\\', 'tools/call'],
      ['\u0001', 'weird\nmethod'],
      [42, 'x'.repeat(200)],
    ] as const) {
      const message = requestMessage(id, method, params);
      expect(encode(message)).toBe(
        JSON.stringify({ jsonrpc: '2.0', id, method, params: { _meta: metaObject(BASE) } }),
      );
      expect(Object.keys(message)).toEqual(['jsonrpc', 'id', 'method', 'params']);
    }
  });
});
