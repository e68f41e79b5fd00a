// The methods a server serves, as one table of feature functions. Each takes the request's Call
// and resolves with the result object (era decoration is the session's job).
import type { InsufficientScopeData } from '../protocol/auth.js';
import { INSUFFICIENT_SCOPE, isAuthInfo, missingScopes } from '../protocol/auth.js';
import { LazySignal } from '../internal/abort.js';
import { isObject } from '../internal/json.js';
import type { MaybePromise } from '../internal/maybe.js';
import { isPromise, releasing } from '../internal/maybe.js';
import { ErrorCode, JsonRpcError } from '../jsonrpc/errors.js';
import { headerMismatch, invalidParams, resourceNotFound } from '../protocol/errors.js';
import { isLoggingLevel } from '../protocol/logging.js';
import { checkParamHeaders } from '../protocol/param-headers.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import { MetaKey, PROTOCOL_REVISIONS } from '../protocol/version.js';
import { complete } from './completion.js';
import type { RoundAccess } from './context.js';
import { createContext } from './context.js';
import { InputRound, NEEDS_INPUT } from './input-required.js';
import { getPrompt } from './prompts.js';
import { paginate } from './registry.js';
import { readResource, servingResource, trimResource } from './resources.js';
import type { RequestScope } from './context.js';
import type { ServerCore } from './core.js';
import type { Snapshot } from './registry.js';
import type { CompiledTool } from './tools.js';
import { callTool, unknownTool } from './tools.js';
import {
  TASK_FEATURES,
  agreedTaskIds,
  callAsTask,
  canTakeTasks,
  taskScope,
  tasksRequired,
  watchTasks,
} from './tasks/features.js';
import type { TaskRecord } from './tasks/store.js';
import { TaskRun, createTask, createTaskResult } from './tasks/run.js';
import type { InputAsker } from './context.js';
import { principalKey } from '../protocol/auth.js';
import type { HandlerContext, LoggingLevel } from './types.js';

/**
 * What a legacy session keeps for its client, as the features that change it see it. A request
 * served without a session (2026-07-28, legacy stateless) gets {@link NO_STATE}: what it asks to
 * keep is not kept, as the spec's stateless modes say.
 */
export interface SessionState {
  /** Starts (or stops) sending `notifications/resources/updated` for `uri` (resources/subscribe). */
  subscribe(uri: string, on: boolean): void;
  /** Sets the least severe log level sent (logging/setLevel). */
  setLogLevel(level: LoggingLevel): void;
}

/** The state of a request served without a session: nothing is kept. */
export const NO_STATE: SessionState = {
  subscribe() {
    // no session to keep it in
  },
  setLogLevel() {
    // no session to keep it in
  },
};

/** What a feature function receives for one request. */
export interface Call {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly scope: RequestScope;
  readonly snapshot: Snapshot;
  readonly state: SessionState;
  readonly core: ServerCore;
}

/** Serves one method; may throw (a JsonRpcError) instead of rejecting. */
type Feature = (call: Call) => MaybePromise<unknown>;

function requireString(params: Record<string, unknown>, key: string): string {
  const value = params[key];
  if (typeof value !== 'string') throw invalidParams(`params.${key} must be a string`);
  return value;
}

function listPage(
  call: Call,
  kind: 'tools' | 'prompts' | 'templates',
  key: string,
): Promise<unknown> {
  const items = call.snapshot.listing(kind, call.scope.revision);
  const page = paginate(items, call.params['cursor'], call.core.pageSize);
  const result: Record<string, unknown> = { [key]: page.items };
  if (page.nextCursor !== undefined) result['nextCursor'] = page.nextCursor;
  return Promise.resolve(result);
}

/**
 * Runs `run` with a context. In 2026-07-28, handlers of tools/call, prompts/get and
 * resources/read may need client input: the run then ends with an `input_required` result.
 * Synchronous when `run` is and no `requestState` is to be opened.
 */
function withInput<T>(
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

/**
 * How a task tool's call runs: as a task at once, or as a call (which may become a task later,
 * `start: 'handler'`). 2026-07-28: a task for a client that declares the extension (-32021 when
 * the tool requires one and the client does not). 2025-11-25: a task when the call asks for one
 * (`params.task`; -32601 when the tool requires one and the call does not). Older revisions have
 * no tasks: a call.
 */
function taskMode(call: Call, task: NonNullable<CompiledTool['task']>): 'task' | 'call' {
  const { scope } = call;
  if (scope.revision === '2025-11-25') {
    if (isObject(call.params['task'])) return 'task';
    if (task.support === 'required') {
      throw new JsonRpcError(
        ErrorCode.MethodNotFound,
        `tool ${String(call.params['name'])} must be called as a task (params.task)`,
      );
    }
    return 'call';
  }
  if (scope.era === 'legacy') return 'call';
  const takes = canTakeTasks(scope);
  if (task.support === 'required' && !takes) throw tasksRequired();
  return takes && task.start === 'call' ? 'task' : 'call';
}

/**
 * Refuses a request whose verified principal lacks `scopes` (INSUFFICIENT_SCOPE, with
 * `data.requiredScopes`; the HTTP transport answers it 403 with the step-up challenge). The one
 * place a tool's, resource's or prompt's scopes are decided. Without a verified principal (no
 * auth gate, stdio) scopes are not checked.
 */
function requireScopes(call: Call, scopes: readonly string[]): void {
  if (scopes.length === 0) return;
  const auth = call.scope.info?.auth;
  if (!isAuthInfo(auth) || missingScopes(auth, scopes).length === 0) return;
  const data: InsufficientScopeData = { requiredScopes: scopes };
  throw new JsonRpcError(INSUFFICIENT_SCOPE, `insufficient scope: needs ${scopes.join(' ')}`, data);
}

function toolsCall(call: Call): MaybePromise<unknown> {
  const name = requireString(call.params, 'name');
  const tool = call.snapshot.tools.get(name);
  if (tool === undefined) throw unknownTool(name);
  requireScopes(call, tool.scopes);
  const args = call.params['arguments'];
  if (args !== undefined && !isObject(args)) {
    throw invalidParams('params.arguments must be an object');
  }
  // Spec 2026-07-28 transports/streamable-http#custom-headers-from-tool-parameters: the
  // Mcp-Param-* headers must agree with the arguments (only 2026-07-28 requests carry them).
  if (tool.params.length > 0 && call.scope.era === 'modern') {
    const headers = call.scope.info?.headers;
    if (headers !== undefined) {
      const mismatch = checkParamHeaders(tool.params, args, (key) => headers[key]);
      if (mismatch !== undefined) throw headerMismatch(mismatch);
    }
  }
  const report = call.core.report;
  if (tool.task !== undefined) {
    const task = taskMode(call, tool.task);
    if (task === 'task') return callAsTask(call, tool, args);
  }
  // Legacy calls have no input round: withInput's first step, without the closure and target it
  // would need (this is the path of every legacy tools/call).
  const through = call.core.middleware.toolCall;
  if (call.scope.era === 'legacy') {
    return callTool(tool, args, { ctx: createContext(call.scope, undefined), report, through });
  }
  const taskable = tool.task?.start === 'handler' && canTakeTasks(call.scope);
  return withInput(call, { name, args, taskable }, (ctx) =>
    callTool(tool, args, { ctx, report, through }),
  );
}

async function resourcesList(call: Call): Promise<unknown> {
  const revision = call.scope.revision;
  let items = call.snapshot.listing('resources', revision);
  const dynamic = call.snapshot.templates.filter((t) => t.definition.list !== undefined);
  if (dynamic.length > 0) {
    const listed = await Promise.all(dynamic.map(async (t) => (await t.definition.list?.()) ?? []));
    items = [...items, ...listed.flat().map((r) => trimResource(r, revision))];
  }
  const page = paginate(items, call.params['cursor'], call.core.pageSize);
  const result: Record<string, unknown> = { resources: page.items };
  if (page.nextCursor !== undefined) result['nextCursor'] = page.nextCursor;
  return result;
}

async function resourcesRead(call: Call): Promise<unknown> {
  const uri = requireString(call.params, 'uri');
  const { snapshot } = call;
  const serving = servingResource(snapshot, uri);
  if (serving === undefined) throw resourceNotFound(uri, call.scope.era);
  requireScopes(call, serving.scopes);
  return withInput(call, { name: uri, args: undefined }, async (ctx) => {
    const result = await readResource(uri, serving, ctx).catch((error: unknown) => {
      throw handlerError(call, error, `resource ${JSON.stringify(uri)}`);
    });
    if (result === undefined) throw resourceNotFound(uri, call.scope.era);
    return result;
  });
}

/**
 * What a resource or prompt handler's throw answers (these have no `isError`): a JsonRpcError as
 * is; an Error as -32603 with its message, which is also reported through onError so the cause
 * is seen on the server; anything else is left to the pipeline ("internal error", reported).
 */
function handlerError(call: Call, error: unknown, what: string): unknown {
  if (error instanceof JsonRpcError || !(error instanceof Error)) return error;
  call.core.report(error, what);
  return new JsonRpcError(ErrorCode.InternalError, error.message);
}

function subscribe(call: Call, on: boolean): Promise<unknown> {
  const uri = requireString(call.params, 'uri');
  call.state.subscribe(uri, on);
  return Promise.resolve({});
}

async function promptsGet(call: Call): Promise<unknown> {
  const name = requireString(call.params, 'name');
  const prompt = call.snapshot.prompts.get(name);
  if (prompt === undefined) throw invalidParams(`unknown prompt ${JSON.stringify(name)}`);
  requireScopes(call, prompt.scopes);
  const args = call.params['arguments'];
  return withInput(call, { name, args }, (ctx) =>
    getPrompt(prompt, args, ctx).catch((error: unknown) => {
      throw handlerError(call, error, `prompt ${JSON.stringify(name)}`);
    }),
  );
}

function setLevel(call: Call): Promise<unknown> {
  const level = call.params['level'];
  if (!isLoggingLevel(level)) throw invalidParams(`params.level must be a logging level`);
  call.state.setLogLevel(level);
  return Promise.resolve({});
}

function discover(call: Call): Promise<unknown> {
  const result: Record<string, unknown> = {
    // Every revision, newest first: the same list an UnsupportedProtocolVersion error gives, so
    // a client can pick a modern one for requests or a legacy one for `initialize`.
    supportedVersions: PROTOCOL_REVISIONS.filter((r) => call.core.revisions.includes(r)).reverse(),
    capabilities: call.core.capabilities(call.scope.revision),
  };
  if (call.core.instructions !== undefined) result['instructions'] = call.core.instructions;
  return Promise.resolve(result);
}

async function listen(call: Call): Promise<unknown> {
  const requested = call.params['notifications'];
  if (!isObject(requested)) {
    throw invalidParams('params.notifications must be an object');
  }
  const { core } = call;
  if (!core.takeListenSlot()) {
    const limit = String(core.maxListenStreams);
    throw new JsonRpcError(
      ErrorCode.InternalError,
      `too many subscriptions/listen streams are open (limit ${limit}): try again later`,
    );
  }
  try {
    return await listening(call, requested);
  } finally {
    core.releaseListenSlot();
  }
}

/** Serves one subscriptions/listen stream: acknowledges its filter, then tells changes until it ends. */
async function listening(call: Call, requested: Record<string, unknown>): Promise<unknown> {
  const filter = call.core.agreeFilter(requested);
  // Tasks extension: status notifications for the tasks named (-32021 without the extension).
  const taskIds = await agreedTaskIds(call, requested['taskIds']);
  const acknowledged = taskIds === undefined ? filter : { ...filter, taskIds };
  const { id } = call.scope;
  // Copies whose fields are then set: `{ ...params, _meta }` takes V8's slow path on Node 20.
  const tag = (params: Record<string, unknown>): Record<string, unknown> => {
    const meta: Record<string, unknown> = Object.assign({}, params['_meta']);
    meta[MetaKey.SubscriptionId] = id;
    const tagged: Record<string, unknown> = Object.assign({}, params);
    tagged['_meta'] = meta;
    return tagged;
  };
  await call.scope.notify(
    'notifications/subscriptions/acknowledged',
    tag({ notifications: acknowledged }),
  );
  const send = (method: string, params: Record<string, unknown>): void => {
    call.scope.notify(method, tag(params)).catch((error: unknown) => {
      call.core.report(error, method);
    });
  };
  const unlisten = call.core.listen({
    listChanged(kind) {
      if (filter[`${kind}ListChanged`] === true) send(`notifications/${kind}/list_changed`, {});
    },
    resourceUpdated(uri) {
      if (filter.resourceSubscriptions?.includes(uri) === true) {
        send('notifications/resources/updated', { uri });
      }
    },
  });
  const unwatch =
    taskIds === undefined
      ? undefined
      : watchTasks(call, taskIds, (task) => {
          send('notifications/tasks', task);
        });
  let off: (() => void) | undefined;
  try {
    await new Promise<void>((resolve) => {
      off = call.core.onShutdown(resolve);
      if (call.scope.signal.aborted) resolve();
      call.scope.signal.addEventListener('abort', () => {
        resolve();
      });
    });
  } finally {
    off?.();
    unwatch?.();
    unlisten();
  }
  return { _meta: { [MetaKey.SubscriptionId]: id } };
}

function ping(): Promise<unknown> {
  return Promise.resolve({});
}

/** Every method a server serves. Whether a revision has it is checked before lookup. */
export const FEATURES: Readonly<Record<string, Feature | undefined>> = {
  ping,
  'logging/setLevel': setLevel,
  'server/discover': discover,
  'subscriptions/listen': listen,
  'tools/list': (call) => listPage(call, 'tools', 'tools'),
  'tools/call': toolsCall,
  'prompts/list': (call) => listPage(call, 'prompts', 'prompts'),
  'prompts/get': promptsGet,
  'resources/list': resourcesList,
  'resources/templates/list': (call) => listPage(call, 'templates', 'resourceTemplates'),
  'resources/read': resourcesRead,
  'resources/subscribe': (call) => subscribe(call, true),
  'resources/unsubscribe': (call) => subscribe(call, false),
  'completion/complete': (call) => complete(call.params, call.snapshot),
  // 2025-11-25 core tasks (2026-07-28's tasks extension serves its own: tasks/extension.ts).
  ...TASK_FEATURES,
};
