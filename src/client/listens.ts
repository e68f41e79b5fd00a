// 2026-07-28 `subscriptions/listen` streams: one long-lived request per stream, acknowledged by
// `notifications/subscriptions/acknowledged`, whose notifications carry the request's id in
// `_meta`; ended by the client's cancellation or by the server's result (Spec 2026-07-28
// basic/utilities/subscriptions).
import { isObject } from '../internal/json.js';
import { noop } from '../internal/noop.js';
import { LocalError, LocalErrorCode } from '../jsonrpc/errors.js';
import type { RequestId } from '../jsonrpc/message.js';
import { MetaKey } from '../protocol/version.js';
import type { Caller } from './caller.js';
import type { Subscription, SubscriptionFilter } from './types.js';

interface Stream {
  acknowledge(filter: SubscriptionFilter): void;
  end(error?: Error): void;
  abandon(reason: Error): void;
}

/** The subscription id a notification is tagged with, if any. */
export function subscriptionIdOf(params: unknown): RequestId | undefined {
  const meta = isObject(params) ? params['_meta'] : undefined;
  const id = isObject(meta) ? meta[MetaKey.SubscriptionId] : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** Listens holds the open streams of one client connection. */
export class Listens {
  readonly #caller: Caller;
  readonly #ackTimeoutMs: number;
  readonly #streams = new Map<RequestId, Stream>();

  constructor(caller: Caller, ackTimeoutMs: number) {
    this.#caller = caller;
    this.#ackTimeoutMs = ackTimeoutMs;
  }

  /** True while stream `id` is open. */
  has(id: RequestId): boolean {
    return this.#streams.has(id);
  }

  /** Opens a stream for `filter`. */
  open(filter: SubscriptionFilter): Subscription {
    const id = this.#caller.nextId();
    const controller = new AbortController();
    let closing = false;
    let acknowledge!: (filter: SubscriptionFilter) => void;
    let refuse!: (error: Error) => void;
    const acknowledged = new Promise<SubscriptionFilter>((resolve, reject) => {
      acknowledge = resolve;
      refuse = reject;
    });
    // Nobody has to await the acknowledgement: its rejection alone must not be unhandled.
    acknowledged.catch(noop);
    let ended!: (error: Error | undefined) => void;
    const closed = new Promise<Error | undefined>((resolve) => (ended = resolve));
    const timer = setTimeout(() => {
      const error = new LocalError(
        LocalErrorCode.RequestTimeout,
        `subscriptions/listen was not acknowledged within ${this.#ackTimeoutMs} ms`,
      );
      refuse(error);
      controller.abort(error);
    }, this.#ackTimeoutMs);
    this.#streams.set(id, {
      acknowledge: (agreed) => {
        clearTimeout(timer);
        acknowledge(agreed);
      },
      end: (error) => {
        clearTimeout(timer);
        this.#streams.delete(id);
        refuse(error ?? new LocalError(LocalErrorCode.ConnectionClosed, 'subscription ended'));
        ended(closing ? undefined : error);
      },
      abandon: (reason) => {
        controller.abort(reason);
      },
    });
    this.#caller
      .request(
        'subscriptions/listen',
        { notifications: filter },
        { id, signal: controller.signal, noTimeout: true },
      )
      .then(
        () => this.#streams.get(id)?.end(),
        (error: unknown) => this.#streams.get(id)?.end(asError(error)),
      );
    return {
      id,
      acknowledged,
      closed,
      close: async () => {
        closing = true;
        controller.abort(new LocalError(LocalErrorCode.ConnectionClosed, 'subscription closed'));
        await closed;
      },
    };
  }

  /** Handles `notifications/subscriptions/acknowledged`. */
  acknowledged(params: Record<string, unknown>): void {
    const id = subscriptionIdOf(params);
    const filter = params['notifications'];
    if (id === undefined || !isObject(filter)) return;
    this.#streams.get(id)?.acknowledge(filter);
  }

  /** Ends stream `id`, which the server cancelled (stdio: `notifications/cancelled`). */
  cancelled(id: RequestId): boolean {
    const stream = this.#streams.get(id);
    if (stream === undefined) return false;
    const error = new LocalError(
      LocalErrorCode.ConnectionClosed,
      'the server ended the subscription',
    );
    stream.end(error);
    // No response will come: stop waiting for one.
    stream.abandon(error);
    return true;
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
