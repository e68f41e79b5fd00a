// An in-memory Transport pair for unit tests: what one end sends, the other receives, after a
// JSON round trip so that tests see exactly what a wire would carry (no undefined, no shared objects).
import { decode, encode, errorResponse } from '../jsonrpc/codec.js';
import { ErrorCode, LocalError, LocalErrorCode } from '../jsonrpc/errors.js';
import type { Message } from '../jsonrpc/message.js';
import { Inbox } from '../jsonrpc/inbox.js';
import type { Receiver, Transport } from '../jsonrpc/transport.js';
import { noop } from '../internal/noop.js';

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
  readonly #inbox = new Inbox();
  #closed = false;

  constructor(name: 'a' | 'b', options: MemoryPairOptions) {
    this.#name = name;
    this.#options = options;
  }

  start(receiver: Receiver): Promise<void> {
    return this.#inbox.start(receiver);
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
      this.#inbox.close();
      void this.peer?.close();
    });
    return Promise.resolve();
  }

  /** A frame from the peer: decoded as a wire would be, then delivered (or buffered). */
  #accept(frame: string): void {
    if (this.#closed) return;
    const decoded = decode(frame, { allowBatch: true });
    switch (decoded.kind) {
      case 'message':
        this.#inbox.message(decoded.message);
        return;
      case 'batch':
        this.#inbox.batch(decoded.items, undefined, () => {
          this.#answer(
            errorResponse(ErrorCode.InvalidRequest, 'invalid request: batches are not supported'),
          );
        });
        return;
      case 'invalid':
        this.#answer(decoded.response);
        return;
    }
  }

  #answer(response: Message): void {
    this.send(response).catch(noop);
  }
}
