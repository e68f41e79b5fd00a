// mcpkit replay: sends the client lines of a transcript (test/transcripts/*.txt, or one that
// mcpkit inspect wrote) to a server again, exactly as recorded, and compares what the server
// answers with what the transcript holds. Exit 0 when equal, 1 with the differences.
import { readFile } from 'node:fs/promises';
import type { Message, Transport } from '../../jsonrpc/index.js';
import { isProtocolRevision } from '../../protocol/index.js';
import { createStreamableHttpClientTransport } from '../../transports/http/index.js';
import { createStdioClientTransport } from '../../transports/stdio/index.js';
import { SHARED_HELP } from '../args.js';
import type { CommandContext } from '../command.js';
import { runCommand } from '../command.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { writeJson } from '../output.js';
import type { Target } from '../target.js';
import { singleTarget, targetLabel } from '../target.js';
import type { Transcript } from '../transcript.js';
import {
  TranscriptError,
  compareServerMessages,
  formatDifferences,
  parseTranscript,
  serverMessages,
} from '../transcript.js';

/** The --help text. */
export const help: string = `Usage: mcpkit replay <transcript> (<url> | -- <command …>) [flags]

Sends the client messages (">>" lines) of a transcript to a server again, as recorded, and
compares the server's messages with the transcript's "<<" lines. Responses are compared by
request id; notifications and the server's own requests in order. What differs between runs
of the same server is not compared: the ids of the server's own requests and its identity in
_meta (2026-07-28). Transcripts come from "mcpkit inspect" (Wire tab, Download transcript) or
are written by hand (test/transcripts/*.txt): "# revision: R" as a header line, then one
">> {json}" or "<< {json}" a line.

Before each client message, replay waits (up to --timeout) for the server messages that came
before it in the recording, so requests that the recording shows answered are answered first.

Exit codes: 0 the server's answers are equal, 1 they differ (the differences are printed),
2 the server could not be reached, 3 bad usage or an unreadable transcript.

Examples:
  mcpkit replay session.txt http://127.0.0.1:3000/mcp
  mcpkit replay test/transcripts/legacy-walkthrough.txt -- node server.js
  mcpkit replay session.txt http://127.0.0.1:3000/mcp --json

${SHARED_HELP}`;

/** The shape of `mcpkit replay --json`. */
export interface ReplayJson {
  equal: boolean;
  sent: number;
  received: number;
  differences: { what: string; expected: unknown; actual: unknown }[];
}

const DEFAULT_WAIT_MS = 10_000;

/** Runs `mcpkit replay`. */
export function run(args: readonly string[], io: Io): Promise<number> {
  return runCommand({ name: 'replay', options: {}, help }, { args, io }, async (ctx) => {
    const [file, ...rest] = ctx.parsed.positionals;
    if (file === undefined) {
      throw new UsageError('which transcript?', 'mcpkit replay <transcript> <url>');
    }
    const { target, rest: extra } = singleTarget({ ...ctx.parsed, positionals: rest }, ctx.common);
    const [unexpected] = target.kind === 'url' ? extra : rest;
    if (unexpected !== undefined) throw new UsageError(`unexpected argument "${unexpected}"`);
    const transcript = await readTranscript(file);
    const received = await replay(transcript, target, ctx);
    const expected = transcript.steps.flatMap((step) =>
      step.expect.map((line) => JSON.parse(line) as unknown),
    );
    const differences = compareServerMessages(serverMessages(expected), serverMessages(received));
    const result: ReplayJson = {
      equal: differences.length === 0,
      sent: transcript.steps.length,
      received: received.length,
      differences: differences.map((d) => ({ ...d })),
    };
    if (ctx.common.json) writeJson(ctx.io.stdout, result);
    else report(ctx, result, { differences: formatDifferences(differences), target });
    return result.equal ? ExitCode.Ok : ExitCode.ToolError;
  });
}

async function readTranscript(file: string): Promise<Transcript> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return parseTranscript(text);
  } catch (error) {
    if (error instanceof TranscriptError) throw new UsageError(`${file}: ${error.message}`);
    throw error;
  }
}

function report(
  ctx: CommandContext,
  result: ReplayJson,
  { differences, target }: { differences: string; target: Target },
): void {
  const { io, style } = ctx;
  const what = `${String(result.sent)} message${result.sent === 1 ? '' : 's'} sent to ${targetLabel(target)}`;
  if (result.equal) {
    io.stdout.write(`${style.green('equal')}: ${what}; the server answered as recorded\n`);
    return;
  }
  io.stdout.write(`${differences}\n`);
  const count = result.differences.length;
  io.stdout.write(
    `${style.red('different')}: ${what}; ${String(count)} difference${count === 1 ? '' : 's'} (- recorded, + now)\n`,
  );
}

/** The transport to `target`, as recorded messages need it: no client, no negotiation. */
function transportFor(target: Target, ctx: CommandContext): Transport {
  if (target.kind === 'url') {
    return createStreamableHttpClientTransport(target.url, { headers: { ...target.headers } });
  }
  return createStdioClientTransport({
    command: target.command,
    args: target.args,
    stderr: 'pipe',
    killTimeoutMs: 1000,
    ...(ctx.common.quiet
      ? {}
      : { onStderr: (chunk: string) => ctx.io.stderr.write(ctx.style.dim(chunk)) }),
  });
}

/**
 * Sends each client message of `transcript` and returns every message the server sent. Before
 * each client message, waits until the server messages recorded before it have come (responses
 * by id, others by count), or the timeout passes.
 */
async function replay(
  transcript: Transcript,
  target: Target,
  ctx: CommandContext,
): Promise<unknown[]> {
  const waitMs = ctx.common.timeoutMs ?? DEFAULT_WAIT_MS;
  const transport = transportFor(target, ctx) as Transport & {
    setProtocolVersion?(revision: string | undefined): void;
  };
  const received: Message[] = [];
  let wake: () => void = () => undefined;
  const link: { ended: boolean; error?: Error } = { ended: false };
  // Read through a function: the receiver changes it between awaits.
  const ended = (): boolean => link.ended;
  await transport.start({
    message: (message) => {
      received.push(message);
      const record = message as unknown as Record<string, unknown>;
      const result = record['result'] as Record<string, unknown> | undefined;
      if (
        typeof result?.['protocolVersion'] === 'string' &&
        isProtocolRevision(result['protocolVersion'])
      ) {
        transport.setProtocolVersion?.(result['protocolVersion']);
      }
      wake();
    },
    closed: (error) => {
      link.ended = true;
      if (error !== undefined) link.error = error;
      wake();
    },
  });
  if (transcript.revision === '2026-07-28') transport.setProtocolVersion?.(transcript.revision);
  const serverIds = new ServerIds();
  const want = { responses: new Set<string>(), others: 0 };
  try {
    for (const step of transcript.steps) {
      if (ended()) break;
      const message = serverIds.live(JSON.parse(step.send) as Record<string, unknown>);
      try {
        await transport.send(message as unknown as Message);
      } catch (error) {
        throw new CliError(
          `could not send to ${targetLabel(target)}: ${(error as Error).message}`,
          {
            exitCode: ExitCode.Failure,
            cause: error,
          },
        );
      }
      for (const line of step.expect) {
        const expected = JSON.parse(line) as Record<string, unknown>;
        if (expected['method'] === undefined && 'id' in expected)
          want.responses.add(JSON.stringify(expected['id']));
        else {
          want.others++;
          if ('id' in expected) serverIds.recorded.push(expected['id']);
        }
      }
      const deadline = Date.now() + waitMs;
      while (!ended() && !satisfied(received, want) && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, Math.max(0, Math.min(100, deadline - Date.now())));
        });
      }
      serverIds.seen(received);
    }
  } finally {
    await transport.close();
  }
  if (link.error !== undefined && received.length === 0) {
    throw new CliError(`the connection to ${targetLabel(target)} failed: ${link.error.message}`, {
      exitCode: ExitCode.Failure,
    });
  }
  return received;
}

/** Whether the server messages wanted so far have come. */
function satisfied(
  received: readonly Message[],
  want: { responses: Set<string>; others: number },
): boolean {
  let others = 0;
  const ids = new Set<string>();
  for (const message of received) {
    const record = message as unknown as Record<string, unknown>;
    if (record['method'] === undefined && 'id' in record) ids.add(JSON.stringify(record['id']));
    else others++;
  }
  if (others < want.others) return false;
  for (const id of want.responses) if (!ids.has(id)) return false;
  return true;
}

/**
 * The ids of the server's own requests: the recording's, in order, and the live ones, in
 * order; a recorded answer to the n-th server request is sent with the n-th live id.
 */
class ServerIds {
  readonly recorded: unknown[] = [];
  readonly #live: unknown[] = [];

  /** Notes the live server requests received so far. */
  seen(received: readonly Message[]): void {
    this.#live.length = 0;
    for (const message of received) {
      const record = message as unknown as Record<string, unknown>;
      if (typeof record['method'] === 'string' && 'id' in record) this.#live.push(record['id']);
    }
  }

  /** `message` with a response's id mapped to the live server request it answers. */
  live(message: Record<string, unknown>): Record<string, unknown> {
    if (message['method'] !== undefined || !('id' in message)) return message;
    const index = this.recorded.findIndex(
      (id) => JSON.stringify(id) === JSON.stringify(message['id']),
    );
    if (index < 0 || index >= this.#live.length) return message;
    return { ...message, id: this.#live[index] };
  }
}
