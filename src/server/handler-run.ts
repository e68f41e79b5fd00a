// One run of a handler that may need the client (tools/call, prompts/get, resources/read): in
// 2026-07-28 it may ask for input (the run then ends with an `input_required` result); in the
// legacy era it runs as is.
import { LazySignal } from '../internal/abort.js';
import type { MaybePromise } from '../internal/maybe.js';
import { isPromise } from '../internal/maybe.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { InputAsker, RoundAccess } from './context.js';
import { createContext } from './context.js';
import type { Call } from './call.js';
import { InputRound } from './input-required.js';
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
 * The round, the stop signal and the outcome of one 2026-07-28 run, the first two made when
 * first needed: most runs ask for no input and never read their signal.
 */
class RunInputs implements RoundAccess {
  readonly #call: Call;
  readonly #target: { readonly name: string; readonly args: unknown };
  #round: InputRound | undefined;
  #stop: LazySignal | undefined;
  /** What settles the run's outcome (see {@link outcome}), while it waits. */
  #resolve: ((value: unknown) => void) | undefined;
  #reject: ((error: unknown) => void) | undefined;

  constructor(
    call: Call,
    target: { readonly name: string; readonly args: unknown },
    round: InputRound | undefined,
  ) {
    this.#call = call;
    this.#target = target;
    this.#round = round;
    round?.whenNeeded(() => {
      this.#needed();
    });
  }

  get round(): InputAsker {
    return this.inputRound();
  }

  /** The run's multi round-trip round (made on first use). */
  inputRound(): InputRound {
    if (this.#round === undefined) {
      const call = this.#call;
      const { name, args } = this.#target;
      const round = InputRound.first(call.params, { method: call.method, name, args });
      round.whenNeeded(() => {
        this.#needed();
      });
      this.#round = round;
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

  /** Detaches the signal from the request's. */
  release(): void {
    this.#stop?.release();
  }

  /**
   * What a run still going (`running`) answers: its value (or rejection), unless the handler
   * waits for input first, when the run is stopped and answers the `input_required` result.
   * One promise and one reaction on `running`: this is the path of every 2026-07-28 call whose
   * handler waits (a gateway's forwarded call among them).
   */
  outcome<T>(running: Promise<T>): Promise<T | Spec.InputRequiredResult> {
    return new Promise<T | Spec.InputRequiredResult>((resolve, reject) => {
      this.#resolve = resolve as (value: unknown) => void;
      this.#reject = reject;
      // Read from the fields: once the run stopped for input, what it answers is not the outcome.
      running.then(
        (value) => {
          const answer = this.#resolve;
          this.#settled();
          answer?.(value);
        },
        (error: unknown) => {
          const fail = this.#reject;
          this.#settled();
          fail?.(error);
        },
      );
    });
  }

  /** The run answered (or stopped for input): its signal is detached, its outcome decided. */
  #settled(): void {
    this.#resolve = undefined;
    this.#reject = undefined;
    this.release();
  }

  /** The handler waits for input: the run stops, and answers the round's `input_required` result. */
  #needed(): void {
    const resolve = this.#resolve;
    const reject = this.#reject;
    if (resolve === undefined || reject === undefined) return; // answered already
    this.#stop?.abort(new Error('the request needs client input first'));
    this.#settled();
    this.inputRound().result(this.#call.core.rounds).then(resolve, reject);
  }
}

/** One 2026-07-28 run of a handler that may ask for input (see {@link withInput}). */
function runRound<T>(
  call: Call,
  inputs: RunInputs,
  run: (ctx: HandlerContext) => MaybePromise<T>,
): MaybePromise<T | Spec.InputRequiredResult> {
  let running: MaybePromise<T>;
  try {
    running = run(createContext(call.scope, inputs));
  } catch (error) {
    inputs.release();
    throw error;
  }
  // A value at hand won: input the handler asked for is needed only when it is still waiting.
  if (!isPromise(running)) {
    inputs.release();
    return running;
  }
  return inputs.outcome(running);
}
