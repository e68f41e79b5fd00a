// The outgoing middleware of a server: functions around the messages a server sends in the
// course of a request it serves (progress, log messages, and in the legacy era the requests it
// sends the client: elicitation, sampling, roots), and around the notifications it sends a legacy
// session outside any request (list changes, resource updates). Composed when
// `McpServer.use({ outgoing })` registers one; a server with none sends directly.
import type { RequestId } from '../jsonrpc/message.js';
import type { CallOptions } from '../jsonrpc/serve.js';
import type { ProtocolEra, ProtocolRevision } from '../protocol/version.js';
import type { RequestScope } from './context.js';

type Params = Record<string, unknown>;

/** What an outgoing middleware sees of one message the server sends. */
export interface OutgoingContext {
  /** `request` (it waits for the client's answer) or `notification`. */
  readonly kind: 'request' | 'notification';
  /** The method. */
  readonly method: string;
  /** The params as they go on the wire; assign new ones before `next()` to change them. */
  params: Record<string, unknown>;
  /**
   * The id of the client's request being served, in whose course the message is sent; undefined
   * for a notification sent outside any request (a list change or resource update on a legacy
   * session; on a subscriptions/listen stream it is the listen request's id).
   */
  readonly relatedRequestId: RequestId | undefined;
  /** The era and revision of that request (or of the session, outside a request). */
  readonly era: ProtocolEra;
  readonly revision: ProtocolRevision;
}

/**
 * Runs around one message the server sends: `next()` sends it and resolves with the client's
 * result (undefined for a notification) or rejects with its error; what the middleware returns
 * or throws is what the sender (the handler's `ctx.elicit()`, …) gets.
 */
export type OutgoingMiddleware = (
  message: OutgoingContext,
  next: () => Promise<unknown>,
) => unknown;

/** A composed outgoing chain. */
export type OutgoingChain = (
  message: OutgoingContext,
  end: () => Promise<unknown>,
) => Promise<unknown>;

/** Composes `list` (the first registered runs outermost) into one chain. */
export function composeOutgoing(list: readonly OutgoingMiddleware[]): OutgoingChain {
  let chain: OutgoingChain = (_message, end) => end();
  for (let i = list.length - 1; i >= 0; i--) {
    const middleware = list[i] as OutgoingMiddleware;
    const inner = chain;
    // async: a middleware that throws rejects, as one that returns a rejected promise.
    chain = async (message, end) => await middleware(message, () => inner(message, end));
  }
  return chain;
}

/** The notify and request of a request's scope, through the outgoing chain. */
export class OutgoingVia implements Pick<RequestScope, 'notify' | 'request'> {
  readonly #to: Pick<RequestScope, 'notify' | 'request'>;
  readonly #chain: OutgoingChain;
  readonly #facts: { id: RequestId; era: ProtocolEra; revision: ProtocolRevision };

  constructor(
    to: Pick<RequestScope, 'notify' | 'request'>,
    chain: OutgoingChain,
    facts: { id: RequestId; era: ProtocolEra; revision: ProtocolRevision },
  ) {
    this.#to = to;
    this.#chain = chain;
    this.#facts = facts;
  }

  notify(method: string, params: Params): Promise<void> {
    const message = this.#message('notification', method, params);
    return this.#chain(message, () => this.#to.notify(method, message.params)).then(
      () => undefined,
    );
  }

  request(method: string, params: Params, options?: CallOptions): Promise<unknown> {
    const message = this.#message('request', method, params);
    return this.#chain(message, () => this.#to.request(method, message.params, options));
  }

  #message(kind: 'request' | 'notification', method: string, params: Params): OutgoingContext {
    const { id, era, revision } = this.#facts;
    return { kind, method, params, relatedRequestId: id, era, revision };
  }
}
