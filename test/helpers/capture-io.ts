// An Io for running a CLI command in this process: what it writes is kept, stdin is empty and
// never a terminal, no colour.
import { PassThrough } from 'node:stream';
import type { Io } from '../../src/cli/io.js';

/** An Io whose output `stdout()` and `stderr()` return; `env` is the whole environment. */
export function captureIo(env: Io['env'] = {}): {
  io: Io;
  stdout: () => string;
  stderr: () => string;
} {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: new PassThrough(),
    isTTY: false,
    env,
    color: false,
  };
  return { io, stdout: () => stdout, stderr: () => stderr };
}
