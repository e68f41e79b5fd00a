// The tier figures `npm run conformance` prints: the requirement list of the suite as its `list
// --requirements` prints it, and tier-check's scoring rule (a required scenario passes with a
// SUCCESS and no FAILURE; one not run fails; the never-scored ones do not count).
import { describe, expect, it } from 'vitest';
import {
  formatTiers,
  parseRequirements,
  scoreTiers,
  tierPassed,
} from '../../conformance/tiers.mjs';

const LISTED = `Required for 2026-07-28 (4 scenarios, frozen; run at the 2026-07-28 wire):

Server scenarios (test against a server):
  - server-initialize
  - tools-list

Client scenarios (test against a client):
  - initialize
  - auth/metadata-default

Run and reported, but never scored:
  extension (1):
    - tasks-lifecycle [server]
  pending (1):
    - json-schema-2020-12 [server]
`;

const ok = [{ id: 'a', status: 'SUCCESS' }];
const failed = [
  { id: 'a', status: 'SUCCESS' },
  { id: 'b', status: 'FAILURE' },
];

describe('conformance tiers', () => {
  it('reads the required scenarios and the never-scored ones from the list', () => {
    expect(parseRequirements(LISTED)).toEqual({
      server: ['server-initialize', 'tools-list'],
      client: ['initialize', 'auth/metadata-default'],
      notScored: [
        { scenario: 'tasks-lifecycle', side: 'server', reason: 'extension' },
        { scenario: 'json-schema-2020-12', side: 'server', reason: 'pending' },
      ],
    });
  });

  it('passes a scenario with a success and no failure only', () => {
    expect(tierPassed(ok)).toBe(true);
    expect(tierPassed(failed)).toBe(false);
    expect(tierPassed([{ id: 'w', status: 'WARNING' }])).toBe(false);
    expect(
      tierPassed([
        { id: 'a', status: 'SUCCESS' },
        { id: 'w', status: 'WARNING' },
      ]),
    ).toBe(true);
    expect(tierPassed(undefined)).toBe(false);
  });

  it('scores each side over its revisions, a scenario not run as failed, never-scored ones apart', () => {
    const sets = parseRequirements(LISTED);
    const score = scoreTiers([
      {
        revision: '2026-07-28',
        side: 'server',
        sets,
        results: new Map([
          ['server-initialize', ok],
          ['tasks-lifecycle', failed],
        ]),
      },
      {
        revision: '2026-07-28',
        side: 'client',
        sets,
        results: new Map([
          ['initialize', ok],
          ['auth/metadata-default', ok],
        ]),
      },
    ]);
    expect(score.sides).toEqual({
      server: { passed: 1, total: 2 },
      client: { passed: 2, total: 2 },
    });
    expect(score.failing).toEqual(['server: tools-list [2026-07-28]']);
    expect(score.notScored).toEqual([
      {
        scenario: 'tasks-lifecycle',
        side: 'server',
        reason: 'extension',
        revision: '2026-07-28',
        passed: false,
      },
    ]);
    const text = formatTiers(score, ['2026-07-28']);
    expect(text).toContain('    Server   1/2 required scenarios (50%)');
    expect(text).toContain('    Client   2/2 required scenarios (100%)');
    expect(text).toContain('    ✗ server: tools-list [2026-07-28]');
    expect(text).toContain('below Tier 2');
  });
});
