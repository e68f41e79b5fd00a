// The client's answers to the server's questions: elicitation, sampling and roots. The same
// handlers serve both eras: legacy servers send them as JSON-RPC requests (answered here as a
// Connection request handler), 2026-07-28 servers embed them in an `input_required` result
// (fulfilled here for the round-trip driver). Spec 2026-07-28 basic/patterns/mrtr.
import { isObject } from '../internal/json.js';
import type { RequestId } from '../jsonrpc/message.js';
import type { RequestHandler } from '../jsonrpc/serve.js';
import { ErrorCode, JsonRpcError, LocalError, LocalErrorCode } from '../jsonrpc/errors.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { ProtocolRevision } from '../protocol/version.js';
import { eraOf } from '../protocol/version.js';
import type { ClientOptions, ElicitParams, InputContext } from './types.js';

type Answer = (params: Record<string, unknown>, ctx: InputContext) => Promise<unknown>;

const HANDLER_NAMES: Readonly<Record<string, string>> = {
  'elicitation/create': 'onElicit',
  'sampling/createMessage': 'onSample',
  'roots/list': 'onRoots',
};

/** InputHandlers dispatches the server's questions to the handlers of ClientOptions. */
export class InputHandlers {
  readonly #answers = new Map<string, Answer>();

  constructor(options: ClientOptions) {
    const { onElicit, onSample, onRoots } = options;
    const applyDefaults = options.elicitation?.applyDefaults === true;
    if (onElicit !== undefined) {
      this.#answers.set('elicitation/create', async (params, ctx) => {
        const result = await onElicit(params as unknown as ElicitParams, ctx);
        return applyDefaults ? withDefaults(params, result) : result;
      });
    }
    if (onSample !== undefined) {
      this.#answers.set('sampling/createMessage', async (params, ctx) =>
        onSample(params as unknown as Spec.CreateMessageRequestParams, ctx),
      );
    }
    if (onRoots !== undefined) {
      this.#answers.set('roots/list', async (_params, ctx) => ({ roots: await onRoots(ctx) }));
    }
  }

  /**
   * The Connection handler for legacy server-to-client requests: `ping`, then the questions
   * with a handler; anything else is -32601.
   */
  requestHandler(
    revision: () => ProtocolRevision,
    tagOf: (id: RequestId | undefined) => unknown,
  ): RequestHandler {
    return async (request, rctx) => {
      if (request.method === 'ping') return {};
      const answer = this.#answers.get(request.method);
      if (answer === undefined) {
        throw new JsonRpcError(ErrorCode.MethodNotFound, `method not found: ${request.method}`);
      }
      const params = isObject(request.params) ? request.params : {};
      const current = revision();
      const tag = tagOf(rctx.info?.relatedRequestId);
      const ctx = { era: eraOf(current), revision: current, signal: rctx.signal };
      return answer(params, tag === undefined ? ctx : { ...ctx, tag });
    };
  }

  /**
   * Answers every entry of an `inputRequests` map, concurrently, keeping its keys. Throws a
   * LocalError('UNSUPPORTED') for a question without a handler or a method it does not know.
   */
  async fulfil(requests: unknown, ctx: InputContext): Promise<Record<string, unknown>> {
    if (!isObject(requests)) {
      throw new LocalError(LocalErrorCode.ProtocolViolation, 'inputRequests must be an object');
    }
    const answered = await Promise.all(
      Object.entries(requests).map(async ([key, request]) => {
        const method = isObject(request) ? request['method'] : undefined;
        const answer = typeof method === 'string' ? this.#answers.get(method) : undefined;
        if (answer === undefined) throw unanswerable(method);
        const params = isObject(request) && isObject(request['params']) ? request['params'] : {};
        return [key, await answer(params, { ...ctx, key })] as const;
      }),
    );
    return Object.fromEntries(answered);
  }
}

function unanswerable(method: unknown): LocalError {
  const name = typeof method === 'string' ? HANDLER_NAMES[method] : undefined;
  const message =
    name === undefined
      ? `the server asked for input of unknown kind ${JSON.stringify(method)}`
      : `the server asked for ${String(method)}, but the client has no ${name} handler`;
  return new LocalError(LocalErrorCode.Unsupported, message);
}

/**
 * Fills the fields an accepted form left out from the requested schema's `default`s, as the
 * spec lets clients do (Spec 2025-11-25 client/elicitation, "default values").
 */
function withDefaults(
  params: Record<string, unknown>,
  result: Spec.ElicitResult,
): Spec.ElicitResult {
  if (result.action !== 'accept' || params['mode'] === 'url') return result;
  const schema = params['requestedSchema'];
  const properties = isObject(schema) ? schema['properties'] : undefined;
  if (!isObject(properties)) return result;
  const content: Record<string, unknown> = { ...result.content };
  for (const [name, property] of Object.entries(properties)) {
    if (content[name] === undefined && isObject(property) && property['default'] !== undefined) {
      content[name] = property['default'];
    }
  }
  return { ...result, content: content as NonNullable<Spec.ElicitResult['content']> };
}
