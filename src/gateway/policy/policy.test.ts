import { describe, expect, it } from 'vitest';
import type { Principal } from '../principal.js';
import { ANONYMOUS } from '../principal.js';
import { parsePolicies } from './config.js';
import { Policy, refusedArguments } from './policy.js';

function principal(fields: Partial<Principal>): Principal {
  return { ...ANONYMOUS, key: JSON.stringify(fields), ...fields };
}

const rules = parsePolicies(
  [
    { name: 'all', tools: { allow: ['docs/*'] } },
    {
      name: 'devs',
      when: { scopes: ['repo'], claims: { groups: ['eng*'] } },
      tools: { allow: ['github/*'], deny: ['github/delete_*'] },
      prompts: { allow: ['github/*'] },
      arguments: { 'github/create_*': { repo: ['acme/*'], draft: [true] } },
    },
    { name: 'admins', when: { clients: ['ops-*'] }, tools: { allow: ['github/create_issue'] } },
    { endpoints: ['team'], tools: { deny: ['docs/secret'] } },
  ],
  ['team'],
);

describe('Policy', () => {
  const policy = new Policy(rules, '');
  const dev = principal({ scopes: ['repo'], claims: { groups: ['staff', 'engineering'] } });

  it('shows what an applying rule allows, deny winning, nothing when none allows', () => {
    const anyone = policy.viewOf(ANONYMOUS);
    expect(anyone.tool('docs', 'search')).toBeDefined();
    expect(anyone.tool('github', 'get_issue')).toBeUndefined();
    const view = policy.viewOf(dev);
    expect(view.rules).toEqual(['all', 'devs']);
    expect(view.tool('github', 'get_issue')).toEqual({ constraints: undefined });
    expect(view.tool('github', 'delete_repo')).toBeUndefined();
    expect(view.prompt('github', 'triage')).toBe(true);
    expect(view.prompt('docs', 'explain')).toBe(false);
    expect(view.resource('docs', 'docs://x')).toBe(false);
  });

  it('applies a rule only when every condition of `when` holds', () => {
    const noClaim = principal({ scopes: ['repo'], claims: { groups: 'sales' } });
    expect(policy.viewOf(noClaim).rules).toEqual(['all']);
    expect(policy.viewOf(principal({ clientId: 'ops-bot' })).rules).toEqual(['all', 'admins']);
  });

  it('constrains arguments unless another allowing rule does not', () => {
    const grant = policy.viewOf(dev).tool('github', 'create_issue');
    if (grant === undefined) throw new Error('hidden');
    expect(refusedArguments(grant, { repo: 'acme/site', draft: true })).toBeUndefined();
    expect(refusedArguments(grant, { repo: 'other/site', draft: true })).toContain('"repo"');
    expect(refusedArguments(grant, { repo: 'acme/site' })).toContain('"draft"');
    const both = principal({ scopes: ['repo'], clientId: 'ops-1', claims: { groups: 'eng' } });
    const free = policy.viewOf(both).tool('github', 'create_issue');
    expect(free).toEqual({ constraints: undefined });
  });

  it('keeps rules to their endpoints', () => {
    expect(new Policy(rules, 'team').viewOf(ANONYMOUS).tool('docs', 'secret')).toBeUndefined();
    expect(policy.viewOf(ANONYMOUS).tool('docs', 'secret')).toBeDefined();
  });

  it('gives the same view to principals to whom the same rules apply', () => {
    const other = principal({ scopes: ['repo', 'x'], claims: { groups: ['eng'] } });
    expect(policy.viewOf(other)).toBe(policy.viewOf(dev));
  });
});

describe('parsePolicies', () => {
  it.each([
    [{}, 'is not a list'],
    [[{ tool: {} }], 'policies[0] has an unknown field "tool"'],
    [[{ tools: { allow: 'x' } }], '"tools.allow" that is not a list of strings'],
    [[{ endpoints: ['nope'] }], 'names the endpoint "nope"'],
    [[{ when: { scope: [] } }], 'unknown field "when.scope"'],
    [[{ arguments: { create: {} } }], 'not <server>/<tool>'],
    [
      [{ arguments: { 'a/b': { repo: [{}] } } }],
      '"arguments.a/b.repo" that is not a list of values',
    ],
  ])('refuses %j', (value, message) => {
    expect(() => parsePolicies(value, [])).toThrow(message);
  });
});
