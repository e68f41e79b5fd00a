// The stdio client transport against real child processes: the fixtures in test/fixtures are
// plain .mjs programs that speak NDJSON by hand (stdio-peer.mjs, stdio-stubborn.mjs).
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Connection } from '../../src/jsonrpc/connection.js';
import { LocalError } from '../../src/jsonrpc/errors.js';
import type { Message } from '../../src/jsonrpc/message.js';
import type { Receiver } from '../../src/jsonrpc/transport.js';
import type { StdioClientOptions, StdioClientTransport } from '../../src/transports/stdio/index.js';
import { createStdioClientTransport, ProcessExitError } from '../../src/transports/stdio/index.js';

const fixture = (name: string): string =>
  fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const PEER = fixture('stdio-peer.mjs');
const STUBBORN = fixture('stdio-stubborn.mjs');

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

function transportFor(
  script: string,
  options: Partial<StdioClientOptions> & { args?: readonly string[] } = {},
): StdioClientTransport {
  const transport = createStdioClientTransport({
    command: process.execPath,
    ...options,
    args: [script, ...(options.args ?? [])],
  });
  open.push(transport);
  return transport;
}

async function connect(
  transport: StdioClientTransport,
): Promise<{ connection: Connection; notes: unknown[]; closes: (Error | undefined)[] }> {
  const notes: unknown[] = [];
  const closes: (Error | undefined)[] = [];
  const connection = new Connection(transport, {
    onRequest: (request) => Promise.resolve({ from: 'client', params: request.params }),
    onNotification: (notification) => notes.push(notification),
    onClose: (error) => closes.push(error),
  });
  await connection.start();
  return { connection, notes, closes };
}

/** A receiver that records everything, with a promise for the close. */
function recorder(): Receiver & {
  messages: Message[];
  closes: (Error | undefined)[];
  closed$: Promise<void>;
} {
  const messages: Message[] = [];
  const closes: (Error | undefined)[] = [];
  let onClosed = (): void => undefined;
  const closed$ = new Promise<void>((resolve) => (onClosed = resolve));
  return {
    messages,
    closes,
    closed$,
    message: (message) => messages.push(message),
    closed: (error) => {
      closes.push(error);
      onClosed();
    },
  };
}

/** Resolves with the first message for which `accept` is true (polling the recorder). */
async function firstMessage(
  messages: Message[],
  accept: (m: Message) => boolean,
): Promise<Message> {
  for (;;) {
    const found = messages.find(accept);
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('createStdioClientTransport', () => {
  it('runs concurrent requests, notifications and server-to-client requests through a Connection', async () => {
    const transport = transportFor(PEER);
    const { connection, notes } = await connect(transport);
    expect(transport.pid).toEqual(expect.any(Number));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, n) => connection.request('echo', { n })),
    );
    expect(results).toEqual(Array.from({ length: 20 }, (_, n) => ({ n })));
    await connection.request('notify', { hello: 'world' });
    expect(notes).toEqual([{ jsonrpc: '2.0', method: 'peer/note', params: { hello: 'world' } }]);
    await expect(connection.request('ask', { q: 1 })).resolves.toEqual({
      answer: { from: 'client', params: { q: 1 } },
    });
  });

  it('drops and reports garbage lines from the server, answering nothing, and keeps working', async () => {
    const reported: LocalError[] = [];
    const transport = transportFor(PEER, {
      maxLineBytes: 1000,
      onError: (error) => reported.push(error),
    });
    const { connection } = await connect(transport);
    const lines = ['Server starting...', '{"jsonrpc":"2.0"', '42', '', '   ', 'x'.repeat(2000)];
    await connection.request('garbage', { lines });
    await expect(connection.request('echo', { still: 'alive' })).resolves.toEqual({
      still: 'alive',
    });
    expect(reported.map((e) => e.code)).toEqual(Array(4).fill('INVALID_MESSAGE'));
    expect(reported.map((e) => e.message)).toEqual([
      expect.stringMatching(
        /^dropped input from the server process: parse error.*"Server starting\.\.\."\)$/,
      ),
      expect.stringMatching(/parse error.*\("\{\\"jsonrpc\\":\\"2\.0\\""\)$/),
      expect.stringMatching(/invalid request: a message must be a JSON object \("42"\)$/),
      expect.stringMatching(/invalid request: line longer than 1000 bytes discarded$/),
    ]);
    await expect(connection.request('errors')).resolves.toEqual({ errors: [] });
  });

  it('reassembles a response whose multi-byte characters arrive in separate writes', async () => {
    const text = 'é€😀'.repeat(50);
    const transport = transportFor(PEER);
    const receiver = recorder();
    await transport.start(receiver);
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'split', params: { id: 1, text } });
    const reply = await firstMessage(receiver.messages, (m) => 'id' in m && m.id === 1);
    expect(reply).toEqual({ jsonrpc: '2.0', id: 1, result: { id: 1, text } });
  });

  it('carries a 10 MB message in both directions', async () => {
    const { connection } = await connect(transportFor(PEER));
    const data = 'x€😀'.repeat(1_250_000); // 10 MB of UTF-8
    await expect(connection.request('length', { data })).resolves.toEqual({
      length: data.length,
      tail: data.slice(-8),
    });
    const { data: back } = (await connection.request('big', { chars: 10_000_000 })) as {
      data: string;
    };
    expect(back.length).toBe(10_000_000);
    expect(back.slice(0, 10)).toBe('aé€😀aé€😀'.slice(0, 10));
  });

  it('completes many large sends in order against a slow reader', async () => {
    const transport = transportFor(PEER, { args: ['--slow'] });
    const { connection } = await connect(transport);
    const count = 40;
    const pad = 'z'.repeat(200_000);
    const settled: number[] = [];
    await Promise.all(
      Array.from({ length: count }, (_, n) =>
        connection.notify('seq', { n, pad }).then(() => settled.push(n)),
      ),
    );
    expect(settled).toEqual(Array.from({ length: count }, (_, n) => n));
    await expect(connection.request('seqs')).resolves.toEqual({
      seqs: Array.from({ length: count }, (_, n) => n),
    });
  });

  it('passes only a safe environment plus the given variables', async () => {
    vi.stubEnv('MCPKIT_TEST_SECRET', 'hunter2');
    try {
      const { connection } = await connect(transportFor(PEER, { env: { EXTRA: '1' } }));
      const { env } = (await connection.request('env')) as { env: Record<string, string> };
      expect(env['MCPKIT_TEST_SECRET']).toBeUndefined();
      expect(env['EXTRA']).toBe('1');
      if (process.env['PATH'] !== undefined) expect(env['PATH']).toBe(process.env['PATH']);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('captures stderr: stderrText and onStderr', async () => {
    const chunks: string[] = [];
    const transport = transportFor(PEER, { onStderr: (chunk) => chunks.push(chunk) });
    const { connection } = await connect(transport);
    await connection.request('stderr', { text: 'log line ✓\n' });
    await connection.request('echo'); // stderr and stdout are separate pipes: give stderr a turn
    while (!transport.stderrText.includes('✓')) await new Promise((r) => setTimeout(r, 5));
    expect(transport.stderrText).toBe('log line ✓\n');
    expect(chunks.join('')).toBe('log line ✓\n');
  });

  it('reports a crash as a close with the exit code and the stderr tail', async () => {
    const transport = transportFor(PEER);
    const { connection, closes } = await connect(transport);
    const error = await connection
      .request('crash', { code: 3, stderr: 'fatal: the disk is on fire\n' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: 'CONNECTION_CLOSED' });
    const cause = (error as Error).cause;
    expect(cause).toBeInstanceOf(ProcessExitError);
    expect(cause).toMatchObject({
      code: 'CONNECTION_CLOSED',
      exitCode: 3,
      signal: null,
      stderr: 'fatal: the disk is on fire\n',
      message: expect.stringMatching(/exited with code 3; stderr: fatal: the disk is on fire$/),
    });
    expect(closes).toEqual([cause]);
    await expect(transport.exit).resolves.toEqual({ code: 3, signal: null });
    await expect(transport.send({ jsonrpc: '2.0', method: 'n' })).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
    });
  });

  it('rejects start with a clear LocalError when the command does not exist', async () => {
    const transport = createStdioClientTransport({ command: 'mcpkit-no-such-command-here' });
    const receiver = recorder();
    const error = await transport.start(receiver).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({
      code: 'NOT_CONNECTED',
      message: 'cannot start "mcpkit-no-such-command-here": command not found (ENOENT)',
    });
    expect(transport.pid).toBeUndefined();
    await expect(transport.exit).resolves.toEqual({ code: null, signal: null });
    await transport.close();
    expect(receiver.closes).toEqual([]);
    await expect(transport.send({ jsonrpc: '2.0', method: 'n' })).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
    });
  });

  it('closes gracefully: stdin ends, the server exits 0, closed() once without error', async () => {
    const transport = transportFor(PEER);
    const receiver = recorder();
    await transport.start(receiver);
    await expect(transport.start(receiver)).rejects.toMatchObject({ code: 'ALREADY_STARTED' });
    await Promise.all([transport.close(), transport.close()]);
    await expect(transport.exit).resolves.toEqual({ code: 0, signal: null });
    expect(receiver.closes).toEqual([undefined]);
    const error = await transport.send({ jsonrpc: '2.0', method: 'n' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  it('sends SIGTERM to a server that ignores the end of its stdin', async () => {
    // The grace period only needs to outlast a child busy elsewhere on a loaded machine, so that
    // SIGTERM has been handled before SIGKILL follows; it is not a timing assertion.
    const transport = transportFor(STUBBORN, { killTimeoutMs: 100 });
    const receiver = recorder();
    await transport.start(receiver);
    await firstMessage(receiver.messages, (m) => 'method' in m && m.method === 'peer/ready');
    await transport.close();
    await expect(transport.exit).resolves.toEqual({ code: null, signal: 'SIGTERM' });
    expect(receiver.closes).toEqual([undefined]);
  });

  it('escalates to SIGKILL when SIGTERM is ignored', async () => {
    const transport = transportFor(STUBBORN, { killTimeoutMs: 100, args: ['--ignore-sigterm'] });
    const receiver = recorder();
    await transport.start(receiver);
    await firstMessage(receiver.messages, (m) => 'method' in m && m.method === 'peer/ready');
    await transport.close();
    await expect(transport.exit).resolves.toEqual({ code: null, signal: 'SIGKILL' });
    expect(transport.stderrText).toContain('ignoring SIGTERM');
    expect(receiver.closes).toEqual([undefined]);
  });

  it('rejects sends held back by a server that never reads, once closed', async () => {
    const transport = transportFor(STUBBORN, { killTimeoutMs: 20 });
    const receiver = recorder();
    await transport.start(receiver);
    const pad = 'w'.repeat(1_000_000);
    const sends = Array.from({ length: 10 }, (_, n) =>
      transport.send({ jsonrpc: '2.0', method: 'seq', params: { n, pad } }),
    );
    let settledEarly = 0;
    for (const send of sends)
      send.then(
        () => settledEarly++,
        () => settledEarly++,
      );
    // Let the first frame reach the pipe, where it waits for a 'drain' that never comes.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settledEarly).toBe(0);
    await transport.close();
    const outcomes = await Promise.allSettled(sends);
    // The first frame is larger than the pipe: nothing can have been fully accepted.
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      if (outcome.status === 'rejected') {
        expect(outcome.reason).toBeInstanceOf(LocalError);
        expect(outcome.reason).toMatchObject({ code: 'CONNECTION_CLOSED' });
      }
    }
    expect((await transport.exit).signal).not.toBeNull();
  });

  it('can be closed while the child is still spawning', async () => {
    const transport = transportFor(PEER);
    const receiver = recorder();
    const started = transport.start(receiver);
    const closed = transport.close();
    await started;
    await closed;
    await expect(transport.exit).resolves.toEqual({ code: 0, signal: null });
    expect(receiver.closes).toEqual([undefined]);

    const missing = createStdioClientTransport({ command: 'mcpkit-no-such-command-here' });
    const failing = missing.start(recorder());
    await missing.close();
    await expect(failing).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });

  it('refuses invalid options when created, before spawning anything', () => {
    expect(() =>
      createStdioClientTransport({ command: process.execPath, maxLineBytes: 0 }),
    ).toThrow(TypeError);
    expect(() =>
      createStdioClientTransport({ command: process.execPath, killTimeoutMs: -1 }),
    ).toThrow(TypeError);
  });
});
