// One run of the module `mcpkit dev` serves: a child process running `mcpkit serve <file>
// --stdio` (which imports the module as serve does, TypeScript through tsx). It is started
// ahead and counts as loaded once serve says it is serving; only then is its transport handed
// to the gateway, so a version that fails to load never replaces the one serving.
import process from 'node:process';
import type { Message, Receiver, Transport } from '../../jsonrpc/index.js';
import type { ProcessExit } from '../../transports/stdio/index.js';
import { createStdioClientTransport } from '../../transports/stdio/index.js';

/** What serve says on stderr once the module has loaded and stdio is served. */
const READY = /^mcpkit serve: .* is serving on stdio$/;
/** What serve says when it stops: no news (the run was told to end, or Ctrl-C reached it). */
const STOPPED = /^mcpkit serve: .* stopped \(/;
/** ANSI escapes, stripped before a line is matched. */
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** A loaded run of the module. */
export interface DevChild {
  /** Its connection, for the gateway: to start once. */
  readonly transport: Transport;
  /** Settles when the process has exited. */
  readonly exit: Promise<ProcessExit>;
  /** Ends the process (stdin closed, then SIGTERM). Idempotent. */
  close(): Promise<void>;
}

/** The module failed to load: the child exited before serving (its error was on stderr). */
export class LoadFailure extends Error {
  constructor(exit: ProcessExit) {
    super(
      exit.signal === null
        ? `the module failed to load (exit code ${String(exit.code)})`
        : `the module's process ended on ${exit.signal} before it served`,
    );
    this.name = 'LoadFailure';
  }
}

/** Options of {@link startChild}. */
export interface ChildOptions {
  /** The CLI's entry (what `mcpkit` runs). */
  readonly cli: string;
  /** The module, an absolute path. */
  readonly file: string;
  /** The environment the module sees (the user's own: a dev server needs its variables). */
  readonly env: Record<string, string>;
  /** Receives each line of the child's stderr but the ready line. */
  readonly onLine: (line: string) => void;
}

/** Starts a run of the module; resolves once it is loaded, rejects with LoadFailure if not. */
export async function startChild(options: ChildOptions): Promise<DevChild> {
  let ready: () => void = () => undefined;
  const loaded = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const inner = createStdioClientTransport({
    command: process.execPath,
    args: [options.cli, 'serve', options.file, '--stdio'],
    env: options.env,
    stderr: 'pipe',
    killTimeoutMs: 1000,
    onStderr: lineSplitter((line) => {
      const plain = line.replace(ANSI, '');
      if (READY.test(plain)) ready();
      else if (!STOPPED.test(plain)) options.onLine(line);
    }),
  });
  const handoff = new Handoff(inner);
  await inner.start(handoff.receiver);
  const exited = await Promise.race([loaded.then(() => undefined), inner.exit]);
  if (exited !== undefined) throw new LoadFailure(exited);
  return { transport: handoff.transport, exit: inner.exit, close: () => inner.close() };
}

/**
 * The child's transport, started at once (the process runs) and handed over later: what
 * arrives before the new owner starts it is kept and delivered then.
 */
class Handoff {
  readonly #inner: Transport;
  #owner: Receiver | undefined;
  readonly #early: Message[] = [];
  #closed: { error: Error | undefined } | undefined;

  constructor(inner: Transport) {
    this.#inner = inner;
  }

  readonly receiver: Receiver = {
    message: (message) => {
      if (this.#owner === undefined) this.#early.push(message);
      else this.#owner.message(message);
    },
    closed: (error) => {
      if (this.#owner === undefined) this.#closed = { error };
      else this.#owner.closed(error);
    },
  };

  readonly transport: Transport = {
    start: (receiver) => {
      this.#owner = receiver;
      for (const message of this.#early.splice(0)) receiver.message(message);
      if (this.#closed !== undefined) receiver.closed(this.#closed.error);
      return Promise.resolve();
    },
    send: (message, options) => this.#inner.send(message, options),
    close: () => this.#inner.close(),
    cancel: (requestId, reason) => this.#inner.cancel?.(requestId, reason) ?? false,
  };
}

/** Turns stderr chunks into lines (a line's end may come in a later chunk). */
function lineSplitter(onLine: (line: string) => void): (chunk: string) => void {
  let partial = '';
  return (chunk) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) onLine(line.replace(/\r$/, ''));
  };
}
