// The gateway's config (the host's mcpServers format plus per-server `tools` curation), its
// globs, and the variables of URI templates the gateway completes through their upstream.
import { describe, expect, it } from 'vitest';
import {
  isServed,
  matchesGlob,
  parseGatewayConfig,
  templateVariables,
} from '../../src/gateway/index.js';

describe('parseGatewayConfig', () => {
  it("reads the servers as the host does, and each one's curation", () => {
    const config = parseGatewayConfig({
      mcpServers: {
        local: {
          command: 'node',
          args: ['server.js'],
          tools: { allow: ['get_*'], deny: ['get_secret'], rename: { q: 'search_docs' } },
        },
        remote: { url: 'https://example.com/mcp', tools: { describe: { q: 'Searches.' } } },
        off: { command: 'x', disabled: true },
      },
    });
    expect(Object.keys(config.servers)).toEqual(['local', 'remote']);
    expect(config.curation).toEqual({
      local: { allow: ['get_*'], deny: ['get_secret'], rename: { q: 'search_docs' } },
      remote: { describe: { q: 'Searches.' } },
    });
  });

  it.each([
    [{ tools: [] }, 'server "a" has "tools" that is not an object'],
    [{ tools: { allowed: [] } }, 'unknown field "tools.allowed"'],
    [{ tools: { allow: 'x' } }, '"tools.allow" that is not a list of strings'],
    [{ tools: { rename: { a: 'has space' } } }, 'renames "a" to "has space"'],
    [{ tools: { describe: { a: 1 } } }, '"tools.describe" that is not an object of strings'],
  ])('refuses %j with a message naming the field', (tools, message) => {
    const json = { mcpServers: { a: { command: 'node', ...tools } } };
    expect(() => parseGatewayConfig(json)).toThrow(message);
  });

  it('reads list caps: the top-level limits for every server, each overridden by its own', () => {
    const config = parseGatewayConfig({
      limits: { maxListItems: 50, maxListBytes: 65_536 },
      mcpServers: { a: { command: 'node', limits: { maxListItems: 10 } }, b: { command: 'node' } },
    });
    expect(config.limits).toEqual({
      a: { maxListItems: 10, maxListBytes: 65_536 },
      b: { maxListItems: 50, maxListBytes: 65_536 },
    });
    const bad = (limits: unknown) => () =>
      parseGatewayConfig({ mcpServers: { a: { command: 'node', limits } } });
    expect(bad([])).toThrow('server "a" has "limits" that is not an object');
    expect(bad({ maxItems: 1 })).toThrow('unknown field "limits.maxItems"');
    expect(bad({ maxListBytes: 0 })).toThrow(
      '"limits.maxListBytes" that is not a positive integer',
    );
    expect(() => parseGatewayConfig({ limits: { maxListItems: 1.5 }, mcpServers: {} })).toThrow(
      'the config has "limits.maxListItems" that is not a positive integer',
    );
  });

  it('refuses what the host refuses (no mcpServers, an entry without command or url)', () => {
    expect(() => parseGatewayConfig({})).toThrow('no "mcpServers"');
    expect(() => parseGatewayConfig({ mcpServers: { a: {} } })).toThrow('server "a"');
  });
});

describe('curation', () => {
  it('matches names and globs; deny wins over allow', () => {
    expect(matchesGlob('get_*', 'get_issue')).toBe(true);
    expect(matchesGlob('get_*', 'list_issues')).toBe(false);
    expect(matchesGlob('*.read', 'file.read')).toBe(true);
    expect(matchesGlob('*.read', 'fileXread')).toBe(false);
    const curation = { allow: ['get_*', 'list_*'], deny: ['*secret*'] };
    expect(isServed(curation, 'get_issue')).toBe(true);
    expect(isServed(curation, 'get_secret')).toBe(false);
    expect(isServed(curation, 'delete_issue')).toBe(false);
    expect(isServed({ deny: ['delete_*'] }, 'anything')).toBe(true);
    expect(isServed(undefined, 'anything')).toBe(true);
  });
});

describe('templateVariables', () => {
  it('names every variable of an RFC 6570 template once', () => {
    expect(templateVariables('demo://resource/{id}')).toEqual(['id']);
    expect(templateVariables('file://{+path}{?q,lang}{&page*}')).toEqual([
      'path',
      'q',
      'lang',
      'page',
    ]);
    expect(templateVariables('x://{a}/{a:3}/{#b}')).toEqual(['a', 'b']);
    expect(templateVariables('static://no-variables')).toEqual([]);
  });
});
