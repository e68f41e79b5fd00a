// utilix's logic without MCP: the address policy, the JSON formatter, email syntax, and the
// host name pattern check_ssl_certificate enforces.
import { describe, expect, it } from 'vitest';
import { checkEmailSyntax } from '../email.js';
import { JsonSyntaxError, MAX_JSON_DEPTH, formatJson } from '../json-format.js';
import { HOSTNAME_PATTERN, SERVERNAME_PATTERN } from '../certificate.js';
import { compileTargetPolicy, parseTargetList } from '../targets.js';

describe('target policy', () => {
  it('allows everything by default', () => {
    const check = compileTargetPolicy();
    expect(check.refusal('127.0.0.1')).toBeUndefined();
    expect(check.refusal('::1')).toBeUndefined();
  });

  it('denies the private ranges, IPv4-mapped IPv6 included, and allows exceptions', () => {
    const check = compileTargetPolicy({ deny: ['private'], allow: ['10.1.2.3'] });
    for (const address of [
      '127.0.0.1',
      '10.0.0.5',
      '172.16.9.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
    ]) {
      expect(check.refusal(address), address).toMatch(/not an address this server may connect to/);
    }
    for (const address of ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '10.1.2.3']) {
      expect(check.refusal(address), address).toBeUndefined();
    }
  });

  it('with allow alone, allows only those', () => {
    const check = compileTargetPolicy({ allow: ['127.0.0.0/8', '2001:db8::/32'] });
    expect(check.refusal('127.1.2.3')).toBeUndefined();
    expect(check.refusal('2001:db8:1::5')).toBeUndefined();
    expect(check.refusal('93.184.215.14')).toBeDefined();
    expect(check.refusal('2001:db9::1')).toBeDefined();
  });

  it('refuses malformed entries by name, and parses lists', () => {
    expect(() => compileTargetPolicy({ deny: ['10.0.0.0/33'] })).toThrow(/"10\.0\.0\.0\/33"/);
    expect(() => compileTargetPolicy({ allow: ['example.com'] })).toThrow(/invalid address range/);
    expect(parseTargetList('private, 192.0.2.0/24 ::1')).toEqual([
      'private',
      '192.0.2.0/24',
      '::1',
    ]);
    expect(parseTargetList('')).toEqual([]);
    expect(parseTargetList(undefined)).toBeUndefined();
  });
});

describe('formatJson', () => {
  const format = (text: string, indent = 2, sortKeys = false) =>
    formatJson(text, { indent, sortKeys });

  it('pretty-prints, minifies and sorts keys, keeping numbers and strings exact', () => {
    const text =
      ' {"b": [1, 2.50, {"d":null}], "a": "x\\u00e9\\n", "big": 12345678901234567890 , "e":{}, "f":[]}';
    expect(format(text, 0)).toBe(
      '{"b":[1,2.50,{"d":null}],"a":"x\\u00e9\\n","big":12345678901234567890,"e":{},"f":[]}',
    );
    expect(format(text, 2, true)).toBe(
      '{\n  "a": "x\\u00e9\\n",\n  "b": [\n    1,\n    2.50,\n    {\n      "d": null\n    }\n  ],\n  "big": 12345678901234567890,\n  "e": {},\n  "f": []\n}',
    );
    expect(format('"only"', 4)).toBe('"only"');
    expect(format('{"__proto__":1,"a":2}', 0, true)).toBe('{"__proto__":1,"a":2}');
  });

  it('names the line and column of invalid JSON', () => {
    const cases: [string, number, number, RegExp][] = [
      ['{\n  "a": 1,\n  "b": }', 3, 8, /expected a value/],
      ['{"a": 1,}', 1, 9, /expected a property name/],
      ["{'a': 1}", 1, 2, /property name in double quotes/],
      ['[1 2]', 1, 4, /expected "," or "]"/],
      ['{"a" 1}', 1, 6, /expected ":"/],
      ['[01]', 1, 3, /invalid number/],
      ['"tab\there"', 1, 5, /control character/],
      ['"open', 1, 6, /unterminated string/],
      ['[1]\n x', 2, 2, /after the value/],
      ['  ', 1, 3, /empty/],
      ['nul', 1, 1, /expected a value/],
      ['{"a":"\\x"}', 1, 7, /invalid escape/],
    ];
    for (const [text, line, column, problem] of cases) {
      let error: unknown;
      try {
        format(text);
      } catch (thrown) {
        error = thrown;
      }
      expect(error, text).toBeInstanceOf(JsonSyntaxError);
      expect(error, text).toMatchObject({ line, column, problem: expect.stringMatching(problem) });
    }
  });

  it('refuses nesting past its depth limit and output past its size limit', () => {
    const deep = '['.repeat(MAX_JSON_DEPTH + 2) + ']'.repeat(MAX_JSON_DEPTH + 2);
    expect(() => format(deep)).toThrow(/nested deeper/);
    expect(() => formatJson('[[[[1,2,3]]]]', { indent: 8, sortKeys: false }, 40)).toThrow(
      /longer than 40 characters/,
    );
  });
});

describe('checkEmailSyntax', () => {
  it('accepts practical valid addresses', () => {
    for (const email of [
      'jane.doe@example.com',
      'a+tag@sub.example.co.uk',
      "o'brien!#$%&*/=?^_`{|}~-@example.com",
      '"john doe"@example.com',
      '"a@b\\"c"@example.com',
      'user@[192.0.2.1]',
      'user@[IPv6:2001:db8::1]',
      'jürgen@bücher.example',
      'x@xn--bcher-kva.example',
      `${'a'.repeat(64)}@example.com`,
    ]) {
      expect(checkEmailSyntax(email), email).toMatchObject({ valid: true, reason: 'syntax ok' });
    }
    expect(checkEmailSyntax('a@Bücher.Example')).toMatchObject({
      asciiDomain: 'xn--bcher-kva.example',
    });
    expect(checkEmailSyntax('jürgen@example.com').smtputf8).toBe(true);
  });

  it('refuses invalid addresses with the reason', () => {
    const cases: [string, RegExp][] = [
      ['plain', /no "@"/],
      ['@example.com', /local part is empty/],
      ['jane@', /domain is missing/],
      ['.jane@example.com', /starts with a dot/],
      ['jane.@example.com', /ends with a dot/],
      ['ja..ne@example.com', /two dots in a row/],
      ['john doe@example.com', /whitespace/],
      ['a(comment)@example.com', /comments/],
      ['a,b@example.com', /"," is not allowed/],
      ['"unclosed@example.com', /quoted local part is malformed/],
      [`${'a'.repeat(65)}@example.com`, /65 octets long \(at most 64\)/],
      [
        `a@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.com`,
        /the domain is longer than 253/,
      ],
      [
        `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(60)}.com`,
        /longer than 254 octets/,
      ],
      ['jane@localhost', /has no dot/],
      ['jane@example..com', /two dots in a row/],
      ['jane@-example.com', /inner hyphens/],
      ['jane@exa_mple.com', /inner hyphens/],
      ['jane@1.2.3.4', /ends in a number/],
      [`jane@${'a'.repeat(64)}.com`, /longer than 63/],
      ['jane@[300.1.1.1]', /not an IPv4 address/],
      ['jane@[IPv6:zz::1]', /not an IPv6 address/],
    ];
    for (const [email, reason] of cases) {
      const result = checkEmailSyntax(email);
      expect(result.valid, email).toBe(false);
      expect(result.reason, email).toMatch(reason);
    }
  });
});

describe('the hostname pattern', () => {
  const host = new RegExp(HOSTNAME_PATTERN, 'u');
  const sni = new RegExp(SERVERNAME_PATTERN, 'u');

  it('takes DNS names and IP literals', () => {
    for (const name of [
      'example.com',
      'localhost',
      'a-b.c0.example',
      'xn--bcher-kva.example',
      'bücher.example',
      '127.0.0.1',
      '::1',
      '2001:db8::8a2e:370:7334',
      '[::1]',
      '::ffff:192.0.2.1',
    ]) {
      expect(host.test(name), name).toBe(true);
    }
  });

  it('refuses URLs, ports, paths, spaces and what is neither', () => {
    for (const name of [
      'https://example.com/path',
      'example.com:443',
      'example.com/path',
      'example .com',
      ' example.com',
      '',
      '-example.com',
      'example-.com',
      'exa_mple.com',
      '256.1.1.1',
      '1.2.3',
      'cafe.be:443',
      ':::1',
      'user@example.com',
      `${'a'.repeat(64)}.com`,
    ]) {
      expect(host.test(name), name).toBe(false);
    }
    expect(sni.test('example.com')).toBe(true);
    expect(sni.test('127.0.0.1')).toBe(false);
  });
});
