// The receiving half of the Transport contract, written once for every transport to compose:
// start once, buffer what arrives before it, report the close exactly once.
import type { BatchItem } from './codec.js';
import { LocalError, LocalErrorCode } from './errors.js';
import type { Message } from './message.js';
import type { MessageInfo, Receiver } from './transport.js';

/** A batch to hand over, and what answers it when the receiver takes none. */
interface Batch {
  readonly items: readonly BatchItem[];
  readonly info: MessageInfo | undefined;
  readonly refused: (() => void) | undefined;
}

/** Something that arrived before `start`, in arrival order. */
type Early = { readonly message: Message; readonly info: MessageInfo | undefined } | Batch;

/**
 * Inbox delivers a transport's incoming messages to its Receiver as the Transport contract says:
 * `start` takes the receiver once (a second call rejects with LocalError('ALREADY_STARTED'));
 * what arrives before it is buffered and delivered at `start`, in order; what arrives after
 * `close` is dropped; and `receiver.closed` is called exactly once, at `close`, or at `start`
 * (after what arrived before the close) when the close came first. An idle inbox holds no
 * buffer (the first early message makes one).
 */
export class Inbox {
  #receiver: Receiver | undefined;
  #early: Early[] | undefined;
  /** Set by close, with the error it reports (undefined for a clean close). */
  #closed: { readonly error: Error | undefined } | undefined;
  #started = false;

  /** True once `start` has run. */
  get started(): boolean {
    return this.#started;
  }

  /** True once `close` has run. */
  get closed(): boolean {
    return this.#closed !== undefined;
  }

  /** The receiver, once started and until closed (what a transport reads from to deliver itself). */
  get receiver(): Receiver | undefined {
    return this.#closed === undefined ? this.#receiver : undefined;
  }

  /** Starts delivery to `receiver`: flushes what came early, then reports an early close. */
  start(receiver: Receiver): Promise<void> {
    if (this.#started) {
      return Promise.reject(
        new LocalError(LocalErrorCode.AlreadyStarted, 'transport already started'),
      );
    }
    this.#started = true;
    this.#receiver = receiver;
    const early = this.#early;
    this.#early = undefined;
    for (const delivery of early ?? []) {
      if ('message' in delivery) receiver.message(delivery.message, delivery.info);
      else this.#hand(receiver, delivery);
    }
    if (this.#closed !== undefined) receiver.closed(this.#closed.error);
    return Promise.resolve();
  }

  /** Delivers one message now, or at `start`; dropped after `close`. */
  message(message: Message, info?: MessageInfo): void {
    if (this.#closed !== undefined) return;
    const receiver = this.#receiver;
    if (receiver === undefined) (this.#early ??= []).push({ message, info });
    else receiver.message(message, info);
  }

  /**
   * Delivers a batch now, or at `start`; dropped after `close`. A receiver without `batch` takes
   * none: `refused` is called instead, for the transport to answer the batch.
   */
  batch(items: readonly BatchItem[], info?: MessageInfo, refused?: () => void): void {
    if (this.#closed !== undefined) return;
    const receiver = this.#receiver;
    if (receiver === undefined) (this.#early ??= []).push({ items, info, refused });
    else this.#hand(receiver, { items, info, refused });
  }

  /** Reports the close (with its cause, if it failed) exactly once. Idempotent. */
  close(error?: Error): void {
    if (this.#closed !== undefined) return;
    this.#closed = { error };
    this.#receiver?.closed(error);
  }

  #hand(receiver: Receiver, delivery: Batch): void {
    if (receiver.batch !== undefined) receiver.batch(delivery.items, delivery.info);
    else delivery.refused?.();
  }
}
