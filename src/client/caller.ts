// Caller sends one MCP request the way the negotiated revision wants it: `_meta` with the
// revision, capabilities and client (2026-07-28), a progress token when progress is wanted,
// `notifications/cancelled` on abort and timeout, and the multi round-trip driver that answers
// `input_required` results and retries with a new id (Spec 2026-07-28 basic/patterns/mrtr).
import type { SignalSource } from '../internal/abort.js';
import { linkSignals } from '../internal/abort.js';
import type { ClientExtensionIo, ResultHandler } from './extension.js';
import { isObject } from '../internal/json.js';
import { LiveSet } from '../internal/live-set.js';
import type { AbandonedCall, Connection } from '../jsonrpc/connection.js';
import type { CallOptions as ConnectionCallOptions } from '../jsonrpc/serve.js';
import { LocalError, LocalErrorCode } from '../jsonrpc/errors.js';
import type { RequestId } from '../jsonrpc/message.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { ProtocolEra, ProtocolRevision } from '../protocol/version.js';
import { LATEST_REVISION, MetaKey, eraOf, isInputRequiredResult } from '../protocol/version.js';
import type { InputHandlers } from './input.js';
import type { MetaFields } from './meta-params.js';
import { MetaTexts, copyFields, metaObject, metaParams, takesMeta } from './meta-params.js';
import type { ClientMiddlewareStack } from './middleware.js';
import { ClientCall } from './middleware.js';
import type { Transport } from '../jsonrpc/transport.js';
import type { CallOptions, LoggingLevel } from './types.js';

/** What a Caller needs from its client. */
export interface CallerSettings {
  readonly connection: Connection;
  /** The client's identity, as the revision defines it. */
  readonly info: (revision: ProtocolRevision) => Spec.Implementation;
  /** The client's capabilities, as the revision defines them. */
  readonly capabilities: (revision: ProtocolRevision) => Spec.ClientCapabilities;
  readonly timeoutMs: number;
  readonly maxInputRounds: number;
  readonly input: InputHandlers;
  /** Reports failures no caller waits for. */
  readonly report: (error: unknown) => void;
  /** The client's middleware (its chain read per message) and the transport it sees. */
  readonly middleware: ClientMiddlewareStack;
  readonly transport: Transport;
  /** The extensions' handlers of 2026-07-28 `resultType`s, read while not empty. */
  readonly results: ReadonlyMap<string, ResultHandler>;
}

/** Options of one request as the client sends it. */
export interface RequestOptions extends CallOptions {
  /** The id of the first round. Default: the next one. */
  id?: RequestId;
  /** Send without a timeout (long-lived `subscriptions/listen`). */
  noTimeout?: boolean;
  /** Resolve with a 2026-07-28 result an extension handles as it is, instead of handing it over. */
  raw?: boolean;
}

type Params = Record<string, unknown>;
type ProgressListener = (params: Params) => void;

/** Caller is the request pipeline of one client connection. */
export class Caller {
  readonly #settings: CallerSettings;
  readonly #progress = new Map<RequestId, ProgressListener>();
  /**
   * The `tag` of each request in flight that has one, with its id (this round's): a LiveSet, not
   * a Map, for a removed entry holds nothing (a churning Map's old tables kept the tagged calls
   * alive through scavenges; bench/RESULTS.md, the LiveSet story). Read only when the server
   * asks or logs something in a request's course.
   */
  readonly #tags = new LiveSet<{ readonly id: RequestId; readonly tag: unknown }>();
  /** The `_meta` texts of this client's 2026-07-28 requests. */
  readonly #metaTexts = new MetaTexts();
  #nextId = 0;
  #revision: ProtocolRevision = LATEST_REVISION;
  /** The era of `#revision` (read several times a request). */
  #era: ProtocolEra = eraOf(LATEST_REVISION);
  /** The lowest log level asked for in 2026-07-28 `_meta`; undefined asks for none. */
  logLevel: LoggingLevel | undefined;

  constructor(settings: CallerSettings) {
    this.#settings = settings;
  }

  /** The revision requests are sent in. */
  get revision(): ProtocolRevision {
    return this.#revision;
  }

  /** The era requests are sent in. */
  get era(): ProtocolEra {
    return this.#era;
  }

  /** Sends later requests in `revision` (negotiation sets it). */
  speak(revision: ProtocolRevision): void {
    this.#revision = revision;
    this.#era = eraOf(revision);
  }

  /** The client's capabilities as `revision` defines them. */
  capabilities(revision: ProtocolRevision): Spec.ClientCapabilities {
    return this.#settings.capabilities(revision);
  }

  /** The client's identity as `revision` defines it. */
  info(revision: ProtocolRevision): Spec.Implementation {
    return this.#settings.info(revision);
  }

  /** The `tag` of request `id` while it is in flight; undefined for none (or no id). */
  tagOf(id: RequestId | undefined): unknown {
    if (id === undefined) return undefined;
    return this.#tags.values().find((entry) => entry.id === id)?.tag;
  }

  /** A fresh request id. */
  nextId(): number {
    return ++this.#nextId;
  }

  /**
   * Sends `method` and resolves with its final result, `resultType` removed. Rejects with the
   * server's JsonRpcError, a LocalError (timeout, closed, too many rounds, a question without
   * handler), or the signal's reason.
   */
  request(method: string, params: Params = {}, options: RequestOptions = {}): Promise<Params> {
    // Not an async function: its answer is #rounds' promise itself, not one more promise
    // resolved with it (two turns and a promise of every request; issue 40 point 8).
    if (options.maxTotalTimeoutMs !== undefined) return this.#withinTotal(method, params, options);
    const first = options.id ?? this.nextId();
    const onProgress = options.onProgress;
    if (onProgress === undefined) return this.#rounds(method, options, { id: first, params });
    return this.#withProgress(method, options, { first, params, onProgress });
  }

  /** `request` of a call that listens to its progress, sent first as request `first`. */
  async #withProgress(
    method: string,
    options: RequestOptions,
    start: {
      readonly first: RequestId;
      readonly params: Params;
      readonly onProgress: NonNullable<CallOptions['onProgress']>;
    },
  ): Promise<Params> {
    const { first, params, onProgress } = start;
    let current: RequestId = first;
    this.#progress.set(first, (progress) => {
      if (options.resetTimeoutOnProgress !== false) this.#settings.connection.touch(current);
      this.#deliverProgress(onProgress, progress);
    });
    try {
      return await this.#rounds(method, options, {
        id: first,
        params,
        token: first,
        onRound: (id) => (current = id),
      });
    } finally {
      this.#progress.delete(first);
    }
  }

  /** `request` under a limit on the whole call: an abort, so that the server is told. */
  async #withinTotal(method: string, params: Params, options: RequestOptions): Promise<Params> {
    const ms = options.maxTotalTimeoutMs as number;
    const sources: SignalSource[] = [];
    if (options.signal !== undefined) sources.push(options.signal);
    if (options.cancellation !== undefined) sources.push(options.cancellation);
    const linked = linkSignals(sources);
    const timer = setTimeout(() => {
      const message = `request "${method}" took longer than its total limit of ${String(ms)} ms`;
      linked.abort(new LocalError(LocalErrorCode.RequestTimeout, message));
    }, ms);
    const inner: RequestOptions = { ...options, signal: linked.signal };
    delete inner.maxTotalTimeoutMs;
    delete inner.cancellation; // the linked signal follows it
    try {
      return await this.request(method, params, inner);
    } finally {
      clearTimeout(timer);
      linked.release();
    }
  }

  /** Sends a notification (no `_meta`: notifications carry none of the request keys). */
  notify(method: string, params?: Params): Promise<void> {
    const { connection, middleware } = this.#settings;
    const chain = middleware.chain;
    if (chain === undefined) return connection.notify(method, params);
    const message = { direction: 'outgoing' as const, id: undefined, method, params };
    const call = new ClientCall(message, this.#revision, this.#settings.transport);
    const sent = chain(call, () =>
      connection.notify(
        method,
        params === undefined && isEmpty(call.params) ? params : call.params,
      ),
    );
    return sent.then(() => undefined);
  }

  /** Routes `notifications/progress` to the call that asked for it. */
  progress(params: Params): void {
    const token = params['progressToken'];
    if (typeof token !== 'string' && typeof token !== 'number') return;
    if (typeof params['progress'] !== 'number') return;
    this.#progress.get(token)?.(params);
  }

  #deliverProgress(onProgress: NonNullable<CallOptions['onProgress']>, params: Params): void {
    const total = typeof params['total'] === 'number' ? params['total'] : undefined;
    const message = typeof params['message'] === 'string' ? params['message'] : undefined;
    try {
      onProgress(params['progress'] as number, total, message);
    } catch (error) {
      this.#settings.report(error);
    }
  }

  /**
   * The rounds of a request: `call` as the caller gave it, `start` its params, first id,
   * progress token and round listener apart (not spread into a copy of `call`: an object spread
   * with a field added makes V8 a new hidden class on every call, see bench/RESULTS.md, issue 40
   * point 8).
   */
  async #rounds(method: string, call: RequestOptions, start: RoundStart): Promise<Params> {
    const { params } = start;
    let extra: Params = {};
    for (let round = 0; ; round++) {
      const id = round === 0 ? start.id : this.nextId();
      start.onRound?.(id);
      const own = round === 0 ? params : { ...params, ...extra };
      const wire = this.#withMeta(own, call, start.token);
      // While the round is in flight, what the server asks or logs in its course has its tag.
      const tagged = call.tag === undefined ? undefined : this.#tags.add({ id, tag: call.tag });
      let result: unknown;
      try {
        result = await this.#send(method, wire, this.#roundOptions(call, id));
      } finally {
        if (tagged !== undefined) this.#tags.delete(tagged);
      }
      // A result of a resultType an extension defines (the tasks extension's `task`): its own.
      if (this.#settings.results.size > 0 && this.era === 'modern') {
        const handle = handlerOf(this.#settings.results, result);
        if (handle !== undefined) {
          return call.raw === true
            ? (result as Params)
            : handle(result as Params, {
                method,
                options: asBefore(call, start),
                io: this.io,
              });
        }
      }
      if (this.era === 'legacy' || !isInputRequiredResult(result)) return finish(result);
      if (round >= this.#settings.maxInputRounds) {
        throw new LocalError(
          LocalErrorCode.ProtocolViolation,
          `${method} needed more than ${this.#settings.maxInputRounds} rounds of input`,
        );
      }
      extra = await this.#answer(result as Params, call);
    }
  }

  /** What extensions' result handlers and hooks use of this caller. */
  readonly io: ClientExtensionIo = {
    request: (method, params, options) => this.request(method, params, options),
    fulfil: (inputRequests, signal) =>
      this.#settings.input.fulfil(inputRequests, {
        era: this.era,
        revision: this.#revision,
        signal,
      }),
    report: (error) => {
      this.#settings.report(error);
    },
  };

  /** The params of the retry: this round's answers and the state, echoed as received. */
  async #answer(result: Params, { signal, cancellation, tag }: RequestOptions): Promise<Params> {
    // The handlers of the server's questions take an AbortSignal: one is made for a Cancellation.
    const linked =
      signal === undefined && cancellation !== undefined ? linkSignals([cancellation]) : undefined;
    const given = signal ?? linked?.signal;
    const ctx = {
      era: this.era,
      revision: this.#revision,
      signal: given ?? new AbortController().signal,
      ...(tag === undefined ? {} : { tag }),
    };
    try {
      return await this.#answers(result, ctx, given);
    } finally {
      linked?.release();
    }
  }

  async #answers(
    result: Params,
    ctx: Parameters<InputHandlers['fulfil']>[1],
    signal: AbortSignal | undefined,
  ): Promise<Params> {
    const extra: Params = {};
    if (result['inputRequests'] !== undefined) {
      const responses = await this.#settings.input.fulfil(result['inputRequests'], ctx);
      if (Object.keys(responses).length > 0) extra['inputResponses'] = responses;
    }
    const state = result['requestState'];
    if (typeof state === 'string') extra['requestState'] = state;
    signal?.throwIfAborted();
    return extra;
  }

  /**
   * `params` with the `_meta` of `call`: its progress token, and in 2026-07-28 the request keys;
   * in 2026-07-28 params that write their own text ({@link metaParams}) unless a middleware,
   * which may change them before they are sent, is in the way.
   */
  #withMeta(params: Params, call: RequestOptions, token: RequestId | undefined): Params {
    if (this.era === 'modern' && this.#settings.middleware.chain === undefined) {
      if (takesMeta(params)) {
        const fields = this.#metaFields(call, token);
        return metaParams(params, metaObject(fields), this.#metaTexts.text(fields));
      }
    }
    const meta: Params = {};
    const given = params['_meta'];
    if (isObject(given)) copyFields(meta, given); // not a spread: see withMetaField
    if (token !== undefined) meta[MetaKey.ProgressToken] = token;
    if (this.era === 'modern') {
      const revision = this.#revision;
      meta[MetaKey.ProtocolVersion] = revision;
      meta[MetaKey.ClientCapabilities] =
        call.clientCapabilities ?? this.#settings.capabilities(revision);
      meta[MetaKey.ClientInfo] = this.#settings.info(revision);
      const level = call.logLevel === undefined ? this.logLevel : call.logLevel;
      if (level !== undefined && level !== null) meta[MetaKey.LogLevel] = level;
    }
    return Object.keys(meta).length === 0 ? params : withMetaField(params, meta);
  }

  /** The 2026-07-28 `_meta` fields of a request of `call` with progress token `token`. */
  #metaFields(call: RequestOptions, token: RequestId | undefined): MetaFields {
    const revision = this.#revision;
    const level = call.logLevel === undefined ? this.logLevel : call.logLevel;
    const given = call.clientCapabilities;
    return {
      token,
      revision,
      capabilities: given ?? this.#settings.capabilities(revision),
      info: this.#settings.info(revision),
      level: level ?? undefined,
      ownCapabilities: given === undefined,
    };
  }

  /** The Connection's options of one round of `call`, sent as request `id`. */
  #roundOptions(call: RequestOptions, id: RequestId): ConnectionCallOptions {
    const options: ConnectionCallOptions = { id };
    if (call.signal !== undefined) options.signal = call.signal;
    if (call.cancellation !== undefined) options.cancellation = call.cancellation;
    if (call.headers !== undefined) options.headers = call.headers;
    if (call.noTimeout !== true) options.timeoutMs = call.timeoutMs ?? this.#settings.timeoutMs;
    return options;
  }

  /** Sends one round (`options.id` set); see {@link abandoned} for a round given up on. */
  #send(method: string, params: Params, options: ConnectionCallOptions): Promise<unknown> {
    const { connection, middleware } = this.#settings;
    const chain = middleware.chain;
    if (chain === undefined) return connection.request(method, params, options);
    const message = { direction: 'outgoing' as const, id: options.id, method, params };
    const call = new ClientCall(message, this.#revision, this.#settings.transport);
    return chain(call, () => connection.request(method, call.params, options));
  }

  /**
   * Tells the server of a request the client gave up on while it was in flight (its signal
   * aborted, or it timed out): `notifications/cancelled`, which 2026-07-28 over Streamable HTTP
   * turns into closing the request's stream. Never for `initialize`, which the spec forbids
   * cancelling (connect closes the connection instead).
   */
  abandoned({ id, method, reason }: AbandonedCall): void {
    if (method === 'initialize') return;
    const params = { requestId: id, reason: reasonText(reason) };
    this.notify('notifications/cancelled', params).catch(this.#settings.report);
  }
}

/** The options an extension's result handler is given: the call's, with its first id (as before). */
function asBefore(call: RequestOptions, start: RoundStart): RequestOptions {
  const { id, token, onRound } = start;
  return {
    ...call,
    id,
    ...(token === undefined ? {} : { token }),
    ...(onRound === undefined ? {} : { onRound }),
  };
}

/** The first round of a request: its params and id, and its progress token and round listener if any. */
interface RoundStart {
  readonly params: Params;
  readonly id: RequestId;
  readonly token?: RequestId;
  readonly onRound?: (id: RequestId) => void;
}

/**
 * `{ ...params, _meta: meta }`, copied field by field into a fresh literal: V8 gives an object
 * spread a map outside the transition tree, so a field added to it makes a new hidden class on
 * every call, and every function that later reads the object misses its inline caches (issue
 * 40 point 8). The result is the same: own enumerable fields in order, `_meta` in its place.
 */
function withMetaField(params: Params, meta: Params): Params {
  const out: Params = {};
  copyFields(out, params);
  out['_meta'] = meta; // in its place when params had one, else last
  return out;
}

/** The extension's handler of `result`'s `resultType`, if one handles it. */
function handlerOf(
  results: ReadonlyMap<string, ResultHandler>,
  result: unknown,
): ResultHandler | undefined {
  const type = isObject(result) ? result['resultType'] : undefined;
  return typeof type === 'string' ? results.get(type) : undefined;
}

/** The final result of a request: checked, `resultType` removed. */
function finish(result: unknown): Params {
  if (!isObject(result)) {
    throw new LocalError(
      LocalErrorCode.ProtocolViolation,
      'the server sent a result that is not an object',
    );
  }
  const type = result['resultType'];
  if (type === undefined) return result;
  if (type !== 'complete') {
    throw new LocalError(
      LocalErrorCode.ProtocolViolation,
      `the server sent a result of unknown resultType ${JSON.stringify(type)}`,
    );
  }
  // A rest copy, not `delete` (which would leave the copy a slow dictionary object).
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { resultType: _type, ...copy } = result;
  return copy;
}

function isEmpty(params: Params): boolean {
  return Object.keys(params).length === 0;
}

function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return typeof reason === 'string' ? reason : 'cancelled by the client';
}
