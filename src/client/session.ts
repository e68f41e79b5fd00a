// ClientSession: everything one connection of a Client holds (the jsonrpc Connection, the
// request pipeline, listings, listen streams, output schemas) and how the server's
// notifications reach them and the client's events.
import { isObject } from '../internal/json.js';
import { Connection } from '../jsonrpc/connection.js';
import { LocalError, LocalErrorCode } from '../jsonrpc/errors.js';
import type { Notification, RequestId } from '../jsonrpc/message.js';
import type { Transport } from '../jsonrpc/transport.js';
import { DEFINITION_FIELDS } from '../protocol/fields.js';
import { builtinValidator } from '../protocol/json-schema/index.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { ProtocolRevision } from '../protocol/version.js';
import { capabilitiesFor, deriveCapabilities } from './capabilities.js';
import type { ClientExtensions } from './extension.js';
import { Caller } from './caller.js';
import { InputHandlers } from './input.js';
import { Listens, subscriptionIdOf } from './listens.js';
import { Lists } from './lists.js';
import type { Negotiated } from './negotiate.js';
import { OutputSchemas } from './output-schema.js';
import { KnownTools } from './known-tools.js';
import type { ClientMiddlewareStack } from './middleware.js';
import { ClientCall, ClientNotificationCall } from './middleware.js';
import type { RequestHandler } from '../jsonrpc/serve.js';
import type { ClientOptions, ListKind, RejectedTool, Subscription } from './types.js';

/** The defaults of ClientOptions. */
export const DEFAULTS = { timeoutMs: 60_000, maxInputRounds: 10, maxPages: 1000 } as const;

const LIST_CHANGED: Readonly<Record<string, ListKind>> = {
  'notifications/tools/list_changed': 'tools',
  'notifications/resources/list_changed': 'resources',
  'notifications/prompts/list_changed': 'prompts',
};

/** What a ClientSession is made from. */
export interface SessionSettings {
  readonly transport: Transport;
  readonly info: Spec.Implementation;
  readonly options: ClientOptions;
  /** The client's middleware, read per message. */
  readonly middleware: ClientMiddlewareStack;
  /** The client's extensions: the revisions each is declared in, result handlers, hooks. */
  readonly extensions: ClientExtensions;
}

/** ClientSession is one connection of a Client, from connect to close. */
export class ClientSession {
  readonly connection: Connection;
  readonly caller: Caller;
  readonly lists: Lists;
  readonly listens: Listens;
  readonly outputs: OutputSchemas;
  /** The listed tools' output schemas and (2026-07-28) `x-mcp-header` annotations. */
  readonly tools: KnownTools = new KnownTools();
  /** The client's extensions (their tool-call hooks). */
  readonly extensions: ClientExtensions;
  /** Set once negotiation has succeeded. */
  negotiated: Negotiated | undefined;
  /** 2026-07-28: the stream opened for list changes, if any. */
  changes: Subscription | undefined;
  /** Subscribed resource URIs, and (2026-07-28) the stream that carries their updates. */
  readonly uris: Set<string> = new Set<string>();
  resourceStream: Subscription | undefined;
  /** Serializes resource (un)subscriptions. */
  queue: Promise<unknown> = Promise.resolve();
  readonly #options: ClientOptions;

  constructor(settings: SessionSettings) {
    const { options } = settings;
    this.#options = options;
    this.extensions = settings.extensions;
    const declared = deriveCapabilities(options);
    const input = new InputHandlers(options);
    this.connection = new Connection(settings.transport, {
      onRequest: throughMiddleware(
        input.requestHandler(
          () => this.caller.revision,
          (id) => this.caller.tagOf(id),
        ),
        settings,
        () => this.caller.revision,
      ),
      onNotification: (notification, info) => {
        this.#notification(notification, info?.relatedRequestId, settings);
      },
      onError: (error) => {
        this.report(error);
      },
      onAbandon: (abandoned) => {
        this.caller.abandoned(abandoned);
      },
      onClose: (error) => {
        this.#emit(options.onClose, error);
      },
    });
    const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
    this.caller = new Caller({
      connection: this.connection,
      info: memo((revision) => trimInfo(settings.info, revision)),
      capabilities: memo((revision) =>
        capabilitiesFor(declared, revision, (id) => settings.extensions.declaredIn(id, revision)),
      ),
      results: settings.extensions.results,
      timeoutMs,
      maxInputRounds: options.maxInputRounds ?? DEFAULTS.maxInputRounds,
      input,
      report: (error) => {
        this.report(error);
      },
      middleware: settings.middleware,
      transport: settings.transport,
    });
    this.caller.logLevel = options.logLevel;
    this.outputs = new OutputSchemas(options.validator ?? builtinValidator);
    this.lists = new Lists({
      page: (method, params, callOptions) => this.caller.request(method, params, callOptions),
      maxPages: options.maxPages ?? DEFAULTS.maxPages,
      seen: (name, items) => {
        if (name !== 'tools') return items;
        // Spec 2026-07-28 server/tools#x-mcp-header: a tool with invalid annotations is left out.
        return this.tools.keep(items, {
          annotated: this.caller.era === 'modern',
          reject: (rejected) => {
            this.#rejected(rejected);
          },
        });
      },
    });
    this.listens = new Listens(this.caller, timeoutMs);
  }

  /** Reports a failure no caller waits for. */
  report(error: unknown): void {
    const onError = this.#options.onError;
    if (onError === undefined) return;
    try {
      onError(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // onError must not throw; if it does, there is nobody left to tell.
    }
  }

  /** A listed tool was left out: the user's `onToolRejected`, else `onError`. */
  #rejected(rejected: RejectedTool): void {
    const { onToolRejected } = this.#options;
    if (onToolRejected !== undefined) {
      this.#emit(onToolRejected, rejected);
      return;
    }
    const message = `tool "${rejected.name}" left out of tools/list: ${rejected.reason}`;
    this.report(new LocalError(LocalErrorCode.ProtocolViolation, message));
  }

  /** Runs a user callback, reporting what it throws. */
  #emit<TArg>(callback: ((arg: TArg) => void) | undefined, arg: TArg): void {
    if (callback === undefined) return;
    try {
      callback(arg);
    } catch (error) {
      this.report(error);
    }
  }

  /** A notification from the server, through the notification middleware when there is some. */
  #notification(
    notification: Notification,
    related: RequestId | undefined,
    settings: SessionSettings,
  ): void {
    const chain = settings.middleware.notification;
    if (chain === undefined) {
      this.#notified(notification, related);
      return;
    }
    const call = new ClientNotificationCall(notification, this.caller.revision, settings.transport);
    try {
      const done = chain(call, () => {
        this.#notified({ ...notification, params: call.params }, related);
      });
      if (done instanceof Promise) {
        done.catch((error: unknown) => {
          this.report(error);
        });
      }
    } catch (error) {
      this.report(error);
    }
  }

  /** Handles a notification; `related` is the request of ours whose stream carried it. */
  #notified(notification: Notification, related: RequestId | undefined): void {
    const { method } = notification;
    const params = isObject(notification.params) ? notification.params : {};
    this.#emit(this.#options.onNotification, notification);
    switch (method) {
      case 'notifications/progress':
        this.caller.progress(params);
        return;
      case 'notifications/subscriptions/acknowledged':
        this.listens.acknowledged(params);
        return;
      case 'notifications/cancelled':
        this.#cancelled(params);
        return;
      default:
        break;
    }
    const tag = subscriptionIdOf(params);
    // A notification of a stream the client has closed is late: no events for it.
    if (tag !== undefined && !this.listens.has(tag)) return;
    this.#event(method, params, related);
  }

  #event(method: string, params: Record<string, unknown>, related: RequestId | undefined): void {
    const options = this.#options;
    const kind = LIST_CHANGED[method];
    if (kind !== undefined) {
      this.lists.changed(kind);
      if (kind === 'tools') this.tools.forget();
      this.#emit(options.onListChanged, kind);
    } else if (method === 'notifications/message') {
      const { onLog } = options;
      if (onLog !== undefined) {
        const tag = this.caller.tagOf(related);
        this.#emit(
          (log: Spec.LoggingMessageNotificationParams) => {
            onLog(log, tag === undefined ? {} : { tag });
          },
          params as unknown as Spec.LoggingMessageNotificationParams,
        );
      }
    } else if (method === 'notifications/resources/updated') {
      const uri = params['uri'];
      if (typeof uri === 'string') this.#emit(options.onResourceUpdated, uri);
    }
  }

  /** The server cancels one of its requests (legacy), or ends a listen stream (stdio). */
  #cancelled(params: Record<string, unknown>): void {
    const id = params['requestId'];
    if (typeof id !== 'string' && typeof id !== 'number') return;
    if (this.listens.cancelled(id)) return;
    this.connection.cancelIncoming(id, params['reason'] ?? 'cancelled by the server');
  }
}

/** `answer`, run through the client's middleware when it has some (read per request). */
function throughMiddleware(
  answer: RequestHandler,
  settings: SessionSettings,
  revision: () => ProtocolRevision,
): RequestHandler {
  const { middleware, transport } = settings;
  return (request, rctx) => {
    const chain = middleware.chain;
    if (chain === undefined) return answer(request, rctx);
    const params = isObject(request.params) ? request.params : undefined;
    const message = {
      direction: 'incoming' as const,
      id: request.id,
      method: request.method,
      params,
    };
    const call = new ClientCall(message, revision(), transport);
    return chain(call, async () => {
      const changed = call.params === params ? request : { ...request, params: call.params };
      return await answer(changed, rctx);
    });
  };
}

/** `info`, trimmed to the Implementation fields `revision` defines. */
function trimInfo(info: Spec.Implementation, revision: ProtocolRevision): Spec.Implementation {
  const allowed = DEFINITION_FIELDS[revision].Implementation ?? ['name', 'version'];
  const entries = Object.entries(info).filter(([key]) => allowed.includes(key));
  return Object.fromEntries(entries) as unknown as Spec.Implementation;
}

function memo<TValue>(
  compute: (revision: ProtocolRevision) => TValue,
): (revision: ProtocolRevision) => TValue {
  const cache = new Map<ProtocolRevision, TValue>();
  // The last revision asked for and its value: every request asks for the same one.
  let last: { readonly revision: ProtocolRevision; readonly value: TValue } | undefined;
  return (revision) => {
    if (last?.revision === revision) return last.value;
    let value = cache.get(revision);
    if (value === undefined) {
      value = compute(revision);
      cache.set(revision, value);
    }
    last = { revision, value };
    return value;
  };
}
