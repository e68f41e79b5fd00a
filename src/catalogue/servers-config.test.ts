// The one reader of the `mcpServers` format (the host, the gateway and the CLI's --config): what
// it keeps, and the messages of what it refuses, with and without the file's name.
import { describe, expect, it } from 'vitest';
import { parseServersConfig } from './servers-config.js';

describe('parseServersConfig', () => {
  it('reads stdio and HTTP entries, under mcpServers or servers, leaving disabled ones out', () => {
    const entries = {
      run: { command: 'node', args: ['server.js'], env: { A: '1' }, cwd: '/tmp' },
      web: { url: 'https://example.com/mcp', headers: { authorization: 'Bearer x' } },
      off: { command: 'node', disabled: true },
    };
    const expected = {
      run: { command: 'node', args: ['server.js'], env: { A: '1' }, cwd: '/tmp' },
      web: { url: 'https://example.com/mcp', headers: { authorization: 'Bearer x' } },
    };
    expect(parseServersConfig({ mcpServers: entries })).toEqual(expected);
    expect(parseServersConfig({ servers: entries })).toEqual(expected);
  });

  it.each([
    [{}, 'the config has no "mcpServers" object'],
    [{ mcpServers: [] }, 'the config has no "mcpServers" object'],
    [{ mcpServers: { a: 1 } }, 'server "a" is not an object'],
    [{ mcpServers: { a: { args: [] } } }, 'server "a" has neither "command" nor "url"'],
    [{ mcpServers: { a: { command: '' } } }, 'server "a" has neither "command" nor "url"'],
    [{ mcpServers: { a: { command: 'x', args: 'y' } } }, 'server "a" has "args" that are not'],
    [{ mcpServers: { a: { command: 'x', env: { A: 1 } } } }, 'server "a" has "env" values'],
    [{ mcpServers: { a: { command: 'x', cwd: 1 } } }, 'server "a" has a "cwd" that is not'],
    [{ mcpServers: { a: { url: 'nope' } } }, 'server "a" has an invalid "url": nope'],
    [{ mcpServers: { a: { url: 'http://h/', headers: { B: 2 } } } }, 'server "a" has "headers"'],
    [{ mcpServers: { a: { command: 'x', trusted: 1 } } }, 'server "a" has a "trusted" that'],
  ])('refuses %j: %s', (json, message) => {
    expect(() => parseServersConfig(json)).toThrow(TypeError);
    expect(() => parseServersConfig(json)).toThrow(message);
  });

  it('names the file in every message when given its source', () => {
    expect(() => parseServersConfig({}, { source: 'c.json' })).toThrow(
      /^config c\.json has no "mcpServers" object$/,
    );
    expect(() => parseServersConfig({ mcpServers: { a: {} } }, { source: 'c.json' })).toThrow(
      /^config c\.json: server "a" has neither "command" nor "url"$/,
    );
  });
});
