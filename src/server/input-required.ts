// Multi round-trip requests (spec 2026-07-28 basic/patterns/mrtr) with handler code that is the
// same in both eras. The model: a handler awaits ctx.elicit()/sample()/roots(); in 2026-07-28 the
// first unanswered call ends the run with an `input_required` result; the client retries with the
// answers, and the handler runs again from the top, with every answer so far replayed in order.
// Earlier answers travel inside the sealed `requestState` (inputResponses are per round).
import { canonicalJson, isObject } from '../internal/json.js';
import { noop } from '../internal/noop.js';
import type { Params } from '../jsonrpc/message.js';
import { invalidParams } from '../protocol/errors.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { Sealer } from './seal.js';

/** One embedded request, as `inputRequests` carries it. */
export type InputRequest = Spec.InputRequest;

/** The answers of a first round without inputResponses (never written to). */
const NO_ANSWERS: Record<string, unknown> = Object.freeze({});

/** What a sealed requestState holds. */
interface RoundState {
  /** Method and target the state belongs to, and a digest of the arguments. */
  b: string;
  /** Every answer so far, by key. */
  a: Record<string, unknown>;
  /** Rounds so far. */
  n: number;
}

/** Options that bound multi round-trip requests. */
export interface RoundOptions {
  sealer: Sealer;
  /** How long a requestState stays valid. */
  stateTtlMs: number;
  /** How many rounds one request may take. */
  maxRounds: number;
}

/**
 * InputRound serves the embedded requests of one run of a handler. Calls are keyed by their
 * order (`input-0`, `input-1`, …), which is stable when the handler is deterministic up to them.
 */
export class InputRound {
  readonly #answers: Record<string, unknown>;
  /** The digest of method, target and arguments: computed only when a state is opened or sealed. */
  #binding: string | undefined;
  readonly #target: BindingTarget;
  readonly #rounds: number;
  // Made on first use: most runs ask for no input.
  #pending: Record<string, InputRequest> | undefined;
  #count = 0;
  #used: Set<string> | undefined;
  #scheduled = false;
  #onNeeded: (() => void) | undefined;

  private constructor(
    bound: { target: BindingTarget; binding: string | undefined },
    answers: Record<string, unknown>,
    rounds: number,
  ) {
    this.#target = bound.target;
    this.#binding = bound.binding;
    this.#answers = answers;
    this.#rounds = rounds;
  }

  /**
   * Opens the round a request asks for: the first one, or a retry carrying `requestState` and
   * `inputResponses`. Throws InvalidParams (-32602) when the state is tampered with, expired,
   * belongs to another request, or when the rounds are exhausted.
   */
  static async open(
    params: Params | undefined,
    target: BindingTarget,
    options: RoundOptions,
  ): Promise<InputRound> {
    const record = (params ?? {}) as Record<string, unknown>;
    const state = record['requestState'];
    const responses = record['inputResponses'];
    if (state === undefined) return InputRound.first(params, target);
    if (typeof state !== 'string') throw invalidParams('requestState must be a string');
    const binding = await bindingOf(target);
    const opened = await options.sealer.open<RoundState>(state);
    if (!opened.ok)
      throw invalidParams(`requestState is ${opened.reason}; start the request again`);
    if (opened.value.b !== binding) {
      throw invalidParams('requestState belongs to another request; start the request again');
    }
    if (opened.value.n >= options.maxRounds) {
      throw invalidParams(`request needed more than ${options.maxRounds} rounds of input`);
    }
    const answers = { ...opened.value.a, ...(isObject(responses) ? responses : {}) };
    return new InputRound({ target, binding }, answers, opened.value.n);
  }

  /**
   * Opens the first round of a request that carries no `requestState`, at once (the digest is
   * needed only if the handler asks for input; see result()).
   */
  static first(params: Params | undefined, target: BindingTarget): InputRound {
    const responses = (params as Record<string, unknown> | undefined)?.['inputResponses'];
    const bound = { target, binding: undefined };
    return new InputRound(bound, isObject(responses) ? { ...responses } : NO_ANSWERS, 0);
  }

  /** Answers an embedded request from the replayed answers, or parks it for the next round. */
  request(input: InputRequest, name?: string): Promise<unknown> {
    const key = name ?? `input-${String(this.#count)}`;
    this.#count++;
    // Parked keys are in #used too.
    const used = (this.#used ??= new Set());
    if (key === '' || used.has(key)) {
      return Promise.reject(
        new TypeError(`input key ${JSON.stringify(key)} is empty or used twice`),
      );
    }
    used.add(key);
    if (Object.hasOwn(this.#answers, key)) {
      const answer = this.#answers[key];
      const problem = answerProblem(input.method, answer);
      if (problem !== undefined) {
        return Promise.reject(invalidParams(`inputResponses[${JSON.stringify(key)}] ${problem}`));
      }
      return Promise.resolve(answer);
    }
    (this.#pending ??= {})[key] = input;
    if (!this.#scheduled) {
      this.#scheduled = true;
      // Let parallel calls of the same run (Promise.all) join this round before it is sent.
      setTimeout(() => this.#onNeeded?.(), 0);
    }
    return new Promise(noop);
  }

  /**
   * Calls `listener` once the handler waits for input this round does not have: a turn of the
   * event loop after its first such request (so that the requests it makes in parallel join it).
   */
  whenNeeded(listener: () => void): void {
    this.#onNeeded = listener;
  }

  /** Builds the `input_required` result for the parked requests. */
  async result(options: RoundOptions): Promise<Spec.InputRequiredResult> {
    this.#binding ??= await bindingOf(this.#target);
    const state: RoundState = { b: this.#binding, a: this.#answers, n: this.#rounds + 1 };
    const requestState = await options.sealer.seal(state, Date.now() + options.stateTtlMs);
    return { resultType: 'input_required', inputRequests: { ...this.#pending }, requestState };
  }
}

/** Why an answer cannot be the result of `method`, or undefined when its shape fits. */
function answerProblem(method: string, answer: unknown): string | undefined {
  if (!isObject(answer)) return 'must be an object';
  switch (method) {
    case 'elicitation/create': {
      const action = answer['action'];
      if (action !== 'accept' && action !== 'decline' && action !== 'cancel') {
        return 'must be an elicitation result with action "accept", "decline" or "cancel"';
      }
      const content = answer['content'];
      if (content !== undefined && !isObject(content)) return 'content must be an object';
      return undefined;
    }
    case 'sampling/createMessage':
      return typeof answer['role'] === 'string' &&
        (isObject(answer['content']) || Array.isArray(answer['content']))
        ? undefined
        : 'must be a sampling result with role and content';
    case 'roots/list':
      return Array.isArray(answer['roots'])
        ? undefined
        : 'must be a roots result with a roots array';
    default:
      return undefined;
  }
}

/** What a requestState is bound to: the method, its target and the arguments. */
interface BindingTarget {
  method: string;
  name: string;
  args: unknown;
}

async function bindingOf(target: BindingTarget): Promise<string> {
  // Canonical: the same arguments sent with their keys in another order are the same request.
  const text = canonicalJson([target.method, target.name, target.args ?? null]);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest).subarray(0, 16))
    hex += byte.toString(16).padStart(2, '0');
  return hex;
}
