// Which requests of the Streamable HTTP client still await a response, and on which POST. A
// response is delivered once: when a resumed stream replays it, or it arrives on another
// stream as well, the copy is dropped (Spec 2025-11-25 basic/transports#resumability-and-redelivery).
import type { WireError } from '../../../jsonrpc/errors.js';
import type { Message, RequestId } from '../../../jsonrpc/message.js';
import type { MessageInfo } from '../../../jsonrpc/transport.js';
import { IdMap } from '../../../internal/id-map.js';

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
  /** The carrier of each request awaiting its response (an IdMap: one in and out per request). */
  readonly #outstanding = new IdMap<Carrier>();
  /**
   * The answered ids remembered, in the order they were, a ring of ANSWERED_KEPT slots: read
   * only for a response to a request not outstanding (a replay, a late answer), scanned then.
   * No map of them: one set and one delete of a churning map per request was a good part of
   * what the ledger cost a call (issue 40 point 8).
   */
  readonly #order: (RequestId | undefined)[] = [];
  #next = 0;

  constructor(deliver: (message: Message, info?: MessageInfo) => void) {
    this.#deliver = deliver;
  }

  /** Records that the POST of `owner` carries requests `ids`. */
  track(ids: readonly RequestId[], owner: Carrier): void {
    for (const id of ids) this.#outstanding.set(id, owner);
  }

  /** The POST carrying request `id`, while it awaits a response. */
  owner(id: RequestId): Carrier | undefined {
    return this.#outstanding.get(id);
  }

  /** True when no request of `ids` awaits a response on the POST of `owner` any more. */
  settled(ids: readonly RequestId[], owner: Carrier): boolean {
    for (const id of ids) if (this.#outstanding.get(id) === owner) return false;
    return true;
  }

  /**
   * Delivers a message; a response is delivered once, then its replays are dropped (while its
   * id is among the last 1024 answered, and not awaiting a response again).
   */
  receive(message: Message, info?: MessageInfo): void {
    if (!('method' in message) && message.id !== null) {
      const { id } = message;
      if (this.#outstanding.delete(id)) this.#remember(id);
      else if (this.#order.includes(id)) return;
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

  /**
   * Forgets requests that were never delivered to the server (the POST failed to go out), and
   * that their ids were answered before (an id used again): a response to one is delivered.
   */
  release(ids: readonly RequestId[]): void {
    const order = this.#order;
    for (const id of ids) {
      this.#outstanding.delete(id);
      for (let at = order.indexOf(id); at >= 0; at = order.indexOf(id, at + 1)) {
        order[at] = undefined;
      }
    }
  }

  /** Forgets every outstanding request (the transport closed). */
  clear(): void {
    this.#outstanding.clear();
  }

  /** Remembers `id` as answered, in the slot of the one remembered ANSWERED_KEPT times before. */
  #remember(id: RequestId): void {
    const slot = this.#next;
    this.#order[slot] = id;
    this.#next = slot + 1 === ANSWERED_KEPT ? 0 : slot + 1;
  }
}
