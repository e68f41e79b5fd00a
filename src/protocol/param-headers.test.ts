import { describe, expect, it } from 'vitest';
import {
  checkParamHeaders,
  decodeHeaderValue,
  encodeHeaderValue,
  paramHeaderValues,
  scanParamHeaders,
} from './param-headers.js';
import type { ParamHeader } from './param-headers.js';

const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

function headersOf(inputSchema: unknown): readonly ParamHeader[] {
  const scan = scanParamHeaders(inputSchema);
  if (!scan.ok) throw new Error(scan.problem);
  return scan.headers;
}

function problemOf(inputSchema: unknown): string {
  const scan = scanParamHeaders(inputSchema);
  if (scan.ok) throw new Error('expected the schema to be refused');
  return scan.problem;
}

describe('scanParamHeaders', () => {
  it('finds annotations on properties at any depth, with their paths and types', () => {
    const headers = headersOf(
      schema({
        region: { type: 'string', 'x-mcp-header': 'Region' },
        limit: { type: ['integer', 'null'], 'x-mcp-header': 'Limit' },
        target: schema({ dryRun: { type: 'boolean', 'x-mcp-header': 'Dry-Run' } }),
        query: { type: 'string' },
      }),
    );
    expect(headers).toEqual([
      { header: 'Mcp-Param-Region', key: 'mcp-param-region', path: ['region'], type: 'string' },
      { header: 'Mcp-Param-Limit', key: 'mcp-param-limit', path: ['limit'], type: 'integer' },
      {
        header: 'Mcp-Param-Dry-Run',
        key: 'mcp-param-dry-run',
        path: ['target', 'dryRun'],
        type: 'boolean',
      },
    ]);
  });

  it('has nothing to say about schemas without annotations', () => {
    expect(scanParamHeaders(schema({ a: { type: 'string' } }))).toEqual({ ok: true, headers: [] });
    expect(scanParamHeaders(undefined)).toEqual({ ok: true, headers: [] });
    // A property named like the annotation, and data that holds the key, are not annotations.
    const lookalike = schema({
      'x-mcp-header': { type: 'string', default: { 'x-mcp-header': 1 } },
    });
    expect(scanParamHeaders(lookalike)).toEqual({ ok: true, headers: [] });
  });

  it('refuses the definitions clients must drop (the conformance suite cases)', () => {
    const one = (annotation: unknown, type: unknown = 'string') =>
      problemOf(schema({ value: { type, 'x-mcp-header': annotation } }));
    expect(one('')).toMatch(/must not be empty/);
    expect(one(7)).toMatch(/must not be empty/);
    expect(one('My Region')).toMatch(/not an HTTP token/);
    expect(one('Region:Primary')).toMatch(/not an HTTP token/);
    expect(one('Région')).toMatch(/not an HTTP token/);
    expect(one('Region\t1')).toMatch(/not an HTTP token/);
    expect(one('Region\r\nX-Injected: 1')).toMatch(/not an HTTP token/);
    for (const type of ['object', 'array', 'null', 'number', ['string', 'integer'], 'any']) {
      expect(one('Data', type)).toMatch(/string, integer or boolean only/);
    }
    const untyped = schema({ value: { 'x-mcp-header': 'Data' } });
    expect(problemOf(untyped)).toMatch(/string, integer or boolean only/);
    const twice = (a: string, b: string) =>
      problemOf(
        schema({
          field1: { type: 'string', 'x-mcp-header': a },
          field2: { type: 'string', 'x-mcp-header': b },
        }),
      );
    expect(twice('Region', 'Region')).toMatch(/not unique/);
    expect(twice('MyField', 'myfield')).toMatch(/not unique/);
  });

  it('refuses annotations not reachable through properties alone', () => {
    const annotated = { type: 'string', 'x-mcp-header': 'Region' };
    const cases = [
      { ...annotated, type: 'object' }, // the root itself (and not a primitive)
      schema({ list: { type: 'array', items: annotated } }),
      schema({}, { anyOf: [schema({ region: annotated })] }),
      schema({}, { $defs: { region: annotated } }),
      schema({}, { if: schema({ region: annotated }) }),
      schema({}, { additionalProperties: annotated }),
    ];
    for (const inputSchema of cases) {
      expect(problemOf(inputSchema)).toMatch(/reachable|string, integer or boolean/);
    }
  });
});

describe('header values', () => {
  it('keeps plain ASCII and encodes the rest with the Base64 sentinel (spec examples)', () => {
    expect(encodeHeaderValue('us-west1')).toBe('us-west1');
    expect(encodeHeaderValue('a b')).toBe('a b');
    expect(encodeHeaderValue('us west 1')).toBe('us west 1');
    expect(encodeHeaderValue('')).toBe('');
    expect(encodeHeaderValue('Hello, 世界')).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
    expect(encodeHeaderValue(' padded ')).toBe('=?base64?IHBhZGRlZCA=?=');
    expect(encodeHeaderValue('\tindented')).toBe('=?base64?CWluZGVudGVk?=');
    expect(encodeHeaderValue('tab\there')).toBe('=?base64?dGFiCWhlcmU=?=');
    expect(encodeHeaderValue('line1\nline2')).toBe('=?base64?bGluZTEKbGluZTI=?=');
    expect(encodeHeaderValue('line1\r\nline2')).toBe('=?base64?bGluZTENCmxpbmUy?=');
    expect(encodeHeaderValue('=?base64?literal?=')).toBe('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
  });

  it('round-trips every string', () => {
    for (const value of ['', 'a', ' x', 'x ', '世界', 'a\u0000b', '=?base64?SGk=?=', '😀']) {
      expect(decodeHeaderValue(encodeHeaderValue(value))).toBe(value);
    }
  });

  it('decodes encoded values and passes plain ones through', () => {
    expect(decodeHeaderValue('get_weather')).toBe('get_weather');
    expect(decodeHeaderValue('=?base64?SGVsbG8sIOS4lueVjA==?=')).toBe('Hello, 世界');
    expect(decodeHeaderValue('=?base64?IHBhZGRlZCA=?=')).toBe(' padded ');
    expect(decodeHeaderValue('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=')).toBe('=?base64?literal?=');
  });

  it('treats a value without the exact wrapper as literal and refuses bad Base64', () => {
    expect(decodeHeaderValue('SGVsbG8=')).toBe('SGVsbG8=');
    expect(decodeHeaderValue('=?base64?SGVsbG8=')).toBe('=?base64?SGVsbG8=');
    expect(decodeHeaderValue('=?BASE64?eA==?=')).toBe('=?BASE64?eA==?=');
    expect(decodeHeaderValue('=?base64?SGVsbG8?=')).toBeUndefined(); // padding
    expect(decodeHeaderValue('=?base64?SGVs!!!bG8=?=')).toBeUndefined(); // alphabet
    expect(decodeHeaderValue('=?base64?not base64?=')).toBeUndefined();
  });

  it('refuses non-UTF-8 bytes and characters a header cannot hold', () => {
    expect(decodeHeaderValue('=?base64?/w==?=')).toBeUndefined();
    expect(decodeHeaderValue('caf\u00e9')).toBeUndefined();
    expect(decodeHeaderValue('a\nb')).toBeUndefined();
  });
});

describe('paramHeaderValues and checkParamHeaders', () => {
  const headers = headersOf(
    schema({
      region: { type: 'string', 'x-mcp-header': 'Region' },
      priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
      target: schema({ zone: { type: 'string', 'x-mcp-header': 'Zone' } }),
      query: { type: 'string' },
    }),
  );
  const lower = (values: Record<string, string>) =>
    Object.fromEntries(Object.entries(values).map(([k, v]) => [k.toLowerCase(), v]));

  it('mirrors annotated arguments and omits null, absent and mistyped ones', () => {
    const args = {
      region: 'Zürich',
      priority: 42,
      verbose: null,
      target: { zone: 'b' },
      query: 'q',
    };
    expect(paramHeaderValues(headers, args)).toEqual({
      'Mcp-Param-Region': '=?base64?WsO8cmljaA==?=',
      'Mcp-Param-Priority': '42',
      'Mcp-Param-Zone': 'b',
    });
    expect(paramHeaderValues(headers, { region: 5, priority: 1.5, verbose: 'yes' })).toEqual({});
    expect(paramHeaderValues(headers, { verbose: false })).toEqual({
      'Mcp-Param-Verbose': 'false',
    });
  });

  it('accepts what a client sends, and literal or equivalent encodings', () => {
    const args = { region: 'Zürich', priority: 42, verbose: true, target: { zone: 'b' } };
    const sent = lower(paramHeaderValues(headers, args));
    expect(checkParamHeaders(headers, args, (key) => sent[key])).toBeUndefined();
    const plain: Record<string, string> = {
      ...sent,
      'mcp-param-region': '=?base64?WsO8cmljaA==?=',
      'mcp-param-priority': '42.0',
    };
    expect(checkParamHeaders(headers, args, (key) => plain[key])).toBeUndefined();
    expect(checkParamHeaders(headers, {}, () => undefined)).toBeUndefined();
  });

  it('names the header that is missing, extra, malformed or different', () => {
    const args = { region: 'eu', priority: 7 };
    const check = (values: Record<string, string>) =>
      checkParamHeaders(headers, args, (key) => values[key]);
    expect(check({ 'mcp-param-priority': '7' })).toBe(
      'missing Mcp-Param-Region header (arguments.region has a value)',
    );
    expect(check({ 'mcp-param-region': 'us', 'mcp-param-priority': '7' })).toBe(
      'Mcp-Param-Region header does not match arguments.region',
    );
    expect(check({ 'mcp-param-region': 'eu', 'mcp-param-priority': '0x7' })).toMatch(/Priority/);
    expect(check({ 'mcp-param-region': '=?base64?ZXU?=', 'mcp-param-priority': '7' })).toBe(
      'malformed Mcp-Param-Region header',
    );
    expect(
      check({ 'mcp-param-region': 'eu', 'mcp-param-priority': '7', 'mcp-param-verbose': 'true' }),
    ).toBe('Mcp-Param-Verbose header is present but arguments.verbose has no value');
  });

  it('leaves arguments of the wrong type to input validation', () => {
    expect(checkParamHeaders(headers, { region: 12 }, () => undefined)).toBeUndefined();
  });
});
