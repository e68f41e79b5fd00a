// Server extensions: what an extension (skills, MCP Apps, one of a user's own) plugs into a server
// through `McpServer.extend()`: methods declared into the method table and served, its capability
// per revision, its middleware, and a set-up step that may register resources or tools. The core
// serves an extension's methods from this table and names no extension (docs/extensions.md).
import type { MaybePromise } from '../internal/maybe.js';
import type { RequestId } from '../jsonrpc/message.js';
import type { MessageInfo } from '../jsonrpc/transport.js';
import type { AuthInfo } from '../protocol/auth.js';
import { isAuthInfo } from '../protocol/auth.js';
import type { MethodDeclaration } from '../protocol/methods.js';
import { declareMethods, methodExists } from '../protocol/methods.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { ProtocolEra, ProtocolRevision } from '../protocol/version.js';
import type { RequestScope } from './context.js';
import type { Middleware, RequestMiddleware, ToolCallMiddleware } from './middleware.js';
import { paginate } from './registry.js';
import type {
  ClientDescription,
  RegisteredHandle,
  ResourceDefinition,
  ResourceHandler,
  ToolDefinition,
} from './types.js';

/** What an extension's method sees of one request (the era and revision are decided). */
export interface ExtensionCall {
  /** The JSON-RPC id of the request. */
  readonly id: RequestId;
  readonly method: string;
  /** The request's params (`{}` when it had none). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly era: ProtocolEra;
  readonly revision: ProtocolRevision;
  /** What the client said about itself (its capabilities, in either era). */
  readonly client: ClientDescription;
  /** The principal the HTTP transport's `auth` gate verified; undefined without the gate. */
  readonly auth: AuthInfo | undefined;
  /** What the transport knows about the request: HTTP headers, the auth it attached. */
  readonly transport: MessageInfo | undefined;
  /** Aborted when the client cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  /**
   * Sends a request to the client over the legacy session the request came on, and resolves with
   * its result; rejects in 2026-07-28 (which has no server-to-client requests outside a tool's
   * input round) and when the session has none to carry it.
   */
  request(method: string, params: Record<string, unknown>): Promise<unknown>;
  /**
   * One page of `items` as the server's lists page them: from the request's `params.cursor`
   * (an invalid one throws -32602), at most the server's `pageSize`, with the cursor of the next.
   */
  page<T extends object>(items: readonly T[]): { items: readonly T[]; nextCursor?: string };
}

/** One method an extension adds: its place in the method table and how the server serves it. */
export interface ExtensionMethod extends MethodDeclaration {
  /**
   * Serves a client's request of this method (leave it out for a method the server only sends).
   * Resolves with the result (2026-07-28 decoration is the core's); throws or rejects with the
   * error to answer (a JsonRpcError as is, anything else as -32603, reported through onError).
   */
  readonly serve?: (call: ExtensionCall) => MaybePromise<unknown>;
}

/** What an extension adds to the capabilities a server advertises in one revision. */
export interface ExtensionCapability {
  /** Its settings under `capabilities.extensions[id]` (`{}` when it has none). */
  readonly settings: Record<string, unknown>;
  /** Fields it adds to the capabilities themselves (only those the revision's schema has stay). */
  readonly fields?: Record<string, unknown>;
}

/** What an extension may use of the server it is added to, in {@link ServerExtension.setup}. */
export interface ExtensionHost {
  /** Registers a static resource, as `McpServer.resource` does (throws TypeError on a duplicate). */
  resource(
    definition: ResourceDefinition,
    handler: ResourceHandler,
  ): RegisteredHandle<ResourceDefinition>;
  /**
   * Says that what {@link ServerExtension.capabilities} answers changed: the capabilities are
   * derived again for the sessions and requests that begin after.
   */
  capabilitiesChanged(): void;
  /** Reports an error that does not reach the wire (the server's `onError`). */
  report(error: unknown, where: string): void;
  /**
   * The server's tools as its newest revision lists them, enabled ones only: the same array
   * until a tool is registered, changed or removed (compare it to know).
   */
  tools(): readonly Spec.Tool[];
}

/** One filter an extension adds to subscriptions/listen (see {@link ServerExtension.listen}). */
export interface ExtensionListen {
  /**
   * What the stream agrees to tell of, from what the client asked (`requested`): acknowledged
   * under the same key. Throws (rejects) with the error that refuses the stream.
   */
  agree(call: ExtensionCall, requested: unknown): MaybePromise<unknown>;
  /**
   * Starts telling of what was agreed, with `send` (the stream adds its subscription id); gives
   * the function that stops it, called when the stream ends.
   */
  watch(
    call: ExtensionCall,
    agreed: unknown,
    send: (method: string, params: Record<string, unknown>) => void,
  ): () => void;
}

/**
 * An extension of the protocol, added with `McpServer.extend()`. Every member but `id` is
 * optional: an extension may only declare a capability, only serve methods, or only wrap calls.
 */
export interface ServerExtension {
  /** Its identifier, the key of `capabilities.extensions` (`io.modelcontextprotocol/skills`). */
  readonly id: string;
  /** The methods it adds, by name, declared into the method table when it is added. */
  readonly methods?: Readonly<Record<string, ExtensionMethod>>;
  /**
   * What it adds to the capabilities of `revision`; undefined: nothing (the extension is not
   * declared in that revision). Asked again after {@link ExtensionHost.capabilitiesChanged}.
   */
  capabilities?(revision: ProtocolRevision): ExtensionCapability | undefined;
  /** A request middleware, run after the middleware registered before the extension. */
  readonly request?: RequestMiddleware;
  /** A tool-call middleware, likewise. */
  readonly toolCall?: ToolCallMiddleware;
  /**
   * Checks a tool definition as it is registered or updated, and gives it back, completed where
   * the extension lists something of its own fields (a new object; the given one is not
   * changed). Throws TypeError for a mistake in its fields. Tools registered before the
   * extension was added pass through it then.
   */
  tool?(definition: ToolDefinition): ToolDefinition;
  /**
   * Filters it adds to `subscriptions/listen` (2026-07-28), by their key in
   * `params.notifications`: each is agreed when a stream opens with the key, then watched.
   */
  readonly listen?: Readonly<Record<string, ExtensionListen>>;
  /** Runs once, when the extension is added: may register resources, keep the host. */
  setup?(host: ExtensionHost): void;
}

/**
 * What the session hands an extension's method: the part of the core's Call (call.ts) that an
 * ExtensionCall is read from. Declared here, not imported, so that the table the core holds
 * does not import the Call that names the core.
 */
export interface ServedSource {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly scope: RequestScope;
  readonly core: { readonly pageSize: number };
}

/** A method an extension serves, as the session calls it. */
export type Served = (call: ServedSource) => MaybePromise<unknown>;

/** The extensions of one server: their methods by name, their capabilities, in order added. */
export class ExtensionTable {
  readonly #list: ServerExtension[] = [];
  readonly #served = new Map<string, { revisions: ReadonlySet<string>; serve: Served }>();
  readonly #cacheable = new Set<string>();
  readonly #hooked: ServerExtension[] = [];
  #listens: (readonly [string, ExtensionListen])[] = [];

  /**
   * Adds `extension`: checks it, declares its methods, and gives back its middleware (for the
   * server's stack) when it has some. Throws TypeError for a bad extension, one added already, or
   * a method another extension or the core serves in one of the same revisions.
   */
  add(extension: ServerExtension, coreServes: (method: string) => boolean): Middleware | undefined {
    checkExtension(extension, this.#list);
    const methods = Object.entries(extension.methods ?? {});
    for (const [name, method] of methods) {
      const taken = method.revisions.find(
        (r) => (methodExists(name, r) && coreServes(name)) || this.#serves(name, r),
      );
      if (method.serve !== undefined && taken !== undefined) {
        throw new TypeError(`method ${name} is served already in ${taken}`);
      }
    }
    declareMethods(Object.fromEntries(methods));
    for (const [name, method] of methods) this.#serve(name, method);
    this.#list.push(extension);
    if (extension.tool !== undefined) this.#hooked.push(extension);
    this.#listens = [...this.#listens, ...Object.entries(extension.listen ?? {})];
    const { request, toolCall } = extension;
    if (request === undefined && toolCall === undefined) return undefined;
    return { ...(request && { request }), ...(toolCall && { toolCall }) };
  }

  /** `definition` as the extensions' tool hooks give it back (in the order they were added). */
  tool(definition: ToolDefinition): ToolDefinition {
    let checked = definition;
    for (const extension of this.#hooked) checked = extension.tool?.(checked) ?? checked;
    return checked;
  }

  /** The extensions with a subscriptions/listen filter, and their filters by key. */
  listens(): readonly (readonly [string, ExtensionListen])[] {
    return this.#listens;
  }

  #serve(name: string, method: ExtensionMethod): void {
    const serve = method.serve;
    if (method.cacheable === true) this.#cacheable.add(name);
    if (serve === undefined || method.kind !== 'request') return;
    this.#served.set(name, {
      revisions: new Set(method.revisions),
      serve: (call) => serve(new ServedCall(call)),
    });
  }

  #serves(name: string, revision: string): boolean {
    return this.#served.get(name)?.revisions.has(revision) ?? false;
  }

  /** How `method` is served in `revision` by an extension, if one does. */
  feature(method: string, revision: ProtocolRevision): Served | undefined {
    const served = this.#served.get(method);
    return served?.revisions.has(revision) === true ? served.serve : undefined;
  }

  /** True when an extension's `method` gives cacheable results (2026-07-28 cache hints). */
  cacheable(method: string): boolean {
    return this.#cacheable.has(method);
  }

  /** What the extensions add to the capabilities of `revision`. */
  capabilities(revision: ProtocolRevision): {
    extensions: Record<string, unknown>;
    fields: Record<string, unknown>;
  } {
    const extensions: Record<string, unknown> = {};
    const fields: Record<string, unknown> = {};
    for (const extension of this.#list) {
      const capability = extension.capabilities?.(revision);
      if (capability === undefined) continue;
      extensions[extension.id] = capability.settings;
      Object.assign(fields, capability.fields);
    }
    return { extensions, fields };
  }
}

function checkExtension(extension: ServerExtension, added: readonly ServerExtension[]): void {
  const given: unknown = extension;
  if (typeof given !== 'object' || given === null) {
    throw new TypeError('server.extend takes an extension object: { id, methods?, capabilities? }');
  }
  if (typeof extension.id !== 'string' || extension.id === '') {
    throw new TypeError('an extension needs an id (the key of capabilities.extensions)');
  }
  if (added.some((other) => other.id === extension.id)) {
    throw new TypeError(`extension ${extension.id} is added already`);
  }
  for (const [name, method] of Object.entries(extension.methods ?? {})) {
    const { kind, revisions, serve } = method as Partial<ExtensionMethod>;
    if (kind !== 'request' && kind !== 'notification') {
      throw new TypeError(
        `${extension.id}: method ${name} needs a kind, "request" or "notification"`,
      );
    }
    if (!Array.isArray(revisions) || revisions.length === 0) {
      throw new TypeError(`${extension.id}: method ${name} needs the revisions that define it`);
    }
    if (serve !== undefined && typeof serve !== 'function') {
      throw new TypeError(`${extension.id}: method ${name}'s serve must be a function`);
    }
  }
}

/** The ExtensionCall of one request, read from the core's Call. */
export function extensionCall(call: ServedSource): ExtensionCall {
  return new ServedCall(call);
}

class ServedCall implements ExtensionCall {
  readonly #call: ServedSource;

  constructor(call: ServedSource) {
    this.#call = call;
  }

  get id(): RequestId {
    return this.#call.scope.id;
  }
  get method(): string {
    return this.#call.method;
  }
  get params(): Readonly<Record<string, unknown>> {
    return this.#call.params;
  }
  get era(): ProtocolEra {
    return this.#call.scope.era;
  }
  get revision(): ProtocolRevision {
    return this.#call.scope.revision;
  }
  get client(): ClientDescription {
    return this.#call.scope.client;
  }
  get auth(): AuthInfo | undefined {
    const auth = this.#call.scope.info?.auth;
    return isAuthInfo(auth) ? auth : undefined;
  }
  get transport(): MessageInfo | undefined {
    return this.#call.scope.info;
  }
  get signal(): AbortSignal {
    return this.#call.scope.signal;
  }

  request(method: string, params: Record<string, unknown>): Promise<unknown> {
    const scope = this.#call.scope;
    if (scope.era !== 'legacy') {
      return Promise.reject(new Error(`${method} cannot be sent to a 2026-07-28 client here`));
    }
    return scope.request(method, params);
  }

  page<T extends object>(items: readonly T[]): { items: readonly T[]; nextCursor?: string } {
    const page = paginate(items, this.#call.params['cursor'], this.#call.core.pageSize);
    return page.nextCursor === undefined
      ? { items: page.items as readonly T[] }
      : { items: page.items as readonly T[], nextCursor: page.nextCursor };
  }
}
