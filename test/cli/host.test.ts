// The CLI as a host: it declares roots, sampling and elicitation as hosts do (so the official
// server-everything shows it the tools it shows a host), answers roots and sampling, shows a
// stdio server's non-JSON stdout, and names the transport it ended up on.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, DIST, ROOT, cli, json, spawnCli, waitFor } from './run-cli.js';

const require = createRequire(import.meta.url);
const EVERYTHING = [
  'node',
  join(
    dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
    'dist/index.js',
  ),
  'stdio',
];
/** mcpkit's own everything server, over stdio. */
const OURS = ['node', BIN, 'serve', 'everything'];
/** The tools server-everything registers only for clients that declare the capability. */
const CONDITIONAL = ['get-roots-list', 'trigger-sampling-request', 'trigger-elicitation-request'];

function toolNames(listed: { tools?: { name: string }[] }): string[] {
  return (listed.tools ?? []).map((tool) => tool.name);
}

describe.concurrent('mcpkit as a host', () => {
  it('declares roots, sampling and elicitation: server-everything lists its conditional tools', async () => {
    const [full, none, rootsOnly] = await Promise.all([
      cli(['list', 'tools', '--json', '--', ...EVERYTHING]),
      cli(['list', 'tools', '--json', '--capabilities', 'none', '--', ...EVERYTHING]),
      cli(['list', 'tools', '--json', '--capabilities', 'roots', '--', ...EVERYTHING]),
    ]);
    const all = toolNames(json(full));
    for (const name of CONDITIONAL) expect(all).toContain(name);
    const bare = toolNames(json(none));
    for (const name of CONDITIONAL) expect(bare).not.toContain(name);
    expect(all.length - bare.length).toBeGreaterThanOrEqual(3);
    expect(toolNames(json(rootsOnly))).toContain('get-roots-list');
    expect(toolNames(json(rootsOnly))).not.toContain('trigger-sampling-request');
  }, 30_000);

  it('offers the working directory as its root, or the --root values', async () => {
    const roots = ['--root', 'srv', '--root', 'file:///y'];
    const [cwd, given, refused] = await Promise.all([
      cli(['call', 'get-roots-list', '--', ...EVERYTHING]),
      cli(['call', 'get-roots-list', ...roots, '--', ...EVERYTHING]),
      cli(['list', '--root', 'git://x/y', '--', ...EVERYTHING]),
    ]);
    expect(cwd.code).toBe(0);
    expect(cwd.stdout).toContain(pathToFileURL(ROOT.replace(/\/$/, '')).href);
    expect(given.stdout).toContain(pathToFileURL(join(ROOT, 'srv')).href);
    expect(given.stdout).toContain('file:///y');
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('--root git://x/y: a root is a file:// URI or a path');
  }, 30_000);

  it('answers sampling with --sample-reply, and refuses it without a terminal', async () => {
    const args = ['call', 'trigger-sampling-request', '--arg', 'prompt=hello'];
    const [answered, refused] = await Promise.all([
      cli([...args, '--sample-reply', 'a reply from the CLI', '--', ...EVERYTHING]),
      cli([...args, '--', ...EVERYTHING]),
    ]);
    expect(answered.code).toBe(0);
    expect(answered.stdout).toContain('a reply from the CLI');
    expect(refused.stderr).toContain('a sampling request, and stdin is not a terminal');
    expect(refused.stdout + refused.stderr).toContain('--sample-reply');
  }, 30_000);

  it('refuses an unknown capability', async () => {
    const ran = await cli(['list', '--capabilities', 'roots,telepathy', '--', ...EVERYTHING]);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain('unknown capability "telepathy"');
  });

  it("shows a stdio server's non-JSON stdout under --trace, and a timeout after it says so", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-noisy-'));
    const noisy = join(dir, 'noisy.mjs');
    writeFileSync(noisy, "console.log('Starting my server...');\nprocess.stdin.resume();\n");
    const [plain, traced] = await Promise.all([
      cli(['list', '--timeout', '800', '--', 'node', noisy]),
      cli(['list', '--trace', '--timeout', '800', '--', 'node', noisy]),
    ]);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('timed out');
    expect(plain.stderr).toContain(
      'the server wrote 1 line to stdout that is not JSON-RPC (first: "Starting my server...")',
    );
    expect(plain.stderr).not.toContain('server stdout (not JSON-RPC, dropped)');
    expect(traced.stderr).toContain('server stdout (not JSON-RPC, dropped): Starting my server...');
  });

  it('says in one line how many non-JSON stdout lines it dropped when the command succeeds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-noisy-'));
    const noisy = join(dir, 'noisy.mjs');
    const fixture = pathToFileURL(join(ROOT, 'test/cli/fixtures/server.mjs')).href;
    const stdio = pathToFileURL(join(DIST, 'esm/src/transports/stdio/index.js')).href;
    writeFileSync(
      noisy,
      [
        "console.log('Starting my server...');",
        "console.log('Listening on stdio');",
        `const { default: createFixtureServer } = await import(${JSON.stringify(fixture)});`,
        `const { createStdioServerTransport } = await import(${JSON.stringify(stdio)});`,
        'await createFixtureServer().connect(createStdioServerTransport());',
        '',
      ].join('\n'),
    );
    const [plain, quiet, traced] = await Promise.all([
      cli(['list', '--', 'node', noisy]),
      cli(['list', '--quiet', '--', 'node', noisy]),
      cli(['list', '--trace', '--', 'node', noisy]),
    ]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^echo\s/m);
    const notice =
      /note: 2 non-JSON stdout lines of the server dropped \(first: "Starting my server\.\.\."\)/g;
    expect(plain.stderr.match(notice)).toHaveLength(1);
    expect(quiet.stderr).not.toContain('non-JSON');
    expect(traced.stderr).toContain('server stdout (not JSON-RPC, dropped): Listening on stdio');
    expect(traced.stderr).not.toContain('note: 2 non-JSON');
  });

  describe('over a legacy HTTP+SSE server', () => {
    let server: ChildProcess;
    let url = '';
    beforeAll(async () => {
      server = spawnCli(['serve', 'pingme', '--http', '0', '--legacy-sse']);
      const match = await waitFor(server, /serving at (http:\/\/127\.0\.0\.1:\d+)\/mcp\n/);
      url = `${match[1] ?? ''}/sse`;
    });
    afterAll(async () => {
      server.kill('SIGTERM');
      await once(server, 'close');
    });

    it('info names the transport it fell back to', async () => {
      const [asJson, asText] = await Promise.all([
        cli(['info', url, '--json']),
        cli(['info', url]),
      ]);
      expect(json(asJson)).toMatchObject({ transport: 'http+sse', era: 'legacy' });
      expect(asText.stdout).toContain('HTTP+SSE (2024-11-05, after a fallback)');
    });
  });

  it('list --tool shows one whole definition (--json: as listed)', async () => {
    const [text, raw] = await Promise.all([
      cli(['list', '--tool', 'get-sum', '--', ...OURS]),
      cli(['list', '--tool', 'get-sum', '--json', '--', ...OURS]),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('tool  get-sum');
    expect(text.stdout).toContain('Adds two numbers.');
    expect(text.stdout).toContain('input schema');
    expect(text.stdout).toContain('"required": [');
    expect(json(raw)).toMatchObject({ name: 'get-sum', inputSchema: { required: ['a', 'b'] } });
  });

  it('answers a mistyped tool or prompt name with the closest one', async () => {
    const [listed, called, prompted, far] = await Promise.all([
      cli(['list', '--tool', 'get-sun', '--', ...OURS]),
      cli(['call', 'get-sun', '{"a":1,"b":2}', '--', ...OURS]),
      cli(['prompt', 'simple-prompy', '--', ...OURS]),
      cli(['call', 'zzzzzzzz', '--', ...OURS]),
    ]);
    for (const ran of [listed, called]) {
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain('the server has no tool "get-sun"');
      expect(ran.stderr).toContain('did you mean "get-sum"?');
    }
    expect(prompted.stderr).toContain('the server has no prompt "simple-prompy"');
    expect(prompted.stderr).toContain('did you mean "simple-prompt"?');
    expect(far.stderr).toContain('the server has no tool "zzzzzzzz"');
    expect(far.stderr).toContain('mcpkit list shows the tools it has');
  });
});
