import { describe, expect, it } from 'vitest';
import {
  TOOL_NAME_MAX_LENGTH,
  checkMetaKey,
  checkToolName,
  isReservedMetaPrefix,
  isValidToolName,
} from './names.js';

const codes = (problems: readonly { code: string }[]): string[] => problems.map((p) => p.code);

describe('checkToolName', () => {
  it('accepts the spec examples and every allowed character', () => {
    for (const name of [
      'getUser',
      'DATA_EXPORT_v2',
      'admin.tools.list',
      'get_weather',
      'a',
      '0',
      '_',
      '-',
      '.',
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.',
    ]) {
      expect(checkToolName(name), name).toEqual([]);
      expect(isValidToolName(name), name).toBe(true);
    }
  });

  it('rejects an empty name', () => {
    expect(checkToolName('')).toEqual([{ code: 'empty', message: 'is empty' }]);
    expect(isValidToolName('')).toBe(false);
  });

  it('allows 128 characters and rejects 129', () => {
    expect(TOOL_NAME_MAX_LENGTH).toBe(128);
    expect(checkToolName('a'.repeat(128))).toEqual([]);
    expect(isValidToolName('a'.repeat(128))).toBe(true);
    expect(checkToolName('a'.repeat(129))).toEqual([
      { code: 'too-long', message: 'is 129 characters long; the limit is 128' },
    ]);
    expect(isValidToolName('a'.repeat(129))).toBe(false);
  });

  it('names the offending characters, once each, in order', () => {
    expect(checkToolName('user-profile/update')).toEqual([
      {
        code: 'invalid-char',
        message: "contains character '/'; only A-Z, a-z, 0-9, '_', '-' and '.' are allowed",
      },
    ]);
    const [problem] = checkToolName('a b,c d@e,f');
    expect(problem?.code).toBe('invalid-char');
    expect(problem?.message).toContain("characters U+0020, ',', '@';");
  });

  it('rejects spaces, commas, slashes, other punctuation and non-ASCII', () => {
    for (const name of [
      'get user',
      'a,b',
      'a/b',
      'a:b',
      'a@b',
      'a+b',
      'a\tb',
      'a\nb',
      'tool!',
      'café',
      'ａ', // fullwidth
      '😀',
      '\u0000',
    ]) {
      expect(codes(checkToolName(name)), name).toEqual(['invalid-char']);
      expect(isValidToolName(name), name).toBe(false);
    }
    expect(checkToolName('\u0000')[0]?.message).toContain('U+0000');
    expect(checkToolName('😀')[0]?.message).toContain("'😀'");
  });

  it('is case-sensitive: it neither folds nor rejects case', () => {
    expect(checkToolName('GetUser')).toEqual([]);
    expect(checkToolName('getuser')).toEqual([]);
  });

  it('reports length and characters together, counting code points', () => {
    expect(codes(checkToolName(`${'a'.repeat(128)} `))).toEqual(['too-long', 'invalid-char']);
    expect(codes(checkToolName('😀'.repeat(128)))).toEqual(['invalid-char']);
    expect(checkToolName('😀'.repeat(129))[0]?.message).toBe(
      'is 129 characters long; the limit is 128',
    );
  });

  it('agrees with isValidToolName', () => {
    const samples = ['', 'a', 'a b', 'a'.repeat(128), 'a'.repeat(129), 'x.y-z_1', 'é', '/'];
    for (const name of samples) {
      expect(isValidToolName(name), name).toBe(checkToolName(name).length === 0);
    }
  });
});

describe('checkMetaKey', () => {
  it('accepts keys with and without a prefix, and an empty name', () => {
    for (const key of [
      '',
      'progressToken',
      'a',
      '7',
      'x-y_z.w',
      'io.modelcontextprotocol/related-task',
      'com.example/my-key',
      'com.example/',
      'a/b',
      'a1.b-2.c/name',
      'dev.mcp/x',
    ]) {
      expect(checkMetaKey(key), key).toEqual([]);
    }
  });

  it('rejects an empty prefix', () => {
    expect(checkMetaKey('/name')).toEqual([
      { code: 'invalid-prefix', message: "has an empty prefix: '/' must follow a label" },
    ]);
    expect(codes(checkMetaKey('/'))).toEqual(['invalid-prefix']);
  });

  it('rejects empty labels', () => {
    expect(checkMetaKey('com..example/x')).toEqual([
      { code: 'invalid-label', message: 'prefix label 2 is empty' },
    ]);
    expect(codes(checkMetaKey('.com/x'))).toEqual(['invalid-label']);
    expect(codes(checkMetaKey('com./x'))).toEqual(['invalid-label']);
  });

  it('requires labels to start with a letter', () => {
    expect(checkMetaKey('1com.example/x')).toEqual([
      { code: 'invalid-label', message: 'prefix label 1 "1com" must start with a letter' },
    ]);
    expect(codes(checkMetaKey('com.-x/y'))).toEqual(['invalid-label']);
  });

  it('requires labels to end with a letter or digit', () => {
    expect(checkMetaKey('com.example-/x')).toEqual([
      {
        code: 'invalid-label',
        message: 'prefix label 2 "example-" must end with a letter or digit',
      },
    ]);
    expect(checkMetaKey('com.ex4/x')).toEqual([]);
  });

  it('allows only letters, digits and hyphens inside labels', () => {
    expect(checkMetaKey('com.my-app.v2/x')).toEqual([]);
    expect(checkMetaKey('com.my_app/x')).toEqual([
      {
        code: 'invalid-label',
        message: `prefix label 2 "my_app" contains character '_'; labels hold letters, digits and '-'`,
      },
    ]);
    expect(codes(checkMetaKey('com.ex ample/x'))).toEqual(['invalid-label']);
    expect(codes(checkMetaKey('com.exämple/x'))).toEqual(['invalid-label']);
  });

  it('reports every bad label', () => {
    expect(codes(checkMetaKey('1a..b_/x'))).toEqual([
      'invalid-label',
      'invalid-label',
      'invalid-label',
    ]);
  });

  it('requires the name to start and end with a letter or digit', () => {
    expect(checkMetaKey('-name')).toEqual([
      {
        code: 'invalid-start',
        message: "name starts with character '-'; it must start with a letter or digit",
      },
    ]);
    expect(checkMetaKey('name.')).toEqual([
      {
        code: 'invalid-end',
        message: "name ends with character '.'; it must end with a letter or digit",
      },
    ]);
    expect(codes(checkMetaKey('com.example/_x_'))).toEqual(['invalid-start', 'invalid-end']);
    expect(codes(checkMetaKey('-'))).toEqual(['invalid-start', 'invalid-end']);
  });

  it('allows only letters, digits, hyphens, underscores and dots in the name', () => {
    expect(checkMetaKey('a b')).toEqual([
      {
        code: 'invalid-char',
        message: "contains character U+0020; names hold letters, digits, '-', '_' and '.'",
      },
    ]);
    expect(codes(checkMetaKey('a:b'))).toEqual(['invalid-char']);
    expect(codes(checkMetaKey('café'))).toEqual(['invalid-char']);
  });

  it('allows at most one slash (a second one is in the name)', () => {
    expect(checkMetaKey('a/b/c')).toEqual([
      {
        code: 'invalid-char',
        message: "contains character '/'; names hold letters, digits, '-', '_' and '.'",
      },
    ]);
  });

  it('reports prefix and name problems together', () => {
    expect(codes(checkMetaKey('1x/-y'))).toEqual(['invalid-label', 'invalid-start']);
  });
});

describe('isReservedMetaPrefix', () => {
  it('reserves prefixes whose second label is modelcontextprotocol or mcp', () => {
    for (const key of [
      'io.modelcontextprotocol/',
      'io.modelcontextprotocol/related-task',
      'dev.mcp/',
      'dev.mcp/x',
      'org.modelcontextprotocol.api/',
      'com.mcp.tools/x',
      'IO.ModelContextProtocol/x',
      'dev.MCP/x',
    ]) {
      expect(isReservedMetaPrefix(key), key).toBe(true);
    }
  });

  it('does not reserve other prefixes or unprefixed keys', () => {
    for (const key of [
      'com.example.mcp/',
      'mcp/',
      'modelcontextprotocol.io/',
      'mcp.dev/x',
      'com.example/x',
      'com.mcpx/x',
      'io.modelcontextprotocol',
      'progressToken',
      'mcp',
      '',
      'x/io.mcp/y',
    ]) {
      expect(isReservedMetaPrefix(key), key).toBe(false);
    }
  });
});
