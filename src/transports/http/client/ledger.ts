// Which requests of the Streamable HTTP client still await a response, and on which POST. A
// response is delivered once: when a resumed stream replays it, or it arrives on another
// stream as well, the copy is dropped (Spec 2025-11-25 basic/transports#resumability-and-redelivery).
import type { WireError } from '../../../jsonrpc/errors.js';
import type { Message, RequestId } from '../../../jsonrpc/message.js';
import type { MessageInfo } from '../../../jsonrpc/transport.js';

const ANSWERED_KEPT = 1024;

/** What carries requests: a POST, aborted as a whole (its LazySignal, or an AbortController). */
export interface Carrier {
  abort(reason: unknown): void;
}

/**
 * Ledger correlates outgoing requests with the POST (its {@link Carrier}) that carries them
 * and de-duplicates their responses. It remembers the last 1024 answered ids.
 */
export class Ledger {
  readonly #deliver: (message: Message, info?: MessageInfo) => void;
  readonly #outstanding = new Map<RequestId, Carrier>();
  /** The answered ids remembered, each with its slot in `#order`. */
  readonly #answered = new Map<RequestId, number>();
  /** The answered ids in the order they were remembered, a ring of ANSWERED_KEPT slots. */
  readonly #order: (RequestId | undefined)[] = [];
  #next = 0;

  constructor(deliver: (message: Message, info?: MessageInfo) => void) {
    this.#deliver = deliver;
  }

  /** Records that the POST of `owner` carries requests `ids`. */
  track(ids: readonly RequestId[], owner: Carrier): void {
    for (const id of ids) {
      this.#outstanding.set(id, owner);
      this.#answered.delete(id);
    }
  }

  /** The POST carrying request `id`, while it awaits a response. */
  owner(id: RequestId): Carrier | undefined {
    return this.#outstanding.get(id);
  }

  /** True when no request of `ids` awaits a response on the POST of `owner` any more. */
  settled(ids: readonly RequestId[], owner: Carrier): boolean {
    return ids.every((id) => this.#outstanding.get(id) !== owner);
  }

  /** Delivers a message; a response is delivered once, then its replays are dropped. */
  receive(message: Message, info?: MessageInfo): void {
    if (!('method' in message) && message.id !== null) {
      const { id } = message;
      if (this.#outstanding.has(id)) {
        this.#outstanding.delete(id);
        this.#remember(id);
      } else if (this.#answered.has(id)) {
        return;
      }
    }
    this.#deliver(message, info);
  }

  /** Delivers `error` as the response of each request of `ids` still awaiting one on `owner`. */
  fail(ids: readonly RequestId[], owner: Carrier, error: WireError): void {
    for (const id of ids) {
      if (this.#outstanding.get(id) === owner) this.receive({ jsonrpc: '2.0', id, error });
    }
  }

  /** Aborts the POST of `owner` and forgets its requests: a late response to them is dropped. */
  abandon(owner: Carrier, reason: unknown): void {
    for (const [id, carrier] of this.#outstanding) {
      if (carrier === owner) {
        this.#outstanding.delete(id);
        this.#remember(id);
      }
    }
    owner.abort(reason);
  }

  /** Forgets requests that were never delivered to the server (the POST failed to go out). */
  release(ids: readonly RequestId[]): void {
    for (const id of ids) this.#outstanding.delete(id);
  }

  /** Forgets every outstanding request (the transport closed). */
  clear(): void {
    this.#outstanding.clear();
  }

  /** Remembers `id` as answered, forgetting the one remembered ANSWERED_KEPT times before. */
  #remember(id: RequestId): void {
    const order = this.#order;
    const slot = this.#next;
    const oldest = order[slot];
    // Unless remembered again since, in a later slot.
    if (oldest !== undefined && this.#answered.get(oldest) === slot) this.#answered.delete(oldest);
    order[slot] = id;
    this.#next = slot + 1 === ANSWERED_KEPT ? 0 : slot + 1;
    this.#answered.set(id, slot);
  }
}
