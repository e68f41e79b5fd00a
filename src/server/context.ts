// Builds the HandlerContext of one request. The same context API serves both eras: in the
// legacy era client requests go over the session; in 2026-07-28 they become an input round.
import type { Followable, SignalSource } from '../internal/abort.js';
import { LazySignal } from '../internal/abort.js';
import type { CallOptions } from '../jsonrpc/serve.js';
import type { Params, RequestId } from '../jsonrpc/message.js';
import type { MessageInfo } from '../jsonrpc/transport.js';
import type { AuthInfo } from '../protocol/auth.js';
import { isAuthInfo } from '../protocol/auth.js';
import { missingRequiredClientCapability } from '../protocol/errors.js';
import { meetsLoggingLevel } from '../protocol/logging.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { ProtocolEra, ProtocolRevision } from '../protocol/version.js';
import { MetaKey } from '../protocol/version.js';

/** Where a 2026-07-28 run's requests to the client go: its input round, or a redirect's. */
export interface InputAsker {
  request(input: Spec.InputRequest, key?: string): Promise<unknown>;
}

/**
 * How a 2026-07-28 context asks for input: the run's round of embedded requests and the signal
 * that stops the run (it follows the request's, and aborts when the run needs input). Both may
 * be made on first read.
 */
export interface RoundAccess {
  readonly round: InputAsker;
  readonly signal: AbortSignal;
  /** What aborts with `signal`, without making it (when the holder can follow it so). */
  readonly cancellation?: Followable;
}

/**
 * Where a handler's context sends what it asks and tells once {@link redirectContext} moved it
 * off its request (an extension's run that outlives the request, such as a task).
 */
export interface ContextRedirect {
  /** The run's signal from then on. */
  readonly signal: AbortSignal;
  /** A request for the client (elicitation, sampling, roots), in either era. */
  request(input: Spec.InputRequest, key?: string): Promise<unknown>;
  /** A notification the handler sends (progress, log). */
  notify(method: string, params: Params): Promise<void>;
  /** The progress token `ctx.progress` uses when the request carried none. */
  readonly progressToken?: string | number;
}
import type {
  ClientDescription,
  CoreHandlerContext,
  ElicitParams,
  HandlerContext,
  InputOptions,
  LoggingLevel,
} from './types.js';

/** MissingCapabilityError is thrown in the legacy era when a handler needs a capability the client lacks. */
export class MissingCapabilityError extends Error {
  constructor(capability: string) {
    super(
      `the client does not support ${capability} (it did not declare the "${capability}" capability)`,
    );
    this.name = 'MissingCapabilityError';
  }
}

/** Everything the session knows about one request, for building its context. */
export interface RequestScope {
  readonly id: RequestId;
  readonly era: ProtocolEra;
  readonly revision: ProtocolRevision;
  readonly client: ClientDescription;
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  readonly info: MessageInfo | undefined;
  readonly signal: AbortSignal;
  /** What to follow for `signal` without making it (the holder's LazySignal, when it is one). */
  readonly source: SignalSource;
  /** The lowest level to send; undefined sends nothing. */
  readonly logLevel: LoggingLevel | undefined;
  /** Sends a notification related to this request. */
  notify(method: string, params: Params): Promise<void>;
  /** Sends a request to the client related to this request (legacy era only). */
  request(method: string, params: Params, options?: CallOptions): Promise<unknown>;
}

/** The fields of a RequestScope that are plain data. */
export type ScopeFields = Pick<
  RequestScope,
  'id' | 'era' | 'revision' | 'client' | 'meta' | 'info' | 'logLevel'
>;

/**
 * A RequestScope whose signal is `signal.signal`, read when asked for (the holder may make it on
 * first read), and whose notify and request go to `via`. A class: an object literal with a
 * getter takes V8's slow path and gets dictionary properties, on every request (see
 * bench/RESULTS.md).
 */
export class LazyScope implements RequestScope {
  readonly id: RequestId;
  readonly era: ProtocolEra;
  readonly revision: ProtocolRevision;
  readonly client: ClientDescription;
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  readonly info: MessageInfo | undefined;
  readonly logLevel: LoggingLevel | undefined;
  readonly #signal: { readonly signal: AbortSignal };
  readonly #via: Pick<RequestScope, 'notify' | 'request'>;

  constructor(
    fields: ScopeFields,
    signal: { readonly signal: AbortSignal },
    via: Pick<RequestScope, 'notify' | 'request'>,
  ) {
    this.id = fields.id;
    this.era = fields.era;
    this.revision = fields.revision;
    this.client = fields.client;
    this.meta = fields.meta;
    this.info = fields.info;
    this.logLevel = fields.logLevel;
    this.#signal = signal;
    this.#via = via;
  }

  get signal(): AbortSignal {
    return this.#signal.signal;
  }

  get source(): SignalSource {
    const holder = this.#signal;
    return holder instanceof LazySignal ? holder : holder.signal;
  }

  notify(method: string, params: Params): Promise<void> {
    return this.#via.notify(method, params);
  }

  request(method: string, params: Params, options?: CallOptions): Promise<unknown> {
    return this.#via.request(method, params, options);
  }
}

/**
 * Moves `ctx` off its request: what the handler asks of the client from then on goes to
 * `to.request`, its progress and log notifications to `to.notify`, and its signal is `to.signal`.
 * Its fields (revision, client, auth, meta) stay. Throws TypeError for a context the server did
 * not make.
 */
export function redirectContext(ctx: HandlerContext, to: ContextRedirect): void {
  Context.redirect(ctx, to);
}

/**
 * Creates the context handlers receive. `inputs` is set for 2026-07-28 requests that may need
 * input: the context's signal is then theirs, and client requests go to their round.
 */
export function createContext(
  scope: RequestScope,
  inputs: RoundAccess | undefined,
): HandlerContext {
  // An extension's members (HandlerContext merges them) are set by its middleware when it runs.
  return new Context(scope, inputs) as CoreHandlerContext as HandlerContext;
}

/**
 * A HandlerContext: the scope's fields, `signal` read on demand (an AbortSignal is costly to
 * make, and most handlers never read it), and functions made on first read (most handlers call
 * none of them). A class because an object literal with a getter takes V8's slow path and gets
 * dictionary properties (bench/RESULTS.md). A function read off the context (`const { log } =
 * ctx`) is bound to it, so handlers may destructure them.
 */
class Context implements CoreHandlerContext {
  readonly requestId: RequestId;
  readonly revision: ProtocolRevision;
  readonly era: ProtocolEra;
  readonly client: ClientDescription;
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  readonly transport: MessageInfo | undefined;
  #scope: RequestScope;
  #inputs: RoundAccess | undefined;
  #progress: HandlerContext['progress'] | undefined;
  #log: HandlerContext['log'] | undefined;
  #elicit: HandlerContext['elicit'] | undefined;
  #sample: HandlerContext['sample'] | undefined;
  #roots: HandlerContext['roots'] | undefined;

  constructor(scope: RequestScope, inputs: RoundAccess | undefined) {
    this.requestId = scope.id;
    this.revision = scope.revision;
    this.era = scope.era;
    this.client = scope.client;
    this.meta = scope.meta;
    this.transport = scope.info;
    this.#scope = scope;
    this.#inputs = inputs;
  }

  get signal(): AbortSignal {
    return (this.#inputs ?? this.#scope).signal;
  }

  get cancellation(): Followable {
    const inputs = this.#inputs;
    const source: SignalSource =
      inputs === undefined ? this.#scope.source : (inputs.cancellation ?? inputs.signal);
    return source instanceof LazySignal ? source : new LazySignal(() => [source]);
  }

  get logLevel(): LoggingLevel | undefined {
    return this.#scope.logLevel;
  }

  get auth(): AuthInfo | undefined {
    const auth = this.transport?.auth;
    return isAuthInfo(auth) ? auth : undefined;
  }

  /** See {@link redirectContext}. */
  static redirect(ctx: HandlerContext, to: ContextRedirect): void {
    if (!(ctx instanceof Context)) {
      throw new TypeError('redirectContext takes a context the server made');
    }
    const scope = ctx.#scope;
    const token = scope.meta?.[MetaKey.ProgressToken] ?? to.progressToken;
    const meta =
      token === undefined ? scope.meta : { ...scope.meta, [MetaKey.ProgressToken]: token };
    const { id, era, revision, client, info, logLevel } = scope;
    ctx.#scope = new LazyScope({ id, era, revision, client, meta, info, logLevel }, to, {
      notify: (method, params) => to.notify(method, params),
      request: (method, params) => to.request({ method, params } as unknown as Spec.InputRequest),
    });
    ctx.#inputs = { round: to, signal: to.signal };
  }

  get progress(): HandlerContext['progress'] {
    return (this.#progress ??= this.#progressFunction());
  }

  /**
   * What `progress` is, returned rather than assigned as a literal: V8 makes a function literal
   * assigned to a member in the old generation, where it keeps the request alive (issue #44).
   */
  #progressFunction(): HandlerContext['progress'] {
    return (progress, total, message) => {
      const scope = this.#scope;
      const progressToken = scope.meta?.[MetaKey.ProgressToken];
      if (typeof progressToken !== 'string' && typeof progressToken !== 'number') {
        return Promise.resolve();
      }
      const params: Record<string, unknown> = { progressToken, progress };
      if (total !== undefined) params['total'] = total;
      if (message !== undefined) params['message'] = message;
      return scope.notify('notifications/progress', params);
    };
  }

  get log(): HandlerContext['log'] {
    return (this.#log ??= this.#logFunction());
  }

  /** What `log` is, returned rather than assigned as a literal (see `#progressFunction`). */
  #logFunction(): HandlerContext['log'] {
    return (level, data, logger) => {
      const scope = this.#scope;
      if (scope.logLevel === undefined || !meetsLoggingLevel(level, scope.logLevel)) {
        return Promise.resolve();
      }
      const params: Record<string, unknown> = { level, data };
      if (logger !== undefined) params['logger'] = logger;
      return scope.notify('notifications/message', params);
    };
  }

  get elicit(): HandlerContext['elicit'] {
    // eslint-disable-next-line mcpkit/no-member-closure -- rare: made for a request that asks the client (a round trip)
    return (this.#elicit ??= async (params, options) => {
      const wire = elicitParamsFor(this.#scope, params);
      const input = { method: 'elicitation/create', params: wire } as unknown as Spec.ElicitRequest;
      return (await this.#ask('elicitation', input, options)) as Spec.ElicitResult;
    });
  }

  get sample(): HandlerContext['sample'] {
    // eslint-disable-next-line mcpkit/no-member-closure -- rare: made for a request that asks the client (a round trip)
    return (this.#sample ??= async (params, options) => {
      const input: Spec.InputRequest = { method: 'sampling/createMessage', params };
      return (await this.#ask('sampling', input, options)) as Spec.CreateMessageResult;
    });
  }

  get roots(): HandlerContext['roots'] {
    // eslint-disable-next-line mcpkit/no-member-closure -- rare: made for a request that asks the client (a round trip)
    return (this.#roots ??= async (options) => {
      const result = (await this.#ask('roots', { method: 'roots/list' }, options)) as
        Spec.ListRootsResult | undefined;
      return result?.roots ?? [];
    });
  }

  #ask(
    capability: keyof Spec.ClientCapabilities,
    input: Spec.InputRequest,
    options: InputOptions | undefined,
  ): Promise<unknown> {
    return askClient(this.#scope, this.#inputs, {
      capability,
      input,
      key: options?.key,
      timeoutMs: options?.timeoutMs,
    });
  }
}

function askClient(
  scope: RequestScope,
  inputs: RoundAccess | undefined,
  need: {
    capability: keyof Spec.ClientCapabilities;
    input: Spec.InputRequest;
    key: string | undefined;
    timeoutMs: number | undefined;
  },
): Promise<unknown> {
  const { capability, input, key } = need;
  const required = requiredCapability(capability, input);
  if (!hasCapability(scope.client.capabilities, required)) {
    const error =
      scope.era === 'modern'
        ? missingRequiredClientCapability(required)
        : new MissingCapabilityError(
            capability === 'elicitation' && isUrlMode(input) ? 'elicitation.url' : capability,
          );
    return Promise.reject(error);
  }
  if (scope.era === 'modern') {
    if (inputs === undefined) {
      return Promise.reject(
        new Error(`${input.method} is not available while serving this request`),
      );
    }
    return inputs.round.request(input, key);
  }
  const params = (input as { params?: Params }).params ?? {};
  const options: CallOptions = { signal: scope.signal };
  if (need.timeoutMs !== undefined) options.timeoutMs = need.timeoutMs;
  return scope.request(input.method, params, options);
}

function isUrlMode(input: Spec.InputRequest): boolean {
  return (
    input.method === 'elicitation/create' && (input.params as { mode?: string }).mode === 'url'
  );
}

function requiredCapability(
  capability: keyof Spec.ClientCapabilities,
  input: Spec.InputRequest,
): Spec.ClientCapabilities {
  if (capability === 'elicitation')
    return isUrlMode(input) ? { elicitation: { url: {} } } : { elicitation: {} };
  return { [capability]: {} };
}

/** True when `declared` covers `required` (a bare `elicitation: {}` means form mode). */
function hasCapability(
  declared: Spec.ClientCapabilities,
  required: Spec.ClientCapabilities,
): boolean {
  for (const [key, value] of Object.entries(required)) {
    const have = (declared as Record<string, unknown>)[key];
    if (typeof have !== 'object' || have === null) return false;
    if (key === 'elicitation' && typeof value === 'object' && value !== null && 'url' in value) {
      if (typeof (have as Record<string, unknown>)['url'] !== 'object') return false;
    }
  }
  return true;
}

/** Adapts elicitation params to the revision: 2025-11-25 URL mode needs an elicitationId. */
function elicitParamsFor(scope: RequestScope, params: ElicitParams): Params {
  const wire: Record<string, unknown> = { ...params };
  if (scope.era === 'legacy' && wire['mode'] === 'url' && wire['elicitationId'] === undefined) {
    wire['elicitationId'] = crypto.randomUUID();
  }
  if (scope.era === 'legacy' && scope.revision !== '2025-11-25' && wire['mode'] === 'form') {
    // Before 2025-11-25 there was only form mode, and no `mode` field.
    delete wire['mode'];
  }
  return wire;
}
