// EphemeralTransport: the Transport of one POST, for 2026-07-28 requests (which have no session)
// and for legacy stateless mode. It lives until the POST is answered or the client goes away;
// going away cancels the request (spec 2026-07-28 transports/streamable-http#cancellation).
import type { BatchItem } from '../../../jsonrpc/codec.js';
import { LocalError, LocalErrorCode } from '../../../jsonrpc/errors.js';
import type { Message, Response } from '../../../jsonrpc/message.js';
import type { MessageInfo, Receiver, Transport } from '../../../jsonrpc/transport.js';
import type { PostReply } from './post-reply.js';

type Delivery =
  { message: Message; info: MessageInfo } | { items: readonly BatchItem[]; info: MessageInfo };

/**
 * EphemeralTransport carries the messages of one POST to a freshly connected server, and what
 * the server sends back to that POST's reply. It closes itself once the reply is complete.
 */
export class EphemeralTransport implements Transport {
  /** The reply waiting for the POST's response; none when the POST holds no request. */
  reply: PostReply | undefined;
  readonly #onClose: (transport: EphemeralTransport) => void;
  #receiver: Receiver | undefined;
  #pending: Delivery | undefined;
  #closed = false;

  /** `onClose` runs once, when the transport closes. */
  constructor(onClose: (transport: EphemeralTransport) => void) {
    this.#onClose = onClose;
  }

  start(receiver: Receiver): Promise<void> {
    if (this.#receiver !== undefined) {
      return Promise.reject(
        new LocalError(LocalErrorCode.AlreadyStarted, 'transport already started'),
      );
    }
    this.#receiver = receiver;
    if (this.#closed) {
      receiver.closed();
      return Promise.resolve();
    }
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending !== undefined) this.#hand(pending);
    return Promise.resolve();
  }

  /** Delivers the POST's message. */
  deliver(message: Message, info: MessageInfo): void {
    this.#hand({ message, info });
  }

  /** Delivers the POST's batch. */
  deliverBatch(items: readonly BatchItem[], info: MessageInfo): void {
    this.#hand({ items, info });
  }

  send(message: Message | readonly Message[]): Promise<void> {
    if (this.#closed) {
      return Promise.reject(new LocalError(LocalErrorCode.ConnectionClosed, 'request closed'));
    }
    const reply = this.reply;
    if (Array.isArray(message) || !('method' in message)) {
      reply?.final(message as Response | readonly Response[]);
      return Promise.resolve();
    }
    const single = message as Message;
    if (reply?.push(single) === true || !('id' in single)) return Promise.resolve();
    return Promise.reject(
      new LocalError(LocalErrorCode.NotConnected, 'no stream to send the request on'),
    );
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#receiver?.closed();
    this.#onClose(this);
    return Promise.resolve();
  }

  #hand(delivery: Delivery): void {
    const receiver = this.#receiver;
    if (receiver === undefined) {
      this.#pending = delivery;
      return;
    }
    if ('message' in delivery) receiver.message(delivery.message, delivery.info);
    else receiver.batch?.(delivery.items, delivery.info);
  }
}
