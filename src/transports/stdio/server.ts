// The server side of the stdio transport: JSON-RPC messages read from this process's stdin and
// written to its stdout, one per line. Spec 2025-11-25 basic/transports#stdio; 2026-07-28
// basic/transports/stdio. stdout carries nothing but messages, so this file never logs.
import process from 'node:process';
import { LocalError, LocalErrorCode } from '../../jsonrpc/errors.js';
import type { Message } from '../../jsonrpc/message.js';
import { Inbox } from '../../jsonrpc/inbox.js';
import type { Receiver, Transport } from '../../jsonrpc/transport.js';
import { Channel } from './channel.js';
import { noop } from '../../internal/noop.js';

/** Options for {@link createStdioServerTransport}. Every field is optional. */
export interface StdioServerOptions {
  /** Where messages come from. Default `process.stdin`. */
  stdin?: NodeJS.ReadableStream;
  /** Where messages go. Default `process.stdout`; it is never ended by the transport. */
  stdout?: NodeJS.WritableStream;
  /** The longest accepted line in bytes; longer ones get a -32600 reply. Default 64 MiB. */
  maxLineBytes?: number;
}

/**
 * Creates the server end of a stdio transport.
 *
 * - A line that is not a JSON-RPC message is answered with the codec's -32700 / -32600 error
 *   response (id null) and reading goes on; so is an over-long line (see `maxLineBytes`).
 * - A batch goes to `receiver.batch`, or is answered -32600 when the receiver has none.
 * - End of input (the client closed our stdin) closes the transport: `receiver.closed()` is
 *   called once, without an error. A failing stdin or stdout (EPIPE) closes it with the error.
 * - `send` writes in call order and resolves after 'drain' when stdout is backed up. After the
 *   transport closed, sends (also those queued or waiting for 'drain') reject with
 *   LocalError('CONNECTION_CLOSED').
 * - `close` stops reading: it removes its listeners and pauses stdin so that stdin no longer
 *   keeps the process alive. It never ends stdout and never exits the process. Idempotent.
 *
 * Closing on end of input means a Connection abandons requests still being served then; a
 * server that should answer `echo request | server` must drain before it lets the input end.
 * Throws a TypeError for an invalid `maxLineBytes`.
 */
export function createStdioServerTransport(options: StdioServerOptions = {}): Transport {
  return new StdioServerTransport(options);
}

class StdioServerTransport implements Transport {
  readonly #channel: Channel;
  readonly #inbox = new Inbox();

  constructor(options: StdioServerOptions) {
    const streams = {
      input: options.stdin ?? process.stdin,
      output: options.stdout ?? process.stdout,
    };
    const events = {
      inputEnded: () => {
        this.#finish(undefined);
      },
      inputFailed: (error: Error) => {
        this.#finish(streamError('stdin', error));
      },
      outputFailed: (error: Error) => {
        this.#finish(streamError('stdout', error));
      },
      // The error response written back is the report; this transport has no logger.
      invalidInput: noop,
    };
    const channelOptions =
      options.maxLineBytes === undefined
        ? { peer: 'client', answerInvalid: true }
        : { peer: 'client', answerInvalid: true, maxLineBytes: options.maxLineBytes };
    this.#channel = new Channel(streams, events, channelOptions);
  }

  start(receiver: Receiver): Promise<void> {
    const wasStarted = this.#inbox.started;
    const started = this.#inbox.start(receiver);
    // The channel delivers to the receiver itself (it answers batches the receiver refuses).
    if (!wasStarted && !this.#inbox.closed) this.#channel.startReading(receiver);
    return started;
  }

  send(message: Message | readonly Message[]): Promise<void> {
    return this.#channel.send(message);
  }

  close(): Promise<void> {
    this.#finish(undefined);
    return Promise.resolve();
  }

  #finish(error: Error | undefined): void {
    if (this.#inbox.closed) return;
    this.#channel.stopReading(false);
    this.#channel.stopWriting();
    this.#channel.detachOutput(false);
    this.#inbox.close(error);
  }
}

function streamError(name: string, cause: Error): LocalError {
  return new LocalError(LocalErrorCode.ConnectionClosed, `${name} failed: ${cause.message}`, {
    cause,
  });
}
