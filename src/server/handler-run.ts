// One run of a handler that may need the client (tools/call, prompts/get, resources/read): in
// 2026-07-28 it may ask for input (the run then ends with an `input_required` result) and a task
// tool's run may become a task midway (`ctx.startTask()`); in the legacy era it runs as is.
import { LazySignal } from '../internal/abort.js';
import type { MaybePromise } from '../internal/maybe.js';
import { isPromise, releasing } from '../internal/maybe.js';
import { principalKey } from '../protocol/auth.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { InputAsker, RequestScope, RoundAccess } from './context.js';
import { createContext } from './context.js';
import type { Call } from './call.js';
import { InputRound, NEEDS_INPUT } from './input-required.js';
import { taskScope } from './tasks/features.js';
import { TaskRun, createTask, createTaskResult } from './tasks/run.js';
import type { TaskRecord } from './tasks/store.js';
import type { HandlerContext } from './types.js';

/**
 * Runs `run` with a context. In 2026-07-28, handlers of tools/call, prompts/get and
 * resources/read may need client input: the run then ends with an `input_required` result.
 * Synchronous when `run` is and no `requestState` is to be opened.
 */
export function withInput<T>(
  call: Call,
  target: { readonly name: string; readonly args: unknown; readonly taskable?: boolean },
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
  #starting: Promise<void> | undefined;
  /** Set when the run may become a task (see startTask); resolves when it does. */
  readonly escalation: Escalation | undefined;

  constructor(
    call: Call,
    target: { readonly name: string; readonly args: unknown; readonly taskable?: boolean },
    round: InputRound | undefined,
  ) {
    this.#call = call;
    this.#target = target;
    this.#round = round;
    this.escalation = target.taskable === true ? new Escalation() : undefined;
  }

  /**
   * Creates the task and hands the rest of the run to it (a no-op unless taskable). Calls made
   * while the task is being created share that one creation.
   */
  startTask(): Promise<void> {
    return (this.#starting ??= this.#startTask());
  }

  async #startTask(): Promise<void> {
    const escalation = this.escalation;
    if (escalation === undefined || escalation.run !== undefined) return;
    const { core, scope } = this.#call;
    const record = await createTask(core.tasks, principalKey(scope.info?.auth));
    const run = new TaskRun(core.tasks, record, core.report);
    escalation.begin(run, record, taskScope(scope, run, record.taskId));
  }

  get scope(): RequestScope | undefined {
    return this.escalation?.scope;
  }

  get round(): InputAsker {
    const task = this.escalation?.run;
    if (task !== undefined) return task;
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
    const task = this.escalation?.run;
    if (task !== undefined) return task.signal;
    const scope = this.#call.scope;
    return (this.#stop ??= new LazySignal(() => [scope.source])).signal;
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

/**
 * A run that may become a task midway (a tool with `task.start: 'handler'`): once the handler
 * calls ctx.startTask(), the request is answered with the task and the handler's outcome goes
 * to the task.
 */
class Escalation {
  run: TaskRun | undefined;
  scope: RequestScope | undefined;
  #record: TaskRecord | undefined;
  #resolve: ((result: Record<string, unknown>) => void) | undefined;
  readonly #started = new Promise<Record<string, unknown>>((resolve) => {
    this.#resolve = resolve;
  });

  begin(run: TaskRun, record: TaskRecord, scope: RequestScope): void {
    this.run = run;
    this.scope = scope;
    this.#record = record;
    this.#resolve?.(createTaskResult(record));
  }

  /** Resolves with CreateTaskResult when the task starts; `running`'s outcome then goes to it. */
  started(running: Promise<unknown>): Promise<Record<string, unknown>> {
    return this.#started.then((result) => {
      const run = this.run;
      if (run !== undefined && this.#record !== undefined) {
        running.then(
          (value) => run.finish({ result: value }),
          (error: unknown) => run.finish({ error }),
        );
      }
      return result;
    });
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
    const escalation = inputs.escalation;
    const raced =
      escalation === undefined
        ? round.race(running)
        : Promise.race([round.race(running), escalation.started(running)]);
    return raced.then<T | Spec.InputRequiredResult>((outcome) => {
      if (outcome !== NEEDS_INPUT) return outcome as T;
      inputs.abort(new Error('the request needs client input first'));
      return round.result(call.core.rounds);
    });
  }, inputs);
}
