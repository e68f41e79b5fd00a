// mcpkit budget: token counts of tool definitions, checked against gpt-tokenizer on the
// documented serialization, one number pinned by hand, and totals across a config file.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { FIXTURE, FIXTURES, cli, closedPort, json, staticServer } from './run-cli.js';

interface FixtureTool {
  name: string;
  description?: string;
  inputSchema: unknown;
  outputSchema?: unknown;
}

/** The serialization docs/cli.md documents, counted with o200k_base. */
function expectedTokens(tool: FixtureTool): number {
  const text = JSON.stringify({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
    output_schema: tool.outputSchema,
  });
  return encode(text).length;
}

async function budgetTools(): Promise<FixtureTool[]> {
  return JSON.parse(await readFile(join(FIXTURES, 'budget.json'), 'utf8')) as FixtureTool[];
}

describe.concurrent('mcpkit budget', () => {
  it('counts each tool as gpt-tokenizer counts the documented serialization', async () => {
    const ran = await cli(['budget', '--json', '--', ...staticServer('budget')]);
    expect(ran.code).toBe(0);
    const result = json(ran);
    const tools = await budgetTools();
    const expected = tools
      .map((tool) => ({ name: tool.name, tokens: expectedTokens(tool) }))
      .sort((a, b) => b.tokens - a.tokens);
    expect(
      result.tools.map((t: { name: string; tokens: number }) => ({
        name: t.name,
        tokens: t.tokens,
      })),
    ).toEqual(expected);
    const total = expected.reduce((sum, tool) => sum + tool.tokens, 0);
    expect(result.total).toBe(total);
    expect(result.encoding).toBe('o200k_base');
    expect(result.servers).toEqual([
      { name: 'budget', tools: 3, instructions: 0, tokens: total, share: 1 },
    ]);
    expect(result.instructions).toEqual([]);
  });

  it('pins the count of ping, checked by hand', async () => {
    // {"name":"ping","description":"Checks the connection.","input_schema":{"type":"object",
    // "properties":{},"additionalProperties":false}} is 27 o200k_base tokens: {" name ":" ping
    // "," description ":" Checks ␣the ␣connection ."," input _schema ":{" type ":" object ","
    // properties ": {} ," additional Properties ": false }}
    const ran = await cli(['budget', '--json', '--', ...staticServer('budget')]);
    const ping = json(ran).tools.find((t: { name: string }) => t.name === 'ping');
    expect(ping).toEqual({ server: 'budget', name: 'ping', tokens: 27, share: expect.any(Number) });
  });

  it('prints a sorted table with the total, the encoding and a caveat', async () => {
    const ran = await cli(['budget', '--', ...staticServer('budget')]);
    expect(ran.code).toBe(0);
    const tools = await budgetTools();
    const counts = tools.map(expectedTokens).sort((a, b) => b - a);
    const total = counts.reduce((a, b) => a + b, 0);
    const lines = ran.stdout.split('\n');
    expect(lines[0]).toMatch(/^TOOL\s+TOKENS\s+SHARE$/);
    expect(lines[1]).toMatch(new RegExp(`^add\\s+${String(counts[0])}\\s+\\d+\\.\\d%$`));
    expect(lines[4]).toMatch(new RegExp(`^TOTAL \\(3 tools\\)\\s+${String(total)}\\s+100\\.0%$`));
    expect(ran.stdout).toContain('gpt-tokenizer o200k_base');
    expect(ran.stdout).toContain('differ');
  });

  it('totals every server of a config file, and exits 2 for one it cannot reach', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpkit-budget-'));
    const config = join(dir, 'config.json');
    const [command, ...args] = staticServer('budget');
    const [fixtureCommand, ...fixtureArgs] = FIXTURE;
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          small: { command, args },
          fixture: { command: fixtureCommand, args: fixtureArgs, env: { UNUSED: '1' } },
        },
      }),
    );
    const ran = await cli(['budget', '--json', '--config', config]);
    expect(ran.code).toBe(0);
    const result = json(ran);
    expect(result.servers.map((s: { name: string }) => s.name).sort()).toEqual([
      'fixture',
      'small',
    ]);
    const sum = result.servers.reduce(
      (total: number, s: { tokens: number }) => total + s.tokens,
      0,
    );
    expect(result.total).toBe(sum);
    expect(result.tools).toHaveLength(3 + 8);

    const url = `http://127.0.0.1:${String(await closedPort())}/mcp`;
    const partial = await cli(['budget', '--json', url, '--', ...staticServer('budget')]);
    expect(partial.code).toBe(2);
    expect(json(partial).total).toBe(
      result.servers.find((s: { name: string }) => s.name === 'small').tokens,
    );
    expect(partial.stderr).toContain(`cannot list the tools of ${url}`);
  });

  it('says "1 tool", not "1 tools", per server', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpkit-budget-'));
    const config = join(dir, 'config.json');
    const [command, ...one] = staticServer('lint-other', 'one');
    const [, ...three] = staticServer('budget', 'three');
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: { one: { command, args: one }, three: { command, args: three } },
      }),
    );
    const ran = await cli(['budget', '--config', config]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^ {2}one\s+1 tool\s/m);
    expect(ran.stdout).toMatch(/^ {2}three\s+3 tools\s/m);
    expect(ran.stdout).toMatch(/TOTAL \(4 tools, 2 servers\)/);
  });

  it('exits 3 without a target', async () => {
    const ran = await cli(['budget']);
    expect(ran.code).toBe(3);
  });

  it('exits 3 for a config file it cannot read or that the mcpServers parser refuses, naming the file and the entry', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpkit-budget-'));
    const missing = join(dir, 'missing.json');
    const cases: [unknown, string][] = [
      [{}, `config ${join(dir, 'c0.json')} has no "mcpServers" object`],
      [{ mcpServers: { a: 1 } }, `config ${join(dir, 'c1.json')}: server "a" is not an object`],
      [
        { mcpServers: { a: { args: [] } } },
        `config ${join(dir, 'c2.json')}: server "a" has neither "command" nor "url"`,
      ],
      [
        { mcpServers: { a: { url: 'nope' } } },
        `config ${join(dir, 'c3.json')}: server "a" has an invalid "url": nope`,
      ],
      [
        { mcpServers: { a: { command: 'x', cwd: 7 } } },
        `config ${join(dir, 'c4.json')}: server "a" has a "cwd" that is not a string`,
      ],
    ];
    for (const [index, [content, message]] of cases.entries()) {
      const path = join(dir, `c${String(index)}.json`);
      await writeFile(path, JSON.stringify(content));
      const ran = await cli(['budget', '--config', path]);
      expect(ran.code, message).toBe(3);
      expect(ran.stderr).toContain(message);
      expect(ran.stderr).toContain('{"mcpServers": {"name": {"command": "node"');
    }
    const ran = await cli(['budget', '--config', missing]);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain(`cannot read config ${missing}`);
  });
});
