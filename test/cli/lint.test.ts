// mcpkit lint: every rule fires on a fixture built to break it, and none on a clean one;
// near-duplicates across the servers of a config; exit codes 0, 1 and 2.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, closedPort, json, staticServer } from './run-cli.js';

interface Finding {
  rule: string;
  severity: string;
  server: string;
  tool?: string;
  parameter?: string;
  message: string;
  hint: string;
}

const pair = (f: Finding) =>
  `${f.rule} ${f.tool ?? '-'}${f.parameter === undefined ? '' : `.${f.parameter}`}`;

async function configOf(servers: Record<string, string[]>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mcpkit-lint-'));
  const path = join(dir, 'config.json');
  const mcpServers = Object.fromEntries(
    Object.entries(servers).map(([name, [command, ...args]]) => [name, { command, args }]),
  );
  await writeFile(path, JSON.stringify({ mcpServers }));
  return path;
}

describe.concurrent('mcpkit lint', () => {
  it('is silent on a clean server and exits 0', async () => {
    const ran = await cli(['lint', '--json', '--', ...staticServer('lint-clean', 'clean')]);
    expect(ran.code).toBe(0);
    expect(json(ran)).toEqual({
      servers: [{ name: 'clean', tools: 3 }],
      findings: [],
      summary: { error: 0, warn: 0, info: 0 },
    });
    const text = await cli(['lint', '--', ...staticServer('lint-clean', 'clean')]);
    expect(text.stdout).toBe(
      'clean (3 tools)\n  no problems found\n\n0 errors, 0 warnings, 0 notes in 3 tools\n',
    );
  });

  it('fires every rule on a server built to break them, and exits 1', async () => {
    const ran = await cli(['lint', '--json', '--', ...staticServer('lint-bad', 'bad')]);
    expect(ran.code).toBe(1);
    const findings = json(ran).findings as Finding[];
    expect(findings.map(pair)).toEqual([
      'name-invalid bad name!',
      'description-missing no_description',
      'description-vague vague_tool',
      'description-no-when list_orders',
      'description-too-long export_report',
      'param-missing-type configure.value',
      'param-missing-description configure.retries',
      'schema-drift configure.callback',
      'schema-drift configure.order',
      'schema-no-required open_schema',
      'schema-open-object open_schema',
      'name-near-duplicate search-doc',
    ]);
    for (const finding of findings) {
      expect(finding.server).toBe('bad');
      expect(finding.hint.length).toBeGreaterThan(10);
      expect(['error', 'warn', 'info']).toContain(finding.severity);
    }
    const severity = Object.fromEntries(findings.map((f) => [f.rule, f.severity]));
    expect(severity).toMatchObject({
      'name-invalid': 'error',
      'description-missing': 'error',
      'description-vague': 'warn',
    });
    expect(findings.find((f) => f.parameter === 'callback')?.message).toContain('promises a URL');
    expect(findings.find((f) => f.parameter === 'order')?.message).toContain('"enum"');
    expect(findings.find((f) => f.rule === 'description-too-long')?.message).toMatch(
      /is \d+ tokens \(more than 400\)/,
    );
  });

  it('prints findings with their rule, severity and fix', async () => {
    const ran = await cli(['lint', '--', ...staticServer('lint-bad', 'bad')]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toMatch(
      /^ {2}error name-invalid +bad name!: the name contains characters U\+0020, '!'/m,
    );
    expect(ran.stdout).toMatch(/^ +fix: rename the tool using only letters/m);
    expect(ran.stdout).toMatch(/\n2 errors, 8 warnings, 2 notes in 9 tools\n$/);
  });

  it('warns when one server has too many tools', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpkit-lint-'));
    const file = join(dir, 'many.json');
    const words = [
      'alpha',
      'bravo',
      'charlie',
      'delta',
      'echo',
      'foxtrot',
      'golf',
      'hotel',
      'india',
    ];
    const tools = Array.from({ length: 41 }, (_, i) => ({
      name: `${words[i % 9] ?? ''}_${words[Math.floor(i / 9)] ?? ''}`,
      description: 'Looks a thing up in the catalogue. Use it when the user asks about it.',
      inputSchema: { type: 'object', properties: {}, required: [], additionalProperties: false },
    }));
    await writeFile(file, JSON.stringify(tools));
    const ran = await cli([
      'lint',
      '--json',
      '--',
      'node',
      staticServer('x')[1] ?? '',
      file,
      'many',
    ]);
    expect(ran.code).toBe(0);
    const findings = json(ran).findings as Finding[];
    expect(findings.map(pair)).toContain('too-many-tools -');
    expect(findings.find((f) => f.rule === 'too-many-tools')?.message).toBe(
      '41 tools (more than 40)',
    );
  });

  it('finds near-duplicate names across the servers of a config', async () => {
    const config = await configOf({
      clean: staticServer('lint-clean', 'clean'),
      other: staticServer('lint-other', 'other'),
    });
    const ran = await cli(['lint', '--json', '--config', config]);
    expect(ran.code).toBe(0);
    const findings = json(ran).findings as Finding[];
    expect(findings).toEqual([
      expect.objectContaining({
        rule: 'name-near-duplicate',
        severity: 'warn',
        server: 'other',
        tool: 'get-weather',
        message: expect.stringContaining('of server "clean"'),
      }),
    ]);
  });

  it('flags x-mcp-header annotations, whether the client listed the tool or left it out', async () => {
    for (const era of ['legacy', 'modern']) {
      const server = [...staticServer('header-bad', 'hb'), ...(era === 'modern' ? ['modern'] : [])];
      const ran = await cli(['lint', '--json', '--', ...server]);
      expect(ran.code, era).toBe(1);
      const findings = json(ran).findings as Finding[];
      expect(findings.map((f) => [f.rule, f.tool, f.message])).toEqual([
        [
          'header-invalid',
          'score',
          'x-mcp-header "Score" is on a property of type "number" (string, integer or boolean only)',
        ],
      ]);
    }
  });

  it('exits 2 when a server cannot be reached', async () => {
    const url = `http://127.0.0.1:${String(await closedPort())}/mcp`;
    const ran = await cli(['lint', url, '--', ...staticServer('lint-clean', 'clean')]);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toContain('clean (3 tools)');
  });

  it('lists its rules', async () => {
    const ran = await cli(['lint', '--rules', '--json']);
    expect(ran.code).toBe(0);
    expect(json(ran).map((rule: { id: string }) => rule.id)).toEqual([
      'name-invalid',
      'header-invalid',
      'description-missing',
      'description-vague',
      'description-no-when',
      'description-too-long',
      'param-missing-type',
      'param-missing-description',
      'schema-drift',
      'schema-no-required',
      'schema-open-object',
      'name-near-duplicate',
      'too-many-tools',
    ]);
  });
});
