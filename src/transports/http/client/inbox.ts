// The receiving end the HTTP client transports share: messages that arrive before `start` are
// buffered, and the close is reported exactly once (after `start`, if it comes first).
import { LocalError, LocalErrorCode } from '../../../jsonrpc/errors.js';
import type { Message } from '../../../jsonrpc/message.js';
import type { Receiver } from '../../../jsonrpc/transport.js';

/** Inbox delivers to a Receiver in arrival order, buffering until it is known. */
export class Inbox {
  #receiver: Receiver | undefined;
  #started = false;
  readonly #buffer: Message[] = [];
  #closed: { error: Error | undefined } | undefined;
  #reported = false;

  /** True once `start` has run. */
  get started(): boolean {
    return this.#started;
  }

  /** Sets the receiver and flushes the buffer. Throws LocalError('ALREADY_STARTED') the second time. */
  start(receiver: Receiver): void {
    if (this.#started) {
      throw new LocalError(LocalErrorCode.AlreadyStarted, 'transport already started');
    }
    this.#started = true;
    this.#receiver = receiver;
    for (const message of this.#buffer.splice(0)) receiver.message(message);
    if (this.#closed !== undefined) this.#report(this.#closed.error);
  }

  /** Delivers one message, or buffers it before `start`. Dropped after `closed`. */
  deliver(message: Message): void {
    if (this.#closed !== undefined) return;
    if (this.#receiver === undefined) this.#buffer.push(message);
    else this.#receiver.message(message);
  }

  /** Reports the close once; later calls do nothing. */
  closed(error?: Error): void {
    if (this.#closed !== undefined) return;
    this.#closed = { error };
    if (this.#receiver !== undefined) this.#report(error);
  }

  #report(error: Error | undefined): void {
    if (this.#reported || this.#receiver === undefined) return;
    this.#reported = true;
    this.#receiver.closed(error);
  }
}
