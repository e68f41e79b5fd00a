// The server's questions (elicitation, sampling) while they wait for a page: each is sent to
// every page as an event, and ends when a page answers, the server gives up, or the timeout
// passes (an elicitation is then declined, a sampling request refused). Every end is told to
// every page as `answered`.
import { randomUUID } from 'node:crypto';
import { JsonRpcError } from '../../client/index.js';
import { ApiError, asObject } from './api-error.js';
import type { EventHub } from './events.js';
import { elicitResult, samplingResult } from './inputs.js';

/** A question of the server waiting for the page. */
interface Pending {
  readonly kind: 'elicit' | 'sample';
  readonly params: unknown;
  answer(result: Record<string, unknown>): void;
  refuse(reason: string): void;
}

/** The questions waiting for an answer. */
export class Questions {
  readonly #hub: EventHub;
  readonly #timeoutMs: number;
  readonly #pending = new Map<string, Pending>();

  constructor(hub: EventHub, timeoutMs: number) {
    this.#hub = hub;
    this.#timeoutMs = timeoutMs;
  }

  /** The questions waiting, as the events that asked them (for a page opened later). */
  events(): ['elicit' | 'sample', unknown][] {
    return [...this.#pending].map(([requestId, p]) => [p.kind, { requestId, params: p.params }]);
  }

  /**
   * Asks every page (an `elicit` or `sample` event) and resolves with the answer of one;
   * rejects when the server gives up (`signal`), or on refusal or timeout of a sampling request
   * (a JSON-RPC error the server receives). An unanswered elicitation is declined.
   */
  ask(kind: 'elicit' | 'sample', params: unknown, signal: AbortSignal): Promise<unknown> {
    const requestId = randomUUID();
    return new Promise((resolve, reject) => {
      const finish = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.#pending.delete(requestId);
        this.#hub.broadcast('answered', { requestId });
      };
      const onAbort = (): void => {
        finish();
        reject(signal.reason instanceof Error ? signal.reason : new Error('cancelled'));
      };
      const timer = setTimeout(() => {
        finish();
        if (kind === 'elicit') resolve({ action: 'decline' });
        else {
          reject(
            new JsonRpcError(-1, 'the inspector page did not answer the sampling request in time'),
          );
        }
      }, this.#timeoutMs);
      timer.unref();
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(requestId, {
        kind,
        params,
        answer: (result) => {
          finish();
          resolve(result);
        },
        refuse: (reason) => {
          finish();
          reject(new JsonRpcError(-1, reason));
        },
      });
      this.#hub.broadcast(kind, { requestId, params });
    });
  }

  /**
   * Answers question `requestId` with `body.result` (an ElicitResult or a
   * CreateMessageResult), or refuses a sampling request (`body.error`, or a result whose
   * action is decline or cancel). Throws ApiError: 404 for an unknown id, 400 for a bad answer.
   */
  answer(requestId: string, body: Record<string, unknown>): void {
    const pending = this.#pending.get(requestId);
    if (pending === undefined) {
      throw new ApiError(
        404,
        `no pending question "${requestId}" (answered, cancelled or timed out)`,
      );
    }
    const error = body['error'];
    const result = asObject(body['result']);
    if (pending.kind === 'elicit') {
      pending.answer(elicitResult(result));
      return;
    }
    const action = result?.['action'];
    if (typeof error === 'string' || action === 'decline' || action === 'cancel') {
      const reason = typeof error === 'string' && error !== '' ? error : undefined;
      pending.refuse(reason ?? 'the user rejected the sampling request');
      return;
    }
    pending.answer(samplingResult(result));
  }

  /** Refuses every waiting question (the connection is closing). */
  refuseAll(reason: string): void {
    for (const pending of [...this.#pending.values()]) pending.refuse(reason);
  }
}
