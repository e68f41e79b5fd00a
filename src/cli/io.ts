// The process surface every command writes to and reads from. Commands take an Io instead of
// touching `process` so that tests can inject streams and a TTY flag.
import process from 'node:process';
import type { TextSink } from './terminal.js';
import { terminalSink } from './terminal.js';

export type { TextSink } from './terminal.js';

/**
 * Io is what a command may use of its process: output streams, the input stream, whether a
 * person is at a terminal, the environment and whether to colour output.
 */
export interface Io {
  /** Results: what a script pipes on. Never progress, logs or prompts. */
  readonly stdout: TextSink;
  /** Diagnostics: errors, hints, progress, logs, traces and prompts. */
  readonly stderr: TextSink;
  /** Answers to interactive prompts (elicitation). */
  readonly stdin: NodeJS.ReadableStream;
  /** True when stdin and stderr are terminals: progress bars and prompts are allowed. */
  readonly isTTY: boolean;
  /** The environment (`NO_COLOR`, `DATABASE_URL`, …). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether output may carry ANSI colours: both streams are terminals and NO_COLOR is unset. */
  readonly color: boolean;
}

/** Whether `env` forbids colours (https://no-color.org: present and not empty). */
export function noColor(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env['NO_COLOR'];
  return value !== undefined && value !== '';
}

/**
 * The Io of this process. A stream that is a terminal shows the control characters of what is
 * written to it (server text) instead of obeying them; a pipe or a file gets the text as it is.
 */
export function processIo(): Io {
  const env = process.env;
  // Both streams: a redirected one (a log file) must not collect escape codes.
  const color = isTerminal(process.stdout) && isTerminal(process.stderr) && !noColor(env);
  const sink = (stream: NodeJS.WriteStream): TextSink =>
    isTerminal(stream) ? terminalSink(stream, color) : stream;
  return {
    stdout: sink(process.stdout),
    stderr: sink(process.stderr),
    stdin: process.stdin,
    isTTY: isTerminal(process.stdin) && isTerminal(process.stderr),
    env,
    color,
  };
}

/** Whether a stream is a terminal (`isTTY` is absent, not false, on pipes and files). */
function isTerminal(stream: { readonly isTTY?: boolean }): boolean {
  return stream.isTTY === true;
}
