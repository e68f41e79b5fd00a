// An in-memory Transport pair for unit tests: what one end sends, the other receives, after a
// JSON round trip so that tests see exactly what a wire would carry (no undefined, no shared objects).
import type { BatchItem } from '../jsonrpc/codec.js';
import { decode, encode, errorResponse } from '../jsonrpc/codec.js';
import { ErrorCode, LocalError, LocalErrorCode } from '../jsonrpc/errors.js';
import type { Message } from '../jsonrpc/message.js';
import type { Receiver, Transport } from '../jsonrpc/transport.js';

/** Options for {@link createMemoryPair}. */
export interface MemoryPairOptions {
  /** Called with every frame either end sends, before delivery (for wire traces in tests). */
  onFrame?: (from: 'a' | 'b', text: string) => void;
}

/**
 * Creates two connected in-memory transports. Delivery is asynchronous and ordered; frames
 * sent before the peer's `start` are buffered. Closing either end closes both.
 */
export function createMemoryPair(options: MemoryPairOptions = {}): [Transport, Transport] {
  const a = new MemoryEnd('a', options);
  const b = new MemoryEnd('b', options);
  a.peer = b;
  b.peer = a;
  return [a, b];
}

class MemoryEnd implements Transport {
  peer: MemoryEnd | undefined;
  readonly #name: 'a' | 'b';
  readonly #options: MemoryPairOptions;
  #receiver: Receiver | undefined;
  readonly #buffer: string[] = [];
  #closed = false;
  #closeReported = false;

  constructor(name: 'a' | 'b', options: MemoryPairOptions) {
    this.#name = name;
    this.#options = options;
  }

  start(receiver: Receiver): Promise<void> {
    if (this.#receiver !== undefined) {
      return Promise.reject(
        new LocalError(LocalErrorCode.AlreadyStarted, 'transport already started'),
      );
    }
    this.#receiver = receiver;
    for (const frame of this.#buffer.splice(0)) this.#deliver(frame);
    if (this.#closed) this.#reportClosed();
    return Promise.resolve();
  }

  send(message: Message | readonly Message[]): Promise<void> {
    if (this.#closed || this.peer === undefined) {
      return Promise.reject(new LocalError(LocalErrorCode.ConnectionClosed, 'transport closed'));
    }
    const frame = encode(message);
    this.#options.onFrame?.(this.#name, frame);
    const peer = this.peer;
    queueMicrotask(() => {
      peer.#accept(frame);
    });
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    queueMicrotask(() => {
      this.#reportClosed();
      void this.peer?.close();
    });
    return Promise.resolve();
  }

  #accept(frame: string): void {
    if (this.#closed) return;
    if (this.#receiver === undefined) this.#buffer.push(frame);
    else this.#deliver(frame);
  }

  #deliver(frame: string): void {
    const receiver = this.#receiver;
    if (receiver === undefined) return;
    const decoded = decode(frame, { allowBatch: true });
    switch (decoded.kind) {
      case 'message':
        receiver.message(decoded.message);
        return;
      case 'batch':
        this.#deliverBatch(receiver, decoded.items);
        return;
      case 'invalid':
        void this.send(decoded.response).catch(() => undefined);
        return;
    }
  }

  #deliverBatch(receiver: Receiver, items: BatchItem[]): void {
    if (receiver.batch !== undefined) {
      receiver.batch(items);
      return;
    }
    void this.send(
      errorResponse(ErrorCode.InvalidRequest, 'invalid request: batches are not supported'),
    ).catch(() => undefined);
  }

  #reportClosed(): void {
    if (this.#closeReported || this.#receiver === undefined) return;
    this.#closeReported = true;
    this.#receiver.closed();
  }
}
