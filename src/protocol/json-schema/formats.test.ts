// `format` assertions: each known format with valid and invalid strings (after the official test
// suite's optional/format cases), plus the options and non-string behaviour.
import { describe, expect, it } from 'vitest';
import { compileRegExp, FORMATS } from './formats.js';
import { compileJsonSchema } from './validator.js';

export const FORMAT_CASES: Record<string, [string, boolean][]> = {
  'date-time': [
    ['1963-06-19T08:30:06.283185Z', true],
    ['1963-06-19T08:30:06Z', true],
    ['1937-01-01T12:00:27.87+00:20', true],
    ['1990-12-31T15:59:50.123-08:00', true],
    ['1998-12-31T23:59:60Z', true],
    ['1998-12-31T15:59:60.123-08:00', true],
    ['1963-06-19t08:30:06.283185z', true],
    ['1998-12-31T23:58:60Z', false],
    ['1998-12-31T22:59:60Z', false],
    ['1990-02-31T15:59:59.123-08:00', false],
    ['1990-12-31T15:59:59-24:00', false],
    ['06/19/1963 08:30:06 PST', false],
    ['2013-350T01:01:01', false],
    ['1963-6-19T08:30:06.283185Z', false],
    ['1963-06-19T08:30:06', false],
  ],
  date: [
    ['1963-06-19', true],
    ['2020-01-31', true],
    ['2020-02-29', true],
    ['2000-02-29', true],
    ['2020-01-32', false],
    ['2021-02-29', false],
    ['1900-02-29', false],
    ['2020-04-31', false],
    ['2020-13-01', false],
    ['1998-1-20', false],
    ['06/19/1963', false],
  ],
  time: [
    ['08:30:06Z', true],
    ['08:30:06.5+01:00', true],
    ['23:59:60Z', true],
    ['01:29:60+01:30', true],
    ['08:30:06', false],
    ['24:00:00Z', false],
    ['22:59:60Z', false],
    ['08:30:06+24:00', false],
  ],
  email: [
    ['joe.bloggs@example.com', true],
    ['te~st@example.com', true],
    ['"joe bloggs"@example.com', true],
    ['joe.bloggs@[127.0.0.1]', true],
    ['joe.bloggs@[IPv6:::1]', true],
    ['2962', false],
    ['.test@example.com', false],
    ['test.@example.com', false],
    ['te..st@example.com', false],
    ['joe.bloggs@[127.0.0.300]', false],
    ['joe@-example.com', false],
  ],
  hostname: [
    ['www.example.com', true],
    ['a', true],
    ['host-name', true],
    ['1host', true],
    [`${'a'.repeat(63)}.com`, true],
    ['-a-host-name-that-starts-with--', false],
    ['not_a_valid_host_name', false],
    ['', false],
    ['.', false],
    [`${'a'.repeat(64)}.com`, false],
  ],
  ipv4: [
    ['192.168.0.1', true],
    ['1.2.3.4', true],
    ['127.0.0.0.1', false],
    ['256.256.256.256', false],
    ['127.0', false],
    ['0x7f000001', false],
    ['087.10.0.1', false],
    ['192.168.1.0/24', false],
  ],
  ipv6: [
    ['::1', true],
    ['::', true],
    ['::abef', true],
    ['::42:ff:1', true],
    ['d6::', true],
    ['1:2:3:4:5:6:7:8', true],
    ['1::d6:192.168.0.1', true],
    ['::ffff:192.168.0.1', true],
    ['12345::', false],
    ['::laptop', false],
    [':2:3:4:5:6:7:8', false],
    ['1:2:3:4:5:6:7:', false],
    ['1::d6::42', false],
    ['1::2:192.168.256.1', false],
    ['fe80::a%eth1', false],
    ['1:2:3:4:5:6:7:8:9', false],
  ],
  uri: [
    ['http://foo.bar/?baz=qux#quux', true],
    ['http://foo.com/blah_(wikipedia)_blah#cite-1', true],
    ['http://foo.bar/?q=Test%20URL-encoded%20stuff', true],
    ["http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com", true],
    ['ldap://[2001:db8::7]/c=GB?objectClass?one', true],
    ['mailto:John.Doe@example.com', true],
    ['urn:oasis:names:specification:docbook:dtd:xml:4.1.2', true],
    ['//foo.bar/?baz=qux#quux', false],
    ['\\\\WINDOWS\\fileshare', false],
    ['abc', false],
    ['http:// shouldfail.com', false],
    ['bar,baz:foo', false],
    ['http://2001:0db8:85a3:0000:0000:8a2e:0370:7334', false],
    ['http://ƒøø.ßår/?∂éœ=πîx#πîüx', false],
    ['http://example.com/%zz', false],
  ],
  'uri-reference': [
    ['http://foo.bar/?baz=qux#quux', true],
    ['//foo.bar/?baz=qux#quux', true],
    ['/abc', true],
    ['abc', true],
    ['#fragment', true],
    ['\\\\WINDOWS\\fileshare', false],
    ['#frag\\ment', false],
    ['#fr#ag', false],
  ],
  uuid: [
    ['2EB8AA08-AA98-11EA-B4AA-73B441D16380', true],
    ['2eb8aa08-aa98-11ea-b4aa-73b441d16380', true],
    ['00000000-0000-0000-0000-000000000000', true],
    ['2eb8aa08-aa98-11ea-b4aa-73b441d1638', false],
    ['2eb8aa08aa9811eab4aa73b441d16380', false],
    ['2eb8aa08-aa98-11ea-b4aa-73b441d1638g', false],
  ],
  regex: [
    ['([abc])+\\s+$', true],
    ['^[a-z]+\\_$', true],
    ['^(abc]', false],
  ],
  byte: [
    ['aGVsbG8=', true],
    ['aGVsbA==', true],
    ['', true],
    ['aGVsbG8', false],
    ['!!!!', false],
  ],
  'json-pointer': [
    ['/foo/0', true],
    ['', true],
    ['/a~1b', true],
    ['foo', false],
    ['/a~2', false],
  ],
  duration: [
    ['P4DT12H30M5S', true],
    ['P1W', true],
    ['PT1M', true],
    ['P', false],
    ['PT', false],
    ['P1Y2W', false],
  ],
};

describe('format (asserted)', () => {
  for (const [format, cases] of Object.entries(FORMAT_CASES)) {
    it(format, () => {
      const validate = compileJsonSchema({ format });
      for (const [text, valid] of cases) {
        expect({ text, valid: validate(text).valid }).toEqual({ text, valid });
      }
    });
  }

  it('knows every format it has cases for', () => {
    for (const format of Object.keys(FORMAT_CASES)) expect(FORMATS.has(format)).toBe(true);
  });

  it('passes non-strings and ignores unknown formats', () => {
    const email = compileJsonSchema({ format: 'email' });
    expect(email(12).valid).toBe(true);
    expect(email({}).valid).toBe(true);
    expect(email(null).valid).toBe(true);
    expect(compileJsonSchema({ format: 'x-custom' })('anything').valid).toBe(true);
  });

  it('treats formats as annotations when asked', () => {
    const validate = compileJsonSchema({ format: 'email' }, { formats: 'annotate' });
    expect(validate('not an email').valid).toBe(true);
  });

  it('reports a format mismatch with the value', () => {
    const result = compileJsonSchema({ format: 'date' })('2021-02-29');
    expect(result.issues).toEqual([
      {
        path: [],
        pointer: '',
        keyword: 'format',
        message: 'expected date string, received "2021-02-29"',
        expected: 'date string',
        received: '"2021-02-29"',
      },
    ]);
  });
});

describe('compileRegExp', () => {
  it('prefers the u flag and falls back to none', () => {
    expect(compileRegExp('^\\p{L}$')?.flags).toBe('u');
    expect(compileRegExp('a\\_b')?.flags).toBe('');
    expect(compileRegExp('(')).toBeUndefined();
  });
});
