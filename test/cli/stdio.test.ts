// The client commands against the fixture server over stdio: golden --json outputs of info,
// list and call, exit codes, rendering, progress and logs without a terminal, elicitation, and
// the --trace line format.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  DIST,
  FIXTURE,
  cli,
  collect,
  expectGolden,
  hasAnsi,
  json,
  spawnCli,
  staticServer,
  waitFor,
} from './run-cli.js';

const IMAGE = Buffer.from('fixture image bytes');

describe.concurrent('mcpkit info, list, call over stdio', () => {
  it('info --json: era, revision, identity, capabilities, instructions (golden)', async () => {
    const ran = await cli(['info', '--json', '--', ...FIXTURE]);
    expect(ran.code).toBe(0);
    expectGolden('info', json(ran));
  });

  it('info shows them as text, without colours off a terminal', async () => {
    const ran = await cli(['info', '--', ...FIXTURE]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^server\s+fixture 1\.0\.0$/m);
    expect(ran.stdout).toMatch(/^era\s+modern/m);
    expect(ran.stdout).toMatch(/^revision\s+2026-07-28$/m);
    expect(ran.stdout).toContain('A fixture server for the mcpkit CLI tests.');
    expect(hasAnsi(ran.stdout + ran.stderr)).toBe(false);
  });

  it('info --protocol pins a legacy revision (initialize)', async () => {
    const ran = await cli(['info', '--json', '--protocol', '2025-06-18', '--', ...FIXTURE]);
    expect(ran.code).toBe(0);
    expect(json(ran)).toMatchObject({ era: 'legacy', revision: '2025-06-18' });
  });

  it('list --json prints the raw listing (golden)', async () => {
    const ran = await cli(['list', '--json', '--', ...FIXTURE]);
    expect(ran.code).toBe(0);
    expectGolden('list-tools', json(ran));
  });

  it('list prints a table with title, first description line and required args', async () => {
    const ran = await cli(['list', '--', ...FIXTURE]);
    expect(ran.code).toBe(0);
    const lines = ran.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+TITLE\s+DESCRIPTION\s+REQUIRED ARGS$/);
    expect(lines).toContainEqual(
      expect.stringMatching(/^echo\s+Echo\s+Echoes a message back\.\s+message$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^slow\s+Reports progress .*\s+- \(\+1 optional\)$/),
    );
    expect(lines).toHaveLength(9);
  });

  it('list prompts, resources and templates', async () => {
    const [prompts, resources, templates] = await Promise.all([
      cli(['list', 'prompts', '--', ...FIXTURE]),
      cli(['list', 'resources', '--json', '--', ...FIXTURE]),
      cli(['list', 'templates', '--', ...FIXTURE]),
    ]);
    expect(prompts.stdout).toMatch(/^greet\s+Greets someone\.\s+who$/m);
    expect(json(resources)).toEqual({
      resources: [
        {
          uri: 'fixture://hello',
          name: 'hello',
          mimeType: 'text/plain',
          description: 'A greeting.',
        },
      ],
    });
    expect(templates.stdout).toBe('(no templates)\n');
  });

  it('list warns when a kind trails the command after --, and still lists tools', async () => {
    const ran = await cli(['list', '--', ...FIXTURE, 'resources']);
    expect(ran.code).toBe(0);
    expect(ran.stderr).toContain(
      `mcpkit list: warning: "resources" after -- is an argument of the server's command, so this lists tools\nhint: to list resources, put it before --: mcpkit list resources -- ${FIXTURE.join(' ')}\n`,
    );
    expect(ran.stdout).toMatch(/^echo\s/m);
    const before = await cli(['list', 'resources', '--', ...FIXTURE]);
    expect(before.stderr).not.toContain('warning');
  });

  it('list exits 3 for an unknown kind', async () => {
    const ran = await cli(['list', 'widgets', '--', ...FIXTURE]);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain('cannot list "widgets"');
  });

  it('call --json prints the raw result and exits 0 (golden)', async () => {
    const [echo, add] = await Promise.all([
      cli(['call', 'echo', '{"message":"hi"}', '--json', '--', ...FIXTURE]),
      cli(['call', 'add', '--arg', 'a=2', '--arg', 'b=3', '--json', '--', ...FIXTURE]),
    ]);
    expect(echo.code).toBe(0);
    expectGolden('call-echo', json(echo));
    expect(add.code).toBe(0);
    expectGolden('call-add', json(add));
  });

  it('call ends a call that outlives --max-time, tells the server, and says which limit', async () => {
    const ran = await cli(['call', 'wait', '--max-time', '1', '--', ...FIXTURE]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/took longer than its total limit of 1000 ms/);
    expect(ran.stderr).toMatch(/hint: .*--max-time <s>/);
  });

  it('call renders text and structured content', async () => {
    const ran = await cli(['call', 'add', '{"a":1}', '--arg', 'b=2', '--', ...FIXTURE]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe('1 + 2 = 3\nstructured content:\n{\n  "sum": 3\n}\n');
  });

  it('call --arg values are read by the schema: text for a string field, else JSON when it parses', async () => {
    const ran = await cli(['call', 'echo', '--arg', 'message=42', '--json', '--', ...FIXTURE]);
    // A string field: 42 stays the text "42" (it used to parse as a number, which the schema refused).
    expect(ran.code).toBe(0);
    expect(json(ran)).toMatchObject({ content: [{ text: 'echo: 42' }] });
    const sum = await cli([
      'call',
      'add',
      '--arg',
      'a=2',
      '--arg',
      'b=3',
      '--json',
      '--',
      ...FIXTURE,
    ]);
    expect(json(sum)).toMatchObject({ structuredContent: { sum: 5 } });
    const text = await cli(['call', 'echo', '--arg', 'message=hello there', '--', ...FIXTURE]);
    expect(text.stdout).toBe('echo: hello there\n');
  });

  it('call exits 1 when the tool reports an error', async () => {
    const ran = await cli(['call', 'fail', '--', ...FIXTURE]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toBe('it broke on purpose\n');
    expect(ran.stderr).toContain('mcpkit call: the tool reported an error (isError)');
  });

  it('call exits 2 for an unknown tool (a protocol error)', async () => {
    const ran = await cli(['call', 'nope', '--', ...FIXTURE]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toBe(
      'mcpkit call: the server has no tool "nope"\nhint: mcpkit list shows the tools it has\n',
    );
  });

  it("call explains a third-party server's -32601 for an unknown tool (fastmcp's shape)", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpkit-32601-'));
    const script = join(dir, 'server.mjs');
    const dist = (path: string) => JSON.stringify(pathToFileURL(join(DIST, path)).href);
    await writeFile(
      script,
      [
        `const { McpServer, JsonRpcError } = await import(${dist('esm/src/server/index.js')});`,
        `const { createStdioServerTransport } = await import(${dist('esm/src/transports/stdio/index.js')});`,
        "const server = new McpServer({ name: 'fastmcp-like', version: '1.0.0' });",
        "server.tool({ name: 'echo' }, () => 'echo');",
        'server.use(async (ctx, next) => {',
        "  if (ctx.method === 'tools/call' && ctx.params.name !== 'echo')",
        '    throw new JsonRpcError(-32601, `Unknown tool: ${ctx.params.name}`);',
        '  return await next();',
        '});',
        'await server.connect(createStdioServerTransport());',
        '',
      ].join('\n'),
    );
    const ran = await cli(['call', 'ecko', '--', 'node', script]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toBe(
      'mcpkit call: the server has no tool "ecko" (it answered -32601 "Unknown tool: ecko", its way of saying so; the spec\'s code is -32602)\nhint: did you mean "echo"? (mcpkit list shows them all)\n',
    );
  });

  it('call names an unknown tool answered as a tool error (isError), as older SDK v1 servers do', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpkit-iserror-'));
    const script = join(dir, 'server.mjs');
    const dist = (path: string) => JSON.stringify(pathToFileURL(join(DIST, path)).href);
    await writeFile(
      script,
      [
        `const { McpServer } = await import(${dist('esm/src/server/index.js')});`,
        `const { createStdioServerTransport } = await import(${dist('esm/src/transports/stdio/index.js')});`,
        "const server = new McpServer({ name: 'sdk-v1-like', version: '1.0.0' });",
        "server.tool({ name: 'echo' }, () => 'echo');",
        "server.tool({ name: 'fail' }, () => { throw new Error('it failed'); });",
        'server.use(async (ctx, next) => {',
        "  if (ctx.method === 'tools/call' && !['echo', 'fail'].includes(ctx.params.name))",
        "    return { content: [{ type: 'text', text: `Tool ${ctx.params.name} not found` }], isError: true };",
        '  return await next();',
        '});',
        'await server.connect(createStdioServerTransport());',
        '',
      ].join('\n'),
    );
    const [unknown, failing] = await Promise.all([
      cli(['call', 'ecko', '--', 'node', script]),
      cli(['call', 'fail', '--', 'node', script]),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('Tool ecko not found\n');
    expect(unknown.stderr).toBe(
      'mcpkit call: the server has no tool "ecko" (it said so in a tool error, isError; the spec\'s answer is a -32602 error)\nhint: did you mean "echo"? (mcpkit list shows them all)\n',
    );
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain('the tool reported an error (isError)');
  });

  it('call exits 3 for invalid JSON arguments or a missing tool name', async () => {
    const [bad, missing] = await Promise.all([
      cli(['call', 'echo', '{oops', '--', ...FIXTURE]),
      cli(['call', '--', ...FIXTURE]),
    ]);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/^mcpkit call: invalid JSON in the tool arguments: /);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/^mcpkit call: which tool\?/);
  });

  it('call shows progress as plain lines and logs on stderr without a terminal', async () => {
    const ran = await cli(['call', 'slow', '--arg', 'steps=3', '--', ...FIXTURE]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe('done\n');
    const lines = ran.stderr.trimEnd().split('\n');
    expect(lines).toEqual([
      'log info starting',
      'progress 1/3 (33%) step 1',
      'progress 2/3 (67%) step 2',
      'progress 3/3 (100%) step 3',
      'log warning {"done":3}',
    ]);
    expect(hasAnsi(ran.stderr)).toBe(false);
  });

  it('call --quiet shows neither progress nor logs', async () => {
    const ran = await cli(['call', 'slow', '--quiet', '--', ...FIXTURE]);
    expect(ran.code).toBe(0);
    expect(ran.stderr).toBe('');
  });

  it('call saves images to --out-dir and prints links and embedded resources', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpkit-cli-test-'));
    const ran = await cli(['call', 'media', '--out-dir', dir, '--', ...FIXTURE]);
    expect(ran.code).toBe(0);
    const path = join(dir, 'media-1.png');
    expect(ran.stdout).toBe(
      [
        `[image image/png, ${String(IMAGE.length)} B] saved to ${path}`,
        '[resource link] hello: fixture://hello (text/plain)',
        '[resource fixture://inline (text/plain)]',
        'inline text',
        '',
      ].join('\n'),
    );
    expect(await readFile(path)).toEqual(IMAGE);
  });

  it('call saves images to a new temp directory by default', async () => {
    const ran = await cli(['call', 'media', '--', ...FIXTURE]);
    const path = /saved to (\S+)/.exec(ran.stdout)?.[1];
    expect(path).toMatch(/mcpkit-[^/]+\/media-1\.png$/);
    expect(await readFile(path ?? '')).toEqual(IMAGE);
  });

  it('answers an elicitation from --answer flags, typed by the schema', async () => {
    const answers = [
      '--answer',
      'name=Ada',
      '--answer',
      'age=36',
      '--answer',
      'color=green',
      '--answer',
      'subscribe=yes',
    ];
    const expected =
      'action=accept content={"name":"Ada","age":36,"color":"green","subscribe":true}\n';
    const [modern, legacy] = await Promise.all([
      cli(['call', 'ask', ...answers, '--', ...FIXTURE]),
      cli(['call', 'ask', ...answers, '--protocol', '2025-11-25', '--', ...FIXTURE]),
    ]);
    expect(modern.code).toBe(0);
    expect(modern.stdout).toBe(expected);
    expect(legacy.code).toBe(0);
    expect(legacy.stdout).toBe(expected);
  });

  it('declines an elicitation, saying how to answer, without a terminal or answers', async () => {
    const ran = await cli(['call', 'ask', '--', ...FIXTURE]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe('action=decline content=null\n');
    expect(ran.stderr).toContain('? the server asks: Who are you?');
    expect(ran.stderr).toContain(
      "mcpkit: declined the server's request for input: stdin is not a terminal; answer with --answer <field>=<value> (fields: name, age, color, subscribe)",
    );
  });

  it('declines when a required answer is missing or an answer does not fit', async () => {
    const [missing, wrong] = await Promise.all([
      cli(['call', 'ask', '--answer', 'age=3', '--', ...FIXTURE]),
      cli(['call', 'ask', '--answer', 'name=Ada', '--answer', 'color=blue', '--', ...FIXTURE]),
    ]);
    expect(missing.stdout).toBe('action=decline content=null\n');
    expect(missing.stderr).toContain(
      'no answer for the required field "name"; pass --answer name=<value>',
    );
    expect(wrong.stdout).toBe('action=decline content=null\n');
    expect(wrong.stderr).toContain('--answer color: "blue" is not one of red, green');
  });

  it('--trace prints every message: time, direction, revision, method, JSON', async () => {
    const ran = await cli(['call', 'echo', '--arg', 'message=hi', '--trace', '--', ...FIXTURE]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe('echo: hi\n');
    const traced = ran.stderr.split('\n').filter((line) => line.startsWith('trace '));
    const shape =
      /^trace (\d\d:\d\d:\d\d\.\d{3}) (>>|<<) (\S+) (\S+(?: result| error)?(?: #\d+)?) (\{.*\})$/;
    const messages = traced
      .filter((line) => !line.includes(' -- transport closed'))
      .map((line) => {
        const match = shape.exec(line);
        expect(match, line).not.toBeNull();
        const [, , direction, revision, what, body] = match ?? [];
        return { direction, revision, what, message: JSON.parse(body ?? '') };
      });
    expect(
      messages.map(
        (m) => `${m.direction ?? ''} ${m.revision ?? ''} ${(m.what ?? '').replace(/ #\d+$/, '')}`,
      ),
    ).toEqual([
      '>> 2026-07-28 server/discover',
      '<< 2026-07-28 server/discover result',
      // The client lists the tools once, for their x-mcp-header annotations and output schemas.
      '>> 2026-07-28 tools/list',
      '<< 2026-07-28 tools/list result',
      '>> 2026-07-28 tools/call',
      '<< 2026-07-28 tools/call result',
    ]);
    expect(messages[4]?.message).toMatchObject({
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'hi' } },
    });
  });

  it('list warns about a tool a 2026-07-28 client leaves out, and lists the others', async () => {
    const ran = await cli(['list', '--', ...staticServer('header-bad', 'hb'), 'modern']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/deploy/);
    expect(ran.stdout).not.toMatch(/score/);
    expect(ran.stderr).toContain(
      'warning: tool "score" left out: x-mcp-header "Score" is on a property of type "number"',
    );
  });

  it('--trace follows a legacy handshake: the revision comes from initialize', async () => {
    const ran = await cli(['list', '--trace', '--', ...staticServer('lint-clean')]);
    expect(ran.code).toBe(0);
    const heads = ran.stderr
      .split('\n')
      .filter((line) => line.startsWith('trace ') && !line.includes(' -- '))
      .map((line) => line.replace(/^trace \S+ /, '').replace(/( #\d+)? \{.*$/, ''));
    expect(heads).toEqual([
      '>> 2026-07-28 server/discover',
      '<< 2026-07-28 server/discover error',
      '>> 2025-11-25 initialize',
      '<< 2025-11-25 initialize result',
      '>> 2025-11-25 notifications/initialized',
      '>> 2025-11-25 tools/list',
      '<< 2025-11-25 tools/list result',
    ]);
  });

  it('call cancels on SIGINT, telling the server, and exits 130', async () => {
    const child = spawnCli(['call', 'wait', '--', ...FIXTURE]);
    const done = collect(child);
    await waitFor(child, /log info waiting\n/);
    child.kill('SIGINT');
    const ran = await done;
    expect(ran.code).toBe(130);
    expect(ran.stderr).toContain('mcpkit call: cancelled (SIGINT); the server was told');
  });

  it('read, prompt and complete', async () => {
    const [read, prompt, complete, completeJson] = await Promise.all([
      cli(['read', 'fixture://hello', '--', ...FIXTURE]),
      cli(['prompt', 'greet', '--arg', 'who=Ada', '--', ...FIXTURE]),
      cli(['complete', '--prompt', 'greet', 'who', 'A', '--', ...FIXTURE]),
      cli(['complete', '--prompt', 'greet', 'who', 'G', '--json', '--', ...FIXTURE]),
    ]);
    expect(read.stdout).toBe('[resource fixture://hello (text/plain)]\nhello world\n');
    expect(prompt.stdout).toBe('[user]\nHello, Ada!\n');
    expect(complete.stdout).toBe('Ada\nAlan\n');
    expect(json(completeJson)).toMatchObject({ completion: { values: ['Grace'] } });
  });

  it('read exits 2 for an unknown resource', async () => {
    const ran = await cli(['read', 'fixture://nope', '--', ...FIXTURE]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/^mcpkit read: the server has no resource "fixture:\/\/nope"\n/);
    expect(ran.stderr).toContain('hint: did you mean "fixture://');
  });
});
