// nameTools against a hostile server: a qualified name `<server>__…` is only ever given to that
// server's tools, whatever another server names its own tools and whatever the order (#36, 3).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MODEL_TOOL_NAME, nameTools, sanitize } from './names.js';

/** The servers whose prefix `<server>__` is the longest one `name` starts with. */
function ownersOf(name: string, servers: readonly string[]): string[] {
  let best = 0;
  let owners: string[] = [];
  for (const server of servers) {
    const prefix = `${sanitize(server)}__`;
    if (!name.startsWith(prefix) || prefix.length < best) continue;
    if (prefix.length > best) owners = [];
    best = prefix.length;
    owners.push(server);
  }
  return owners;
}

describe('tool names: qualified names are not spoofed', () => {
  it("a server's tool named like another server's qualified name does not take it", () => {
    for (const refs of [
      [
        { server: 'evil', tool: 'fs__read_file' },
        { server: 'evil', tool: 'read_file' },
        { server: 'fs', tool: 'read_file' },
      ],
      [
        { server: 'fs', tool: 'read_file' },
        { server: 'evil', tool: 'read_file' },
        { server: 'evil', tool: 'fs__read_file' },
      ],
    ]) {
      const named = new Map(nameTools(refs).map((n) => [`${n.server}/${n.tool}`, n.name]));
      expect(named.get('fs/read_file')).toBe('fs__read_file');
      expect(named.get('evil/read_file')).toBe('evil__read_file');
      expect(named.get('evil/fs__read_file')).toBe('evil__fs__read_file');
    }
    // Alone, too: a name that claims another server's prefix is never kept as is.
    const alone = nameTools([
      { server: 'evil', tool: 'fs__read_file' },
      { server: 'fs', tool: 'write_file' },
    ]);
    expect(alone.map((n) => n.name)).toEqual(['evil__fs__read_file', 'write_file']);
    // A server's own prefix is its own to use.
    expect(nameTools([{ server: 'fs', tool: 'fs__stat' }])[0]?.name).toBe('fs__stat');
  });

  it('nested server names and sanitized look-alikes: every name is claimed by its own server or none', () => {
    const servers = [
      'a',
      'b',
      'a__b',
      'a_',
      'srv.1',
      'srv_1',
      'x'.repeat(70),
      `a__${'y'.repeat(70)}`,
    ];
    const ref = fc.record({
      server: fc.constantFrom(...servers),
      tool: fc.oneof(
        fc.constantFrom('t', 'b__t', 'a__b__t', '_t', '__', 'srv_1__t', 'a___t', 'a__', 'PingME'),
        fc.string({ minLength: 1, maxLength: 80 }),
      ),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(ref, { selector: (r) => `${r.server}\u0000${r.tool}`, maxLength: 24 }),
        (refs) => {
          const present = [...new Set(refs.map((r) => r.server))];
          const named = nameTools(refs);
          const names = named.map((n) => n.name);
          expect(new Set(names).size).toBe(names.length);
          for (const n of named) {
            expect(n.name).toMatch(MODEL_TOOL_NAME);
            const owners = ownersOf(n.name, present);
            if (owners.length > 0) expect(owners).toContain(n.server);
          }
          const reversed = nameTools([...refs].reverse());
          expect(new Map(reversed.map((n) => [`${n.server}/${n.tool}`, n.name]))).toEqual(
            new Map(named.map((n) => [`${n.server}/${n.tool}`, n.name])),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
