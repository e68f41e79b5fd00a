// One run of a handler that may need the client (tools/call, prompts/get, resources/read): in
// 2026-07-28 it may ask for input (the run then ends with an `input_required` result); in the
// legacy era it runs as is.
import { LazySignal } from '../internal/abort.js';
import type { MaybePromise } from '../internal/maybe.js';
import { isPromise, releasing } from '../internal/maybe.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { InputAsker, RoundAccess } from './context.js';
import { createContext } from './context.js';
import type { Call } from './call.js';
import { InputRound, NEEDS_INPUT } from './input-required.js';
import type { HandlerContext } from './types.js';

/**
 * Runs `run` with a context. In 2026-07-28, handlers of tools/call, prompts/get and
 * resources/read may need client input: the run then ends with an `input_required` result.
 * Synchronous when `run` is and no `requestState` is to be opened.
 */
export function withInput<T>(
  call: Call,
  target: { readonly name: string; readonly args: unknown },
  run: (ctx: HandlerContext) => MaybePromise<T>,
): MaybePromise<T | Spec.InputRequiredResult> {
  if (call.scope.era === 'legacy') return run(createContext(call.scope, undefined));
  // A first round opens when the handler first asks; a retry's requestState is checked first.
  if (call.params['requestState'] !== undefined) {
    const bound = { method: call.method, name: target.name, args: target.args };
    return InputRound.open(call.params, bound, call.core.rounds).then((round) =>
      runRound(call, new RunInputs(call, target, round), run),
    );
  }
  return runRound(call, new RunInputs(call, target, undefined), run);
}

/**
 * The round and the stop signal of one 2026-07-28 run, each made when first needed: most runs
 * ask for no input and never read their signal.
 */
class RunInputs implements RoundAccess {
  readonly #call: Call;
  readonly #target: { readonly name: string; readonly args: unknown };
  #round: InputRound | undefined;
  #stop: LazySignal | undefined;

  constructor(
    call: Call,
    target: { readonly name: string; readonly args: unknown },
    round: InputRound | undefined,
  ) {
    this.#call = call;
    this.#target = target;
    this.#round = round;
  }

  get round(): InputAsker {
    return this.inputRound();
  }

  /** The run's multi round-trip round (made on first use). */
  inputRound(): InputRound {
    if (this.#round === undefined) {
      const call = this.#call;
      const { name, args } = this.#target;
      this.#round = InputRound.first(call.params, { method: call.method, name, args });
    }
    return this.#round;
  }

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }

  /** What stops the run, followed without making its signal. */
  get cancellation(): LazySignal {
    const scope = this.#call.scope;
    return (this.#stop ??= new LazySignal(() => [scope.source]));
  }

  /** Stops the run: its signal aborts (if it was ever read). */
  abort(reason: unknown): void {
    this.#stop?.abort(reason);
  }

  /** Detaches the signal from the request's. */
  release(): void {
    this.#stop?.release();
  }
}

/** One 2026-07-28 run of a handler that may ask for input (see {@link withInput}). */
function runRound<T>(
  call: Call,
  inputs: RunInputs,
  run: (ctx: HandlerContext) => MaybePromise<T>,
): MaybePromise<T | Spec.InputRequiredResult> {
  return releasing(() => {
    const running = run(createContext(call.scope, inputs));
    // A value at hand won: input the handler asked for is needed only when it is still waiting.
    if (!isPromise(running)) return running;
    const round = inputs.inputRound();
    return round.race(running).then<T | Spec.InputRequiredResult>((outcome) => {
      if (outcome !== NEEDS_INPUT) return outcome;
      inputs.abort(new Error('the request needs client input first'));
      return round.result(call.core.rounds);
    });
  }, inputs);
}
