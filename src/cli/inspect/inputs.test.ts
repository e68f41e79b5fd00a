import { describe, expect, it } from 'vitest';
import { parseMode, parseRoots, parseTarget, targetView } from './inputs.js';

describe('the inputs of the page', () => {
  it('reads targets and refuses malformed ones', () => {
    expect(parseTarget({ kind: 'url', url: 'http://127.0.0.1:3000/mcp' })).toEqual({
      kind: 'url',
      url: 'http://127.0.0.1:3000/mcp',
      headers: {},
    });
    expect(parseTarget({ kind: 'command', command: 'node', args: ['s.js'] })).toEqual({
      kind: 'command',
      command: 'node',
      args: ['s.js'],
    });
    for (const bad of [
      undefined,
      { kind: 'url' },
      { kind: 'url', url: 'ftp://x' },
      { kind: 'url', url: 'http://x', headers: { a: 1 } },
      { kind: 'url', url: 'http://x', headers: { 'bad name': 'v' } },
      { kind: 'command', command: ' ' },
      { kind: 'command', command: 'node', args: 'x' },
    ]) {
      expect(() => parseTarget(bad), JSON.stringify(bad)).toThrow();
    }
  });

  it('reads modes and roots', () => {
    expect(parseMode(undefined)).toBeUndefined();
    expect(parseMode('auto')).toBe('auto');
    expect(parseMode('2024-11-05')).toBe('2024-11-05');
    expect(() => parseMode('latest')).toThrow(/mode/);
    expect(parseRoots([{ uri: 'file:///a' }, { uri: 'file:///b', name: 'b' }])).toEqual([
      { uri: 'file:///a' },
      { uri: 'file:///b', name: 'b' },
    ]);
    expect(() => parseRoots({})).toThrow(/list/);
    expect(() => parseRoots([{ uri: 'file:///a', name: 3 }])).toThrow(/name/);
  });

  it('masks secret header values in the view of a target', () => {
    expect(
      targetView({ kind: 'url', url: 'http://x', headers: { Authorization: 'a', Accept: 'b' } }),
    ).toEqual({ kind: 'url', url: 'http://x', headers: { Authorization: '•••', Accept: 'b' } });
  });
});
