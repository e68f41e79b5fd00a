// The client side of the stdio transport: spawns the server as a child process and exchanges
// newline-delimited JSON-RPC messages over its stdin and stdout. Spec 2025-11-25
// basic/transports#stdio; shutdown follows 2026-07-28 basic/transports/stdio#shutdown (close
// stdin, wait, then SIGTERM, then SIGKILL).
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import process from 'node:process';
import { LocalError, LocalErrorCode } from '../../jsonrpc/errors.js';
import type { Message } from '../../jsonrpc/message.js';
import { Inbox } from '../../jsonrpc/inbox.js';
import type { Receiver, Transport } from '../../jsonrpc/transport.js';
import { Channel } from './channel.js';
import { checkMaxLineBytes } from './framing.js';
import { noop } from '../../internal/noop.js';

/** Options for {@link createStdioClientTransport}. Only `command` is required. */
export interface StdioClientOptions {
  /** The program to run. Spawned directly, without a shell. */
  command: string;
  /** Its arguments. Default none. */
  args?: readonly string[];
  /** Variables added to {@link getDefaultEnvironment} (and overriding it). Default none. */
  env?: Record<string, string>;
  /** Its working directory. Default this process's. */
  cwd?: string;
  /**
   * What happens to the child's stderr: `'pipe'` captures it (see `stderrText`, `onStderr`),
   * `'inherit'` shares this process's stderr, `'ignore'` discards it. Default `'pipe'`.
   */
  stderr?: 'pipe' | 'inherit' | 'ignore';
  /** The longest accepted line from the server in bytes. Default 64 MiB. */
  maxLineBytes?: number;
  /** How long `close` waits after closing stdin before SIGTERM, and again before SIGKILL. Default 2000. */
  killTimeoutMs?: number;
  /** Receives the child's stderr as it arrives (with `stderr: 'pipe'`). Must not throw. */
  onStderr?: (chunk: string) => void;
  /**
   * Hears about stdout lines that were dropped: not JSON-RPC (a server logging to stdout), too
   * long, or a batch the receiver does not take. Each is a LocalError('INVALID_MESSAGE') quoting
   * the start of the line. Nothing is written back to the server. Must not throw.
   */
  onError?: (error: LocalError) => void;
}

/** How a child process ended: an exit code, or the signal that killed it. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * StdioClientTransport is a Transport to a server running as a child process.
 *
 * - `start` spawns the child and resolves once it runs; it rejects with a LocalError naming the
 *   command when the command cannot be spawned.
 * - Lines on the child's stdout that are not messages are dropped and reported to `onError`.
 * - When the child exits without being asked to, `receiver.closed` gets a
 *   {@link ProcessExitError} with the exit code or signal and the tail of its stderr.
 * - `send` writes in call order and resolves after 'drain' when the child is slow to read; a
 *   write to a child that is gone (EPIPE) rejects with LocalError('CONNECTION_CLOSED').
 * - `close` closes the child's stdin, sends SIGTERM after `killTimeoutMs` and SIGKILL after as
 *   long again, and resolves once the child has exited. Idempotent.
 */
export interface StdioClientTransport extends Transport {
  /** The child's process id, once spawned. */
  readonly pid: number | undefined;
  /** The last 64 KiB of the child's stderr (with `stderr: 'pipe'`; otherwise empty). */
  readonly stderrText: string;
  /** Settles when the child has exited; never rejects (code and signal null if it never ran). */
  readonly exit: Promise<ProcessExit>;
}

/**
 * ProcessExitError reports that the server process ended on its own. It is a
 * LocalError('CONNECTION_CLOSED') carrying the exit code, the signal and the stderr tail.
 */
export class ProcessExitError extends LocalError {
  /** The exit code, or null when a signal ended the process. */
  readonly exitCode: number | null;
  /** The signal that ended the process, if any. */
  readonly signal: NodeJS.Signals | null;
  /** The last 64 KiB of the process's stderr (empty unless captured). */
  readonly stderr: string;

  constructor(message: string, details: { exit: ProcessExit; stderr: string }) {
    super(LocalErrorCode.ConnectionClosed, message);
    this.name = 'ProcessExitError';
    this.exitCode = details.exit.code;
    this.signal = details.exit.signal;
    this.stderr = details.stderr;
  }
}

/**
 * Creates a client transport that runs `options.command` as the server. Spawns on `start`.
 * Throws a TypeError for an invalid `maxLineBytes` or `killTimeoutMs`.
 */
export function createStdioClientTransport(options: StdioClientOptions): StdioClientTransport {
  return new StdioClient(options);
}

const POSIX_INHERITED_ENV = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'] as const;
const WINDOWS_INHERITED_ENV = [
  'APPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PROCESSOR_ARCHITECTURE',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'USERNAME',
  'USERPROFILE',
  'PROGRAMFILES',
] as const;

/**
 * The environment a server inherits by default: only the variables a program needs to run
 * (POSIX: HOME, LOGNAME, PATH, SHELL, TERM, USER), so secrets in this process's environment do
 * not leak to it. Values that look like exported shell functions (`() {…`) are skipped.
 */
export function getDefaultEnvironment(): Record<string, string> {
  const names = process.platform === 'win32' ? WINDOWS_INHERITED_ENV : POSIX_INHERITED_ENV;
  const env: Record<string, string> = {};
  for (const name of names) {
    const value = process.env[name];
    if (value === undefined || value.startsWith('()')) continue;
    env[name] = value;
  }
  return env;
}

const STDERR_KEPT_CHARS = 64 * 1024;
const STDERR_IN_MESSAGE_CHARS = 2048;
const DEFAULT_KILL_TIMEOUT_MS = 2000;

class StdioClient implements StdioClientTransport {
  readonly exit: Promise<ProcessExit>;
  readonly #options: StdioClientOptions;
  readonly #killTimeoutMs: number;
  #resolveExit: (exit: ProcessExit) => void = noop;
  #child: ChildProcess | undefined;
  #channel: Channel | undefined;
  /** Takes the receiver once the child is running, and reports the close to it once. */
  readonly #inbox = new Inbox();
  #stderr = '';
  #started = false;
  #closeRequested = false;
  /** Set when the child exits: whether we had asked it to. */
  #exitRequested = false;
  #exited = false;
  #closeReported = false;
  #closing: Promise<void> | undefined;
  #whenClosed: Promise<void>;
  #resolveClosed: () => void = noop;
  #timers: ReturnType<typeof setTimeout>[] = [];

  constructor(options: StdioClientOptions) {
    this.#options = options;
    checkMaxLineBytes(options.maxLineBytes);
    this.#killTimeoutMs = options.killTimeoutMs ?? DEFAULT_KILL_TIMEOUT_MS;
    if (!Number.isFinite(this.#killTimeoutMs) || this.#killTimeoutMs < 0) {
      throw new TypeError(
        `killTimeoutMs must be a non-negative number, got ${String(this.#killTimeoutMs)}`,
      );
    }
    this.exit = new Promise((resolve) => {
      this.#resolveExit = resolve;
    });
    this.#whenClosed = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  get stderrText(): string {
    return this.#stderr.length > STDERR_KEPT_CHARS
      ? this.#stderr.slice(-STDERR_KEPT_CHARS)
      : this.#stderr;
  }

  async start(receiver: Receiver): Promise<void> {
    if (this.#started) {
      throw new LocalError(LocalErrorCode.AlreadyStarted, 'transport already started');
    }
    this.#started = true;
    if (this.#closeRequested) {
      throw new LocalError(LocalErrorCode.ConnectionClosed, 'transport closed before start');
    }
    let child: ChildProcess;
    try {
      child = this.#spawn();
    } catch (error) {
      // spawn throws synchronously on invalid arguments (a NUL byte in an argument, say).
      this.#settleFailedStart();
      throw this.#spawnError(error instanceof Error ? error : new Error(String(error)));
    }
    this.#child = child;
    await new Promise<void>((resolve, reject) => {
      const onSpawn = (): void => {
        child.off('error', onError);
        resolve();
      };
      const onError = (error: Error): void => {
        child.off('spawn', onSpawn);
        reject(this.#spawnError(error));
      };
      child.once('spawn', onSpawn);
      child.once('error', onError);
    }).catch((error: unknown) => {
      this.#child = undefined;
      this.#settleFailedStart();
      throw error;
    });
    // A close that came while the child was spawning is reported now.
    await this.#inbox.start(receiver);
    // If close() ran while the child was spawning, the channel reads and drops (see #shutdown).
    this.#channel?.startReading(receiver);
  }

  /** A start that failed leaves nothing running: no close will be reported, exit is settled. */
  #settleFailedStart(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#channel?.stopWriting();
    this.#resolveExit({ code: null, signal: null });
    this.#closeReported = true;
    this.#resolveClosed();
  }

  send(message: Message | readonly Message[]): Promise<void> {
    const channel = this.#channel;
    if (this.#closeRequested || this.#closeReported) {
      return Promise.reject(new LocalError(LocalErrorCode.ConnectionClosed, 'transport closed'));
    }
    if (channel === undefined) {
      return Promise.reject(new LocalError(LocalErrorCode.NotConnected, 'transport not started'));
    }
    return channel.send(message);
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#closeRequested = true;
    const child = this.#child;
    const channel = this.#channel;
    if (child === undefined || channel === undefined) {
      // Never started, or the spawn failed: there is nothing to stop.
      this.#report(undefined);
      return;
    }
    // Keep reading (and dropping) stdout: a child blocked on a full pipe could not exit.
    channel.stopReading(true);
    channel.stopWriting();
    if (!this.#exited) {
      child.stdin?.end();
      this.#timers.push(
        setTimeout(() => {
          this.#kill('SIGTERM');
          this.#timers.push(
            setTimeout(() => {
              this.#kill('SIGKILL');
            }, this.#killTimeoutMs),
          );
        }, this.#killTimeoutMs),
      );
    }
    await this.#whenClosed;
  }

  #spawn(): ChildProcess {
    const { command, args = [], cwd, stderr = 'pipe' } = this.#options;
    const child = spawn(command, [...args], {
      env: { ...getDefaultEnvironment(), ...this.#options.env },
      stdio: ['pipe', 'pipe', stderr],
      shell: false,
      windowsHide: true,
      ...(cwd === undefined ? {} : { cwd }),
    });
    const { stdin, stdout } = child;
    if (stdin === null || stdout === null) {
      throw new LocalError(
        LocalErrorCode.NotConnected,
        `cannot start "${command}": no stdio pipes`,
      );
    }
    const { maxLineBytes } = this.#options;
    this.#channel = new Channel(
      { input: stdout, output: stdin },
      {
        // The child's 'close' (below) is what ends this transport, with the exit status. A
        // failed stdin is remembered by the channel, which then rejects sends with its cause.
        inputEnded: noop,
        inputFailed: noop,
        outputFailed: noop,
        invalidInput: (error) => this.#options.onError?.(error),
      },
      // Not answered: a client writes only valid MCP messages to the server's stdin, and the
      // 2026-07-28 stdio binding has clients write no responses at all.
      maxLineBytes === undefined
        ? { peer: 'server process', answerInvalid: false }
        : { peer: 'server process', answerInvalid: false, maxLineBytes },
    );
    stdout.on('error', noop);
    if (child.stderr !== null) {
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', this.#onStderr);
      child.stderr.on('error', noop);
    }
    child.on('exit', this.#onExit);
    child.on('close', this.#onClose);
    // After a successful spawn, 'error' means a failed kill; the exit still reports the end.
    child.on('error', noop);
    return child;
  }

  #spawnError(error: Error): LocalError {
    const { command, cwd } = this.#options;
    const code = (error as NodeJS.ErrnoException).code;
    let reason: string;
    if (code === 'ENOENT') {
      reason =
        cwd === undefined
          ? 'command not found'
          : `command not found, or working directory "${cwd}" does not exist`;
    } else if (code === 'EACCES') {
      reason = 'permission denied';
    } else {
      reason = error.message;
    }
    return new LocalError(
      LocalErrorCode.NotConnected,
      `cannot start "${command}": ${reason}${code === undefined ? '' : ` (${code})`}`,
      { cause: error },
    );
  }

  #kill(signal: NodeJS.Signals): void {
    if (this.#exited) return;
    this.#child?.kill(signal);
  }

  readonly #onStderr = (chunk: string): void => {
    this.#stderr += chunk;
    // Trim in steps, not on every chunk, so that a chatty child costs O(1) per chunk.
    if (this.#stderr.length > 2 * STDERR_KEPT_CHARS) {
      this.#stderr = this.#stderr.slice(-STDERR_KEPT_CHARS);
    }
    this.#options.onStderr?.(chunk);
  };

  readonly #onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
    this.#exited = true;
    this.#exitRequested = this.#closeRequested;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#resolveExit({ code, signal });
    const child = this.#child;
    if (child === undefined) return;
    if (this.#closeRequested) {
      // Whatever the child still had to say is of no interest now; let 'close' come.
      child.stdout?.destroy();
      child.stderr?.destroy();
      return;
    }
    // A grandchild holding the pipes open must not delay the report forever.
    const timer = setTimeout(() => {
      child.stdout?.destroy();
      child.stderr?.destroy();
    }, this.#killTimeoutMs);
    timer.unref();
    this.#timers.push(timer);
  };

  readonly #onClose = (code: number | null, signal: NodeJS.Signals | null): void => {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers = [];
    this.#channel?.stopReading(false);
    this.#channel?.stopWriting();
    this.#channel?.detachOutput(true);
    if (this.#exitRequested) {
      this.#report(undefined);
      return;
    }
    const exit = { code, signal };
    this.#report(new ProcessExitError(this.#exitMessage(exit), { exit, stderr: this.stderrText }));
  };

  #exitMessage(exit: ProcessExit): string {
    const how =
      exit.signal === null
        ? `exited with code ${String(exit.code)}`
        : `was killed by ${exit.signal}`;
    const tail = this.stderrText.slice(-STDERR_IN_MESSAGE_CHARS).trim();
    return `server process "${this.#options.command}" ${how}${tail === '' ? '' : `; stderr: ${tail}`}`;
  }

  #report(error: Error | undefined): void {
    if (this.#closeReported) return;
    this.#closeReported = true;
    this.#resolveClosed();
    this.#inbox.close(error);
  }
}
