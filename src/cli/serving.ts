// What the commands that serve (serve, gateway) share: `--http`'s default port, the errors of
// binding it, told as a person can act on them, and knowing when to stop (a signal, or a stdio
// client gone).
import process from 'node:process';
import type { Message, Receiver, Transport } from '../jsonrpc/index.js';
import { UsageError } from './errors.js';

/** The port `--http` without a value serves on. */
export const DEFAULT_PORT = 3000;

/** The error of listening on `address`, as a UsageError with a hint where one helps. */
export function listenError(error: unknown, address: { host: string; port: number }): Error {
  const code = (error as { code?: unknown }).code;
  const where = `${address.host}:${String(address.port)}`;
  if (code === 'EADDRINUSE') {
    return new UsageError(
      `${where} is already in use`,
      'pick another port: --http 0 picks a free one',
    );
  }
  if (code === 'EACCES')
    return new UsageError(`no permission to listen on ${where}`, 'use a port above 1023');
  if (error instanceof TypeError && error.message.includes('allowedHosts')) {
    return new UsageError(
      `binding to ${address.host} needs the Host names clients will use`,
      'pass --allowed-host <name> for each (the default accepts loopback names only)',
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** Wraps a transport to learn when it closes (the client closed stdin). */
export function watchClose(inner: Transport): { transport: Transport; closed: Promise<void> } {
  let done: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    done = resolve;
  });
  const transport: Transport = {
    start: (receiver: Receiver) =>
      inner.start({
        message: (message: Message, info) => {
          receiver.message(message, info);
        },
        ...(receiver.batch === undefined ? {} : { batch: receiver.batch.bind(receiver) }),
        closed: (error) => {
          receiver.closed(error);
          done();
        },
      }),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
    cancel: (requestId, reason) => inner.cancel?.(requestId, reason) ?? false,
  };
  return { transport, closed };
}

export /** `--http` may come without a value: give it the default port. */
function withHttpDefault(args: readonly string[]): string[] {
  const result: string[] = [];
  args.forEach((arg, index) => {
    const next = args[index + 1];
    const dash = args.indexOf('--');
    const beforeDash = dash < 0 || index < dash;
    if (arg === '--http' && beforeDash && (next === undefined || !ADDRESS.test(next))) {
      result.push(`--http=${String(DEFAULT_PORT)}`);
    } else {
      result.push(arg);
    }
  });
  return result;
}

const ADDRESS = /^(?:(\[[^\]]+\]|[^:[\]\s]+):)?(\d{1,5})$/;

/** Parses `port`, `host:port` or `[v6]:port`. Throws UsageError. */
export function parseAddress(value: string): { host: string; port: number } {
  const match = ADDRESS.exec(value);
  const port = Number(match?.[2]);
  if (match === null || !(port >= 0 && port <= 65_535)) {
    throw new UsageError(
      `invalid --http address "${value}"`,
      'write a port (3000) or host:port (0.0.0.0:3000)',
    );
  }
  const host = (match[1] ?? '127.0.0.1').replace(/^\[(.*)\]$/, '$1');
  return { host, port };
}

export /** Resolves on SIGINT or SIGTERM (or when `also` settles), removing the listeners after. */
async function untilStopped(also?: Promise<unknown>): Promise<string> {
  let stop: (reason: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => {
    stop = resolve;
  });
  const onInt = () => {
    stop('SIGINT');
  };
  const onTerm = () => {
    stop('SIGTERM');
  };
  process.once('SIGINT', onInt);
  process.once('SIGTERM', onTerm);
  try {
    return await Promise.race(
      also === undefined ? [stopped] : [stopped, also.then(() => 'end of input')],
    );
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
}
