// The part the stdio server and client transports share: NDJSON frames over a readable and a
// writable stream. Reading decodes lines into messages for a Receiver and reports (server side:
// also answers) malformed input; writing keeps call order and honours backpressure. Lifecycle
// policy (what ends the transport, when receiver.closed is called) stays with the transports.
import { messageOf } from '../../internal/message-of.js';
import type { BatchItem } from '../../jsonrpc/codec.js';
import { decode, errorResponse } from '../../jsonrpc/codec.js';
import { ErrorCode, LocalError, LocalErrorCode } from '../../jsonrpc/errors.js';
import type { ErrorResponse, Message } from '../../jsonrpc/message.js';
import type { Receiver } from '../../jsonrpc/transport.js';
import type { LineSplitter } from './framing.js';
import { createLineSplitter, encodeFrame } from './framing.js';
import { noop } from '../../internal/noop.js';

/** What the owner of a channel hears about its streams. */
export interface ChannelEvents {
  /** The input reached end of file (after its last line was delivered). */
  inputEnded(): void;
  /** The input stream failed. */
  inputFailed(error: Error): void;
  /** The output stream failed (EPIPE: the peer is gone) or closed under us. */
  outputFailed(error: Error): void;
  /** A line was not a message (or was too long, or a batch nobody takes); it was dropped. */
  invalidInput(error: LocalError): void;
}

/** Options for {@link Channel}. */
export interface ChannelOptions {
  /** See LineSplitterOptions.maxLineBytes. */
  maxLineBytes?: number;
  /** Names the peer in error messages ("client", "server process"). */
  peer: string;
  /**
   * Whether invalid input is answered with an error response (id null), as a JSON-RPC server
   * does. Either way `invalidInput` hears about it.
   */
  answerInvalid: boolean;
}

interface DrainWaiter {
  resolve(): void;
  reject(error: Error): void;
}

/**
 * Channel moves NDJSON frames over one readable/writable pair.
 *
 * Sends are written strictly in call order: at once when nothing is queued, else through a
 * promise chain. A write that the stream
 * refuses (`write()` returns false) resolves only after 'drain', so the stream never buffers more
 * than its high-water mark plus one frame. After `stopWriting`, queued and new sends reject with
 * LocalError('CONNECTION_CLOSED').
 */
export class Channel {
  readonly #input: NodeJS.ReadableStream;
  readonly #output: NodeJS.WritableStream;
  readonly #events: ChannelEvents;
  readonly #peer: string;
  readonly #answers: boolean;
  readonly #splitter: LineSplitter;
  #receiver: Receiver | undefined;
  #reading = false;
  /** Set by stopReading: a later startReading then reads without delivering. */
  #halted = false;
  #inputDone = false;
  #writing = true;
  #outputError: Error | undefined;
  /** Settles once every send so far is written (or failed); later sends queue behind it. */
  #tail: Promise<void> = WRITTEN;
  /** Sends queued behind #tail and not yet written. */
  #queued = 0;
  #waiter: DrainWaiter | undefined;

  constructor(
    streams: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream },
    events: ChannelEvents,
    options: ChannelOptions,
  ) {
    this.#input = streams.input;
    this.#output = streams.output;
    this.#events = events;
    this.#peer = options.peer;
    this.#answers = options.answerInvalid;
    const splitterOptions = {
      onError: (error: LocalError) => {
        this.#invalid(
          errorResponse(ErrorCode.InvalidRequest, `invalid request: ${error.message}`),
          '',
        );
      },
    };
    const onLine = (line: string): void => {
      this.#deliver(line);
    };
    this.#splitter = createLineSplitter(
      onLine,
      options.maxLineBytes === undefined
        ? splitterOptions
        : { ...splitterOptions, maxLineBytes: options.maxLineBytes },
    );
    this.#output.on('error', this.#onOutputError);
    this.#output.on('close', this.#onOutputClose);
  }

  /** Starts reading and delivering to `receiver` (only reading, once stopReading has run). */
  startReading(receiver: Receiver): void {
    if (!this.#halted) {
      this.#receiver = receiver;
      this.#reading = true;
    }
    this.#input.on('data', this.#onData);
    this.#input.on('end', this.#onEnd);
    this.#input.on('close', this.#onEnd);
    this.#input.on('error', this.#onInputError);
  }

  /**
   * Stops delivering. With `drain`, input is still read (and dropped) so that a peer blocked on
   * a full pipe can exit; otherwise the listeners are removed and the input is paused, so it no
   * longer keeps the process alive.
   */
  stopReading(drain: boolean): void {
    this.#halted = true;
    this.#reading = false;
    this.#receiver = undefined;
    if (drain) return;
    this.#input.off('data', this.#onData);
    this.#input.off('end', this.#onEnd);
    this.#input.off('close', this.#onEnd);
    this.#input.off('error', this.#onInputError);
    // Someone else may still read this stream (a shared process.stdin); leave it flowing then.
    if (this.#input.listenerCount('data') === 0) this.#input.pause();
  }

  /** Rejects queued and future sends; a send waiting for 'drain' rejects too. */
  stopWriting(): void {
    if (!this.#writing) return;
    this.#writing = false;
    this.#wake(closedError(`connection to the ${this.#peer} closed`));
  }

  /**
   * Removes the output listeners once the owner is done with the output. With `guard`, an
   * 'error' listener that ignores everything stays: a late EPIPE from a frame still in a pipe we
   * own must not become an uncaught exception. (Not for process.stdout: that is not ours.)
   */
  detachOutput(guard: boolean): void {
    this.#output.off('error', this.#onOutputError);
    this.#output.off('close', this.#onOutputClose);
    if (guard) this.#output.on('error', noop);
  }

  /** Sends one frame after every earlier one. See the class comment for the contract. */
  send(message: Message | readonly Message[]): Promise<void> {
    if (!this.#writing) return Promise.reject(this.#notWritable());
    let frame: string;
    try {
      frame = encodeFrame(message);
    } catch (error) {
      // JSON.stringify throws on a BigInt or a cycle: a caller's mistake, reported to the caller.
      const detail = messageOf(error);
      return Promise.reject(
        new LocalError(LocalErrorCode.InvalidMessage, `cannot encode message: ${detail}`, {
          cause: error,
        }),
      );
    }
    if (this.#queued === 0 && this.#waiter === undefined) {
      // Nothing is queued or waiting for 'drain': write now, without a promise hop; later sends
      // queue behind this one only if it has to wait for 'drain'.
      const written = this.#write(frame);
      if (written !== WRITTEN) this.#tail = written.then(noop, noop);
      return written;
    }
    this.#queued++;
    const result = this.#tail.then(() => {
      this.#queued--;
      return this.#write(frame);
    });
    this.#tail = result.then(noop, noop);
    return result;
  }

  #write(frame: string): Promise<void> {
    if (!this.#writing || !this.#output.writable) return Promise.reject(this.#notWritable());
    if (this.#output.write(frame)) return WRITTEN;
    return new Promise<void>((resolve, reject) => {
      const onDrain = (): void => {
        this.#wake(undefined);
      };
      this.#waiter = {
        resolve: () => {
          this.#output.off('drain', onDrain);
          resolve();
        },
        reject: (error) => {
          this.#output.off('drain', onDrain);
          reject(error);
        },
      };
      this.#output.on('drain', onDrain);
    });
  }

  /** Settles the send waiting for 'drain', if any: resolves it, or rejects it with `error`. */
  #wake(error: Error | undefined): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    if (waiter === undefined) return;
    if (error === undefined) waiter.resolve();
    else waiter.reject(error);
  }

  #notWritable(): LocalError {
    if (this.#outputError === undefined || !this.#writing) {
      return closedError(`connection to the ${this.#peer} closed`);
    }
    return closedError(`cannot write to the ${this.#peer}: ${this.#outputError.message}`, {
      cause: this.#outputError,
    });
  }

  readonly #onOutputError = (error: Error): void => {
    this.#outputError ??= error;
    this.#wake(this.#notWritable());
    this.#events.outputFailed(error);
  };

  readonly #onOutputClose = (): void => {
    this.#outputError ??= new Error('output stream closed');
    this.#wake(this.#notWritable());
    this.#events.outputFailed(this.#outputError);
  };

  readonly #onData = (chunk: string | Uint8Array): void => {
    if (!this.#reading) return;
    // #deliver drops lines once a receiver callback has stopped reading.
    this.#splitter.push(chunk);
  };

  readonly #onEnd = (): void => {
    if (this.#inputDone) return;
    this.#inputDone = true;
    if (this.#reading) {
      this.#splitter.end();
    }
    this.#events.inputEnded();
  };

  readonly #onInputError = (error: Error): void => {
    this.#events.inputFailed(error);
  };

  #deliver(line: string): void {
    const receiver = this.#receiver;
    if (receiver === undefined) return;
    const decoded = decode(line, { allowBatch: true });
    switch (decoded.kind) {
      case 'message':
        receiver.message(decoded.message);
        return;
      case 'batch':
        this.#deliverBatch(receiver, decoded.items, line);
        return;
      case 'invalid':
        this.#invalid(decoded.response, line);
        return;
    }
  }

  #deliverBatch(receiver: Receiver, items: BatchItem[], line: string): void {
    if (receiver.batch !== undefined) {
      receiver.batch(items);
      return;
    }
    this.#invalid(
      errorResponse(ErrorCode.InvalidRequest, 'invalid request: batches are not supported'),
      line,
    );
  }

  /**
   * Handles input that is not a message: reports it, and answers it when this end plays the
   * JSON-RPC server (JSON-RPC 2.0 §5: an error response with id null).
   */
  #invalid(response: ErrorResponse, line: string): void {
    if (this.#receiver === undefined) return; // stopped reading: input is dropped silently
    const excerpt = line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS)}…` : line;
    this.#events.invalidInput(
      new LocalError(
        LocalErrorCode.InvalidMessage,
        `dropped input from the ${this.#peer}: ${response.error.message}` +
          (excerpt === '' ? '' : ` (${JSON.stringify(excerpt)})`),
      ),
    );
    if (!this.#answers || !this.#writing) return;
    // Nothing waits for this reply; a failure to write it surfaces through outputFailed.
    this.send(response).catch(noop);
  }
}

/** What a send resolves with once its frame is written at once (shared: promises are immutable). */
const WRITTEN: Promise<void> = Promise.resolve();

/** How much of a dropped line an error message quotes. */
const EXCERPT_CHARS = 200;

function closedError(message: string, options?: { cause: unknown }): LocalError {
  return new LocalError(LocalErrorCode.ConnectionClosed, message, options);
}
