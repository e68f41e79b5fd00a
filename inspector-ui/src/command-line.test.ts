import { describe, expect, it } from 'vitest';
import { joinCommandLine, parseHeaderLines, splitCommandLine } from './command-line';

describe('splitCommandLine', () => {
  it('splits on whitespace and honours both quotes', () => {
    expect(splitCommandLine('  node  server.js --port 3 ')).toEqual([
      'node',
      'server.js',
      '--port',
      '3',
    ]);
    expect(splitCommandLine(`"/opt/my node/bin" 'a b' "say \\"hi\\"" x\\ y ""`)).toEqual([
      '/opt/my node/bin',
      'a b',
      'say "hi"',
      'x y',
      '',
    ]);
  });

  it('reads back what joinCommandLine (and JSON.stringify) wrote', () => {
    const words = ['/usr/bin/node', 'C:\\path with space\\x.js', "it's", 'tab\there'];
    expect(splitCommandLine(joinCommandLine(words))).toEqual(words);
  });

  it('refuses an unclosed quote', () => {
    expect(() => splitCommandLine('node "x')).toThrow(/unclosed " quote/);
  });
});

describe('parseHeaderLines', () => {
  it('reads Name: value lines and skips blank ones', () => {
    expect(parseHeaderLines('Authorization: Bearer a:b\n\n X-Api-Key :  k \r\n')).toEqual({
      Authorization: 'Bearer a:b',
      'X-Api-Key': 'k',
    });
  });

  it('names the line it cannot read', () => {
    expect(() => parseHeaderLines('A: 1\nnot a header')).toThrow(/line 2/);
    expect(() => parseHeaderLines(': x')).toThrow(/line 1/);
  });
});
