// The CLI's parts in-process, through the injectable Io: what the spawned tests cannot reach
// without a terminal (the progress bar, interactive prompts), and the pure helpers.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Receiver, Transport } from '../../src/jsonrpc/index.js';
import { measure } from '../../src/cli/commands/budget.js';
import { parseAddress } from '../../src/cli/serving.js';
import { coerce, createElicitHandler } from '../../src/cli/elicit.js';
import type { Io } from '../../src/cli/io.js';
import { noColor } from '../../src/cli/io.js';
import { closest, editDistance } from '../../src/cli/did-you-mean.js';
import { lintServers } from '../../src/cli/lint-rules.js';
import { main } from '../../src/cli/main.js';
import { createStyle, table } from '../../src/cli/output.js';
import { createStatus, progressText } from '../../src/cli/progress.js';
import { traceTransport } from '../../src/cli/trace.js';
import { explain } from '../../src/cli/errors.js';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';

function fakeIo(
  options: { isTTY?: boolean; input?: string } = {},
): Io & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const stdin = new PassThrough();
  if (options.input !== undefined) stdin.end(options.input);
  return {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    stdin,
    isTTY: options.isTTY ?? false,
    env: {},
    color: false,
    out: () => out,
    err: () => err,
  };
}

const ESC = '\u001b';

const context = {
  era: 'legacy' as const,
  revision: '2025-11-25' as const,
  signal: new AbortController().signal,
};

describe('progress', () => {
  it('draws a bar on a terminal, keeps it below log lines, and clears it', () => {
    const io = fakeIo({ isTTY: true });
    const status = createStatus(io, { style: createStyle(false), quiet: false });
    status.progress(1, 4, 'copying');
    status.log({ level: 'info', data: 'hello' });
    status.done();
    const bar = `${'█'.repeat(6)}${'░'.repeat(18)}  25% copying`;
    expect(io.err()).toBe(`${bar}\r\u001b[2Klog info hello\n${bar}\r\u001b[2K`);
  });

  it('writes plain lines without a terminal', () => {
    expect(progressText(3, 10, 'x')).toBe('progress 3/10 (30%) x');
    expect(progressText(3)).toBe('progress 3');
  });
});

describe('elicitation at a terminal', () => {
  const params = {
    message: 'Who are you?',
    requestedSchema: {
      type: 'object' as const,
      properties: {
        name: { type: 'string' as const },
        age: { type: 'integer' as const },
        color: { type: 'string' as const, enum: ['red', 'green'] },
        subscribe: { type: 'boolean' as const },
      },
      required: ['name'],
    },
  };

  it('asks each field in turn, re-asking until an answer fits', async () => {
    const io = fakeIo({ isTTY: true, input: 'Ada\nabc\n36\n\nyes\n' });
    const handler = createElicitHandler({ io, style: createStyle(false), answers: new Map() });
    const result = await handler(params, context);
    expect(result).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 36, subscribe: true },
    });
    expect(io.err()).toContain('? the server asks: Who are you?');
    expect(io.err()).toContain('"abc" is not a number');
    expect(io.err()).toContain('color (string, one of red, green): ');
  });

  it('takes --answer values first and cancels at end of input', async () => {
    const io = fakeIo({ isTTY: true, input: '' });
    const handler = createElicitHandler({
      io,
      style: createStyle(false),
      answers: new Map([['name', 'Ada']]),
    });
    expect(await handler(params, context)).toEqual({ action: 'cancel' });
  });

  it('accepts or declines a URL', async () => {
    const url = {
      mode: 'url' as const,
      message: 'Sign in',
      url: 'https://example.com/a',
      elicitationId: 'e1',
    };
    const yes = createElicitHandler({
      io: fakeIo({ isTTY: true, input: '\n' }),
      style: createStyle(false),
      answers: new Map(),
    });
    const no = createElicitHandler({
      io: fakeIo({ isTTY: true, input: 'n\n' }),
      style: createStyle(false),
      answers: new Map(),
    });
    const piped = createElicitHandler({
      io: fakeIo(),
      style: createStyle(false),
      answers: new Map(),
    });
    expect(await yes(url, context)).toEqual({ action: 'accept' });
    expect(await no(url, context)).toEqual({ action: 'decline' });
    expect(await piped(url, context)).toEqual({ action: 'decline' });
  });

  it('coerces answers to the field types', () => {
    expect(coerce('no', { type: 'boolean' })).toEqual({ value: false });
    expect(coerce('1.5', { type: 'integer' })).toEqual({ error: '"1.5" is not an integer' });
    const multi = {
      type: 'array' as const,
      items: { type: 'string' as const, enum: ['a', 'b', 'c'] },
    };
    expect(coerce('a, c', multi)).toEqual({ value: ['a', 'c'] });
    const titled = { type: 'string' as const, oneOf: [{ const: 'r', title: 'Red' }] };
    expect(coerce('Red', titled)).toEqual({ value: 'r' });
  });
});

describe('output and flags', () => {
  it('honours NO_COLOR only when set to something', () => {
    expect(noColor({ NO_COLOR: '1' })).toBe(true);
    expect(noColor({ NO_COLOR: '' })).toBe(false);
    expect(noColor({})).toBe(false);
    expect(createStyle(true).red('x')).toBe('\u001b[31mx\u001b[39m');
  });

  it('aligns table columns by visible width and right-aligns numbers', () => {
    const style = createStyle(true);
    const text = table(
      ['A', 'N'],
      [
        [style.red('xyz'), '5'],
        ['w', '100'],
      ],
      { alignRight: [1] },
    );
    expect(text.replaceAll(`${ESC}[31m`, '').replaceAll(`${ESC}[39m`, '')).toBe(
      'A      N\nxyz    5\nw    100\n',
    );
  });

  it('parses --http addresses', () => {
    expect(parseAddress('3000')).toEqual({ host: '127.0.0.1', port: 3000 });
    expect(parseAddress('0.0.0.0:8080')).toEqual({ host: '0.0.0.0', port: 8080 });
    expect(parseAddress('[::1]:0')).toEqual({ host: '::1', port: 0 });
    expect(() => parseAddress('70000')).toThrow('invalid --http address');
  });

  it('runs in-process with an injected Io', async () => {
    const io = fakeIo();
    expect(await main(['--version'], io)).toBe(0);
    expect(io.out()).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(await main(['list', '--json'], io)).toBe(3);
    expect(io.err()).toContain('mcpkit list: no server given');
  });
});

describe('trace', () => {
  it('writes one line per message with the revision each speaks', async () => {
    const sent: unknown[] = [];
    let receiver: Receiver | undefined;
    const inner: Transport = {
      start: (r) => {
        receiver = r;
        return Promise.resolve();
      },
      send: (message) => {
        sent.push(message);
        return Promise.resolve();
      },
      close: () => Promise.resolve(),
    };
    let out = '';
    const traced = traceTransport(
      inner,
      { write: (text: string) => (out += text) },
      {
        style: createStyle(false),
        now: () => new Date(2026, 0, 2, 3, 4, 5, 6),
      },
    );
    await traced.start({ message: () => undefined, closed: () => undefined });
    await traced.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18' },
    });
    receiver?.message({
      jsonrpc: '2.0',
      id: 1,
      result: { protocolVersion: '2025-03-26' },
    });
    await traced.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(sent).toHaveLength(2);
    expect(out.split('\n')).toEqual([
      'trace 03:04:05.006 >> 2025-06-18 initialize #1 {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}',
      'trace 03:04:05.006 << 2025-03-26 initialize result #1 {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-03-26"}}',
      'trace 03:04:05.006 >> 2025-03-26 notifications/initialized {"jsonrpc":"2.0","method":"notifications/initialized"}',
      '',
    ]);
  });
});

describe('lint and budget helpers', () => {
  const tool = (name: string, inputSchema: Record<string, unknown>) => ({
    name,
    description: 'Does one precise thing. Use it when asked.',
    inputSchema: {
      type: 'object' as const,
      required: [],
      additionalProperties: false,
      ...inputSchema,
    },
  });

  it('measures edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(closest('lsit', ['list', 'lint', 'serve'])).toBe('list');
    expect(closest('frobnicate', ['list', 'lint', 'serve'])).toBeUndefined();
  });

  it('does not ask for a "required" list when every property has a default', () => {
    const field = (extra: object) => ({ type: 'string', description: 'A field.', ...extra });
    const findings = lintServers([
      {
        name: 's',
        tools: [
          tool('defaults', { required: undefined, properties: { a: field({ default: 'x' }) } }),
          tool('bare', { required: undefined, properties: { a: field({}) } }),
        ],
      },
    ]);
    expect(findings.map((f) => `${f.rule} ${f.tool ?? ''}`)).toEqual(['schema-no-required bare']);
  });

  it('reads what parameter names promise', () => {
    const findings = lintServers([
      {
        name: 's',
        tools: [
          tool('t', {
            properties: {
              contactEmail: { type: 'string', description: 'Who to tell.' },
              hostname: { type: 'string', description: 'Where.' },
              start_date: { type: 'string', description: 'When.' },
              homepage: { type: 'string', format: 'uri', description: 'Its URL.' },
              mode: { type: 'string', description: 'Either fast|slow.' },
            },
          }),
        ],
      },
    ]);
    expect(findings.map((f) => `${f.rule} ${f.parameter ?? ''}`)).toEqual([
      'schema-drift contactEmail',
      'schema-drift hostname',
      'schema-drift start_date',
      'schema-drift mode',
    ]);
  });

  it('flags x-mcp-header annotations that 2026-07-28 clients drop, listed or left out', () => {
    const region = { type: 'number', description: 'Where.', 'x-mcp-header': 'Region' };
    const findings = lintServers([
      {
        name: 's',
        tools: [tool('listed', { properties: { region } })],
        rejected: [{ name: 'dropped', reason: 'x-mcp-header "A B" is not an HTTP token' }],
      },
    ]);
    expect(findings.map((f) => [f.rule, f.severity, f.tool, f.message])).toEqual([
      ['header-invalid', 'error', 'dropped', 'x-mcp-header "A B" is not an HTTP token'],
      [
        'header-invalid',
        'error',
        'listed',
        'x-mcp-header "Region" is on a property of type "number" (string, integer or boolean only)',
      ],
    ]);
  });

  it('flags too many tools past the limit', () => {
    const tools = ['alpha', 'bravo', 'charlie'].map((name) => tool(name, { properties: {} }));
    const findings = lintServers([{ name: 's', tools }], { maxTools: 2 });
    expect(findings.map((f) => f.rule)).toEqual(['too-many-tools']);
  });

  it('sorts budgets and computes shares', () => {
    const servers = [
      {
        name: 'a',
        target: { kind: 'url' as const, url: 'http://x', headers: {} },
        tools: [tool('small', {}), tool('big', {})],
        instructions: undefined,
        rejected: [],
      },
    ];
    const budget = measure(servers, (text) => (text.includes('"big"') ? 30 : 10));
    expect(budget.tools.map((t) => [t.name, t.tokens, t.share])).toEqual([
      ['big', 30, 0.75],
      ['small', 10, 0.25],
    ]);
    expect(budget.total).toBe(40);
  });

  it("counts a server's instructions in its total and in the shares", () => {
    const target = { kind: 'url' as const, url: 'http://x', headers: {} };
    const servers = [
      { name: 'a', target, tools: [tool('one', {})], instructions: 'Use one.', rejected: [] },
      { name: 'b', target, tools: [tool('two', {})], instructions: '', rejected: [] },
    ];
    const budget = measure(servers, (text) => (text === 'Use one.' ? 20 : 10));
    expect(budget.instructions).toEqual([{ server: 'a', tokens: 20, share: 0.5 }]);
    expect(budget.total).toBe(40);
    expect(budget.servers).toEqual([
      { name: 'a', tools: 1, instructions: 20, tokens: 30, share: 0.75 },
      { name: 'b', tools: 1, instructions: 0, tokens: 10, share: 0.25 },
    ]);
  });
});

describe('explaining a missing client capability (-32021)', () => {
  it('names the capabilities the request needs', () => {
    const error = new JsonRpcError(-32021, 'missing required client capability', {
      requiredCapabilities: { elicitation: { url: {} }, sampling: {} },
    });
    expect(explain(error).hint).toBe(
      'the request needs the client capability elicitation.url, sampling, which this client did not declare',
    );
  });
});
