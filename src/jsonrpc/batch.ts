// Serving an incoming batch (JSON-RPC 2.0 §6) within bounds: how many messages one batch may hold
// (checked when it is decoded), how large its answer may grow, and a turn of the event loop
// between its elements, so that one large batch does not hold up every other client.
import { errorResponse, encode } from './codec.js';
import { ErrorCode } from './errors.js';
import type { Response } from './message.js';

/**
 * The most bytes of a batch's answer (its JSON text) unless a connection is told otherwise; each
 * response that would pass it is replaced by a -32603 error naming the limit. (The most messages
 * in one batch is the codec's MAX_BATCH_MESSAGES, checked when it is decoded.)
 */
export const MAX_BATCH_ANSWER_BYTES: number = 16 * 1024 * 1024;

/** Lets the event loop run other work (I/O of other clients) before the next element starts. */
const nextTurn: () => Promise<void> =
  typeof setImmediate === 'function'
    ? () => new Promise((resolve) => setImmediate(resolve))
    : () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Serves a batch's elements concurrently, starting one per turn of the event loop, and resolves
 * with their responses in element order (elements that answer nothing are left out). Once the
 * answer's size passes `maxAnswerBytes`, each further response (in the order they arrive) is
 * replaced by an error with the same id, so the answer never holds more than the limit plus
 * those short errors. `serve` is given each element and its index; it must not throw or reject.
 */
export async function serveBatchElements<TItem>(
  items: readonly TItem[],
  serve: (item: TItem, index: number) => Response | undefined | Promise<Response | undefined>,
  maxAnswerBytes: number,
): Promise<Response[]> {
  let bytes = 0;
  const bounded = (response: Response | undefined): Response | undefined => {
    if (response === undefined) return undefined;
    bytes += encode(response).length;
    if (bytes <= maxAnswerBytes) return response;
    const message = `the batch's answer would exceed ${String(maxAnswerBytes)} bytes: send fewer requests per batch`;
    return { ...errorResponse(ErrorCode.InternalError, message), id: response.id };
  };
  const pending: Promise<Response | undefined>[] = [];
  for (let i = 0; i < items.length; i++) {
    if (i > 0) await nextTurn();
    pending.push(Promise.resolve(serve(items[i] as TItem, i)).then(bounded));
  }
  const responses = await Promise.all(pending);
  return responses.filter((r): r is Response => r !== undefined);
}
