// What the commands that serve (serve, gateway) share: the errors of binding an HTTP port, told
// as a person can act on them, and knowing when a stdio client went away.
import type { Message, Receiver, Transport } from '../jsonrpc/index.js';
import { UsageError } from './errors.js';

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
  };
  return { transport, closed };
}
