// Client extensions: what an extension (skills, MCP Apps, one of a user's own) plugs into a
// client through `Client.extend()`: the methods it adds, declared into the method table, the
// settings it declares under `capabilities.extensions`, and its API over the client's
// connection. The client names no extension (docs/extensions.md).
import type { MethodDeclaration } from '../protocol/methods.js';
import { declareMethods } from '../protocol/methods.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { ProtocolEra, ProtocolRevision } from '../protocol/version.js';
import type { CallOptions } from './types.js';

type Params = Record<string, unknown>;

/** What an extension's result handler and tool-call hook may use of the connection. */
export interface ClientExtensionIo {
  /**
   * Sends a request through the client's pipeline (`_meta`, rounds, timeouts, middleware) and
   * resolves with its final result (a result an extension handles, driven by it).
   */
  request(
    method: string,
    params: Params,
    options?: CallOptions & { noTimeout?: boolean },
  ): Promise<Params>;
  /** Answers input requests (elicitation, sampling, roots) with the client's handlers. */
  fulfil(inputRequests: unknown, signal: AbortSignal): Promise<Params>;
  /** Reports an error that does not reach a caller (the client's `onError`). */
  report(error: unknown): void;
}

/**
 * Handles a 2026-07-28 result whose `resultType` the extension defines (the tasks extension's
 * `task`): resolves with the result the call ends with, or rejects with its error.
 */
export type ResultHandler = (
  result: Params,
  call: { readonly method: string; readonly options: CallOptions; readonly io: ClientExtensionIo },
) => Promise<Params>;

/** One tools/call as an extension's tool-call hook sees it. */
export interface ClientToolCall {
  readonly name: string;
  readonly arguments: Readonly<Params>;
  readonly options: CallOptions;
  readonly era: ProtocolEra;
  readonly revision: ProtocolRevision;
  readonly serverCapabilities: Spec.ServerCapabilities;
  /** The tool as the server listed it (the tools are listed first when it was not seen). */
  tool(): Promise<Readonly<Params> | undefined>;
  readonly io: ClientExtensionIo;
}

/**
 * Runs around the sending of one tools/call: `next()` sends it as the client would; the hook may
 * send it otherwise (with params of its own) and resolve with the call's result.
 */
export type ClientToolCallHook = (
  call: ClientToolCall,
  next: () => Promise<Params>,
) => Promise<Params>;

/** What an extension's API may use of the client it is added to. */
export interface ClientExtensionHost {
  /**
   * Sends a request to the connected server and resolves with its result (a 2026-07-28 one
   * without `resultType`, as every client call sees it); rejects as the client's calls do
   * (LocalError('NOT_CONNECTED') when not connected, a JsonRpcError for the server's error).
   */
  request(
    method: string,
    params: Record<string, unknown>,
    options?: CallOptions & {
      /** Resolve with a result an extension handles (its `resultType`) as the server sent it. */
      raw?: boolean;
      /** Send without a timeout (a request that waits, such as 2025-11-25 tasks/result). */
      noTimeout?: boolean;
    },
  ): Promise<Record<string, unknown>>;
  /** The connection's era, revision and what the server declared (throws when not connected). */
  readonly era: ProtocolEra;
  readonly revision: ProtocolRevision;
  readonly serverCapabilities: Spec.ServerCapabilities;
  /**
   * An object that stays the same for every call over one connection and differs for the next:
   * the key for what an extension remembers of one server (a WeakMap's). Throws when not connected.
   */
  readonly connection: object;
  /** Reports an error that does not reach a caller (the client's `onError`). */
  report(error: unknown): void;
  /** Answers input requests with the client's handlers (throws when not connected). */
  fulfil(inputRequests: unknown, signal: AbortSignal): Promise<Params>;
}

/** An extension of the protocol for a client, added with `Client.extend()`. */
export interface ClientExtension<TApi> {
  /** Its identifier, the key of `capabilities.extensions` (`io.modelcontextprotocol/skills`). */
  readonly id: string;
  /** The methods it adds, by name, declared into the method table when it is added. */
  readonly methods?: Readonly<Record<string, MethodDeclaration>>;
  /**
   * Its settings under `capabilities.extensions[id]`, which the client declares to servers of
   * every revision (SEP-1724); undefined: it declares nothing.
   */
  readonly settings?: Record<string, unknown>;
  /** The revisions whose servers it is declared to; default: every revision. */
  readonly revisions?: readonly ProtocolRevision[];
  /** Handlers of the 2026-07-28 `resultType`s it defines (see {@link ResultHandler}). */
  readonly results?: Readonly<Record<string, ResultHandler>>;
  /** A hook around each tools/call's sending (see {@link ClientToolCallHook}). */
  readonly toolCall?: ClientToolCallHook;
  /** Makes the extension's API over the client, once, when it is added. */
  bind(host: ClientExtensionHost): TApi;
}

/**
 * Checks `extension` against those added before and declares its methods; throws TypeError for
 * a bad extension or one added already.
 */
export function checkClientExtension(
  extension: ClientExtension<unknown>,
  added: ReadonlySet<string>,
): void {
  const given: unknown = extension;
  if (typeof given !== 'object' || given === null || typeof extension.bind !== 'function') {
    throw new TypeError('client.extend takes an extension object: { id, bind(host) }');
  }
  if (typeof extension.id !== 'string' || extension.id === '') {
    throw new TypeError('an extension needs an id (the key of capabilities.extensions)');
  }
  if (added.has(extension.id)) throw new TypeError(`extension ${extension.id} is added already`);
  declareMethods(extension.methods ?? {});
}

/**
 * The extensions one client was given: their settings by id (with the revisions each is declared
 * in), their result handlers by `resultType`, their tool-call hooks composed in order.
 */
export class ClientExtensions {
  readonly settings: Map<string, Record<string, unknown> | undefined> = new Map();
  readonly #revisions = new Map<string, readonly ProtocolRevision[]>();
  /** By `resultType`; read on each 2026-07-28 result while not empty. */
  readonly results: Map<string, ResultHandler> = new Map();
  /** The composed hooks; undefined while none is added. */
  toolCall: ClientToolCallHook | undefined;

  /** Adds `extension` (checked already). Throws TypeError for a resultType handled already. */
  add(extension: ClientExtension<unknown>): void {
    for (const type of Object.keys(extension.results ?? {})) {
      if (type === 'complete' || type === 'input_required' || this.results.has(type)) {
        throw new TypeError(`${extension.id}: resultType "${type}" is handled already`);
      }
    }
    this.settings.set(extension.id, extension.settings);
    if (extension.revisions !== undefined) this.#revisions.set(extension.id, extension.revisions);
    for (const [type, handle] of Object.entries(extension.results ?? {})) {
      this.results.set(type, handle);
    }
    const hook = extension.toolCall;
    if (hook === undefined) return;
    const outer = this.toolCall;
    this.toolCall =
      outer === undefined ? hook : (call, next) => outer(call, () => hook(call, next));
  }

  /** True when extension `id` is declared to servers of `revision`. */
  declaredIn(id: string, revision: ProtocolRevision): boolean {
    return this.#revisions.get(id)?.includes(revision) ?? true;
  }
}
