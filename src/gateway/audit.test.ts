import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AuditRecord } from './audit.js';
import { argumentsHash, auditLine, auditTime, canonicalJson, openAuditLog } from './audit.js';

/** Canonical JSON as the audit log first wrote it: every object's entries sorted. */
function reference(value: unknown, depth = 0): string {
  if (depth >= 64) return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => reference(item, depth + 1)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${reference(item, depth + 1)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const later = () => new Promise((resolve) => setImmediate(resolve));
const record = (called: string) => ({ time: 't', called }) as unknown as AuditRecord;

describe('canonicalJson', () => {
  let deep: unknown = { b: 1, a: 2 };
  for (let i = 0; i < 70; i++) deep = { z: deep, a: i };
  let sortedDeep: unknown = 1;
  for (let i = 0; i < 70; i++) sortedDeep = { a: i, z: sortedDeep };
  const values: [string, unknown][] = [
    ['sorted keys', { a: 1, b: 'x', c: [true, null, 2.5] }],
    ['unsorted keys', { b: 1, a: 2 }],
    ['nested unsorted', { a: { d: 1, c: 2 }, b: [{ f: 1, e: 2 }] }],
    ['integer-like keys', { '9': 1, '10': 2 }],
    ['undefined values', { a: undefined, b: 1 }],
    ['undefined in an array', [1, undefined, 3]],
    ['a hole', [1, , 3]], // eslint-disable-line no-sparse-arrays
    ['a null prototype', Object.assign(Object.create(null) as object, { b: 1, a: 2 })],
    ['a date', { at: new Date(0) }],
    [
      'a class instance',
      {
        x: new (class A {
          b = 1;
          a = 2;
        })(),
      },
    ],
    ['not finite', { a: Number.NaN, b: Number.POSITIVE_INFINITY }],
    ['a function', { a: () => 1 }],
    ['strings to escape', { 'é"\n': '\u2028\ud800' }],
    ['deeper than 64, unsorted', deep],
    ['deeper than 64, sorted', sortedDeep],
    ['a primitive', 'text'],
    ['empty', {}],
  ];
  it.each(values)('writes %s as sorting every object would', (_, value) => {
    expect(canonicalJson(value)).toBe(reference(value));
  });

  it('hashes the canonical JSON with SHA-256', () => {
    const text = '{"a":1,"b":[{"c":2,"d":1}]}';
    const expected = `sha256:${createHash('sha256').update(text).digest('hex')}`;
    expect(argumentsHash({ b: [{ d: 1, c: 2 }], a: 1 })).toBe(expected);
    expect(argumentsHash({ a: 1, b: [{ c: 2, d: 1 }] })).toBe(expected);
  });
});

describe('auditTime', () => {
  it('writes a time as Date#toISOString does', () => {
    const start = Date.UTC(2026, 10, 27, 23, 59, 58, 990);
    for (const now of [
      0,
      1,
      999,
      59_999,
      60_000,
      start,
      start + 9,
      start + 10,
      start + 1010,
      start + 1011,
      start + 2000,
      Date.UTC(2024, 1, 29, 12, 0, 0, 5),
      -1,
      253_402_300_799_999,
      253_402_300_800_000,
      1.5,
    ]) {
      expect(auditTime(now)).toBe(new Date(now).toISOString());
    }
    expect(auditTime()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});

describe('auditLine', () => {
  const principal = Object.freeze({ subject: 'ann', source: 'token' as const });
  const rules = Object.freeze(['everyone', 'no-deletes']);
  const full = (called: string, extra: Partial<AuditRecord> = {}): AuditRecord => ({
    time: '2026-11-27T01:38:00.000Z',
    principal,
    endpoint: 'default',
    method: 'tools/call',
    upstream: 'git',
    tool: 'search',
    called,
    decision: 'deny',
    reason: 'arguments',
    outcome: 'error',
    code: -32602,
    rules,
    durationMs: 1.25,
    argumentsHash: 'sha256:00',
    ...extra,
  });
  const records: [string, AuditRecord][] = [
    ['a full record', full('git/search')],
    ['strings to escape', full('say "hi"\\\n\u0001é\u2028\ud83d\ude00\ud800')],
    ['the arguments', full('x', { arguments: { b: [1, 'two'], a: null, u: undefined } })],
    ['arguments undefined', full('x', { arguments: undefined })],
    ['a number not finite', full('x', { durationMs: Number.NaN, code: -0 })],
    [
      'a prompt',
      {
        time: 't',
        principal,
        endpoint: 'team',
        method: 'prompts/get',
        upstream: 'git',
        prompt: 'p',
        called: 'git/p',
        decision: 'allow',
        outcome: 'ok',
        durationMs: 0,
        argumentsHash: 'sha256:00',
      },
    ],
    ['a partial record', { called: 'c' } as unknown as AuditRecord],
  ];
  it.each(records)('writes %s as JSON.stringify does', (_, record) => {
    expect(auditLine(record)).toBe(JSON.stringify(record));
    // A frozen principal and rules are written once, then alike.
    expect(auditLine(record)).toBe(JSON.stringify(record));
  });

  it('writes the fields in the order of AuditRecord', () => {
    const record = { called: 'c', time: 't' } as unknown as AuditRecord;
    expect(auditLine(record)).toBe('{"time":"t","called":"c"}');
  });
});

describe('openAuditLog', () => {
  it("writes a turn's lines together at its end, and the rest when closed", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mcpkit-audit-')), 'audit.jsonl');
    const log = openAuditLog(file);
    log.sink(record('a'));
    log.sink(record('b'));
    expect(readFileSync(file, 'utf8')).toBe('');
    await later();
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
    log.sink(record('c'));
    await log.close();
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as AuditRecord).called)).toEqual(['a', 'b', 'c']);
  });

  it('batches lines to stdout too', async () => {
    const written: string[] = [];
    const log = openAuditLog('-', { stdout: { write: (text) => written.push(text) } });
    log.sink(record('a'));
    log.sink(record('b'));
    await later();
    log.sink(record('c'));
    await log.close();
    expect(written).toEqual([
      `${JSON.stringify(record('a'))}\n${JSON.stringify(record('b'))}\n`,
      `${JSON.stringify(record('c'))}\n`,
    ]);
  });

  it('reports a file it cannot open, and takes records all the same', async () => {
    const errors: unknown[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-audit-'));
    const log = openAuditLog(join(dir, 'missing', 'audit.jsonl'), {
      onError: (error) => errors.push(error),
    });
    log.sink(record('a'));
    await later();
    await log.close();
    expect(errors).toHaveLength(1);
    expect((errors[0] as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it('writes what is left when the process exits', { timeout: 60_000 }, () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mcpkit-audit-')), 'audit.jsonl');
    const audit = fileURLToPath(new URL('./audit.ts', import.meta.url));
    const script = [
      `const { openAuditLog } = await import(${JSON.stringify(audit)});`,
      `const log = openAuditLog(${JSON.stringify(file)});`,
      `for (let i = 0; i < 3; i++) log.sink({ called: String(i) });`,
      'process.exit(0);',
    ].join('\n');
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
      },
    );
    expect(run.stderr).toBe('');
    expect(readFileSync(file, 'utf8')).toBe(
      ['0', '1', '2'].map((called) => `${JSON.stringify({ called })}\n`).join(''),
    );
  });
});
