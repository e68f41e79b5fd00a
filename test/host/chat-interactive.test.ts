// `mcpkit chat` at a terminal, in process (an Io whose isTTY is true, stdin a stream the test
// writes): the answers streamed to stdout, tool calls shown as they happen, and the approval
// prompt for a tool without readOnlyHint answered at the terminal.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/commands/chat.js';
import type { Io } from '../../src/cli/io.js';
import { BIN } from '../cli/run-cli.js';
import type { FakeModel } from '../helpers/fake-model.js';
import { startFakeModel } from '../helpers/fake-model.js';

const hasDist = existsSync(BIN);

function terminal(input: string, env: Record<string, string>) {
  const stdin = new PassThrough();
  stdin.end(input);
  const out = { stdout: '', stderr: '' };
  const io: Io = {
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { write: (text: string) => (out.stderr += text) },
    stdin,
    isTTY: true,
    env,
    color: false,
  };
  return { io, out };
}

let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

describe.skipIf(!hasDist)('mcpkit chat at a terminal', () => {
  for (const [answer, expected] of [
    ['y', 'Simulated logging is on'],
    ['n', 'Error: the user declined this tool call'],
  ] as const) {
    it(`asks before a tool without readOnlyHint runs (answered ${answer})`, async () => {
      model = await startFakeModel([
        { toolCalls: [{ name: 'toggle-simulated-logging' }] },
        (seen) => ({ text: `Result: ${seen.results[0]!.text}` }),
      ]);
      const { io, out } = terminal(`turn logging on\n${answer}\n\n`, {
        ANTHROPIC_BASE_URL: model.url,
      });
      const code = await run(
        ['--quiet', '--server', '--', process.execPath, BIN, 'serve', 'everything'],
        io,
      );
      expect(code, out.stderr).toBe(0);
      expect(out.stderr).toContain(
        'approve? run toggle-simulated-logging on everything with {} [y/N]',
      );
      expect(out.stdout).toContain(`Result: ${expected}`);
      expect(model.problems).toEqual([]);
      // Streamed: the request asked for SSE.
      expect(model.requests[0]!.body.stream).toBe(true);
    }, 20_000);
  }

  it('shows tool calls and results as they happen', async () => {
    model = await startFakeModel([
      { toolCalls: [{ name: 'PingME' }] },
      { text: 'The magic word is BISMILLAH.' },
    ]);
    const { io, out } = terminal('Call PingME for me\n', {
      OPENAI_BASE_URL: model.openaiUrl,
      OPENAI_API_KEY: 'k',
    });
    const code = await run(
      ['--trust', 'pingme', '--server', '--', process.execPath, BIN, 'serve', 'pingme'],
      io,
    );
    expect(code).toBe(0);
    expect(out.stderr).toContain('1 tool: PingME');
    expect(out.stderr).toContain('you> ');
    expect(out.stderr).toContain('→ PingME (pingme) {}\n← BISMILLAH\n');
    expect(out.stdout).toBe('The magic word is BISMILLAH.\n');
  }, 20_000);
});
