import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HttpExchange, HttpReply } from '../transports/http/index.js';
import { argumentsHash, openAuditLog } from './audit.js';
import { parseGatewayConfig } from './config.js';
import { trustedHeader } from './identity.js';
import { principalOf } from './principal.js';
import type { AuditRecord } from './audit.js';

const servers = { a: { command: 'a' }, b: { url: 'http://127.0.0.1:1/mcp' } };

describe('parseGatewayConfig: the team parts', () => {
  it('reads endpoints, policies, identity and audit', () => {
    const config = parseGatewayConfig({
      mcpServers: servers,
      endpoints: { ops: { servers: ['a'], tools: { a: { deny: ['x'] } }, budget: 100 } },
      policies: [{ endpoints: ['ops', 'default'], tools: { allow: ['a/*'] } }],
      identity: { header: { subject: 'X-User', secretHeader: 'X-S', secretEnv: 'S' } },
      audit: { to: 'stdout', arguments: true },
    });
    expect(config.endpoints).toEqual({
      ops: { servers: ['a'], curation: { a: { deny: ['x'] } }, budget: 100 },
    });
    expect(config.policies).toHaveLength(1);
    expect(config.identity?.header).toEqual({
      subject: 'x-user',
      secretHeader: 'x-s',
      secretEnv: 'S',
    });
    expect(config.audit).toEqual({ to: 'stdout', arguments: true });
  });

  it.each([
    [{ endpoints: { default: { servers: [] } } }, 'endpoint "default" is not a valid name'],
    [{ endpoints: { x: { servers: ['c'] } } }, 'names the server "c"'],
    [{ endpoints: { x: { servers: ['a'], tools: { b: {} } } } }, 'curates "b"'],
    [{ endpoints: { x: { servers: ['a'], budget: 0 } } }, 'not a positive integer'],
    [{ endpoints: { x: { servers: ['a'], tools: { a: { allow: 1 } } } } }, 'tools.allow'],
    [{ policies: [{ endpoints: ['x'] }] }, 'names the endpoint "x"'],
    [{ identity: { header: {} } }, 'needs "header.subject"'],
    [{ identity: { header: { subject: 'u', secretEnv: 'S' } } }, 'together'],
    [{ audit: { to: 3 } }, '"to"'],
  ])('refuses %j', (team, message) => {
    expect(() => parseGatewayConfig({ mcpServers: servers, ...team })).toThrow(message);
  });
});

function exchange(headers: Record<string, string>): HttpExchange {
  return {
    method: 'POST',
    url: '/mcp',
    headers,
    readBody: () => undefined,
    onClose: () => () => undefined,
  };
}

describe('trustedHeader', () => {
  const middleware = trustedHeader({
    subject: 'x-user',
    scopes: 'x-scopes',
    claims: { groups: 'x-groups' },
    secretHeader: 'x-secret',
    secret: 'shh',
  });
  const run = (headers: Record<string, string>) => {
    const ex = exchange(headers);
    let reply: HttpReply | undefined;
    let passed = false;
    middleware(
      ex,
      (r) => (reply = r),
      () => (passed = true),
    );
    return { ex, reply, passed };
  };

  it('makes the principal of the headers, with the right secret', () => {
    const { ex, passed } = run({
      'x-user': 'ada',
      'x-scopes': 'a, b',
      'x-groups': 'eng',
      'x-secret': 'shh',
    });
    expect(passed).toBe(true);
    const principal = principalOf({ auth: ex.auth as never });
    expect(principal).toMatchObject({ subject: 'ada', scopes: ['a', 'b'], source: 'header' });
    expect(principal.claims['groups']).toBe('eng');
  });

  it('refuses a request without the secret or the subject', () => {
    expect(run({ 'x-user': 'ada', 'x-secret': 'nope' }).reply?.status).toBe(401);
    expect(run({ 'x-secret': 'shh' }).reply?.status).toBe(401);
  });
});

describe('the audit log', () => {
  it('hashes arguments whatever their keys order', () => {
    expect(argumentsHash({ a: 1, b: [{ d: 1, c: 2 }] })).toBe(
      argumentsHash({ b: [{ c: 2, d: 1 }], a: 1 }),
    );
    expect(argumentsHash({ a: 1 })).not.toBe(argumentsHash({ a: 2 }));
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(argumentsHash(deep)).toMatch(/^sha256:/);
  });

  it('appends JSON lines to a file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mcpkit-audit-')), 'audit.jsonl');
    const record = { time: 't', called: 'x' } as unknown as AuditRecord;
    const log = openAuditLog(file);
    log.sink(record);
    log.sink(record);
    await log.close();
    const again = openAuditLog(file);
    again.sink(record);
    await again.close();
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([record, record, record]);
  });
});
