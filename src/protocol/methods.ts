// The method table: every MCP method of every revision, who sends it, and its spec types.
// Hand-written; methods.test.ts derives the same facts from spec/<rev>/schema.json and fails on any
// difference. It drives the typing of requests and results (ParamsOf, ResultOf).
import type { ProtocolRevision } from './version.js';
import type * as S20251125 from './schema/2025-11-25.js';
import type * as S20260728 from './schema/2026-07-28.js';

/** Who sends a method: the client, the server, or either. */
export type Direction = 'client-to-server' | 'server-to-client' | 'both';

/**
 * What an extension declares of a method it adds (`McpServer.extend`, `McpClient.extend`): the
 * facts the core and the transports need without knowing the extension.
 */
export interface MethodDeclaration {
  /** A request (answered by a result or an error) or a notification (answered by nothing). */
  readonly kind: 'request' | 'notification';
  /** Who sends it. */
  readonly direction: Direction;
  /** The revisions in which it is defined, oldest first. */
  readonly revisions: readonly ProtocolRevision[];
  /** True when its 2026-07-28 result is a `CacheableResult` ({@link MethodInfo.cacheable}). */
  readonly cacheable?: boolean;
  /** The params field the `Mcp-Name` header of a 2026-07-28 HTTP request mirrors, if any. */
  readonly nameParam?: string;
}

/** One method's entry in {@link METHODS}. */
export interface MethodInfo {
  /** A request (answered by a result or an error) or a notification (answered by nothing). */
  readonly kind: 'request' | 'notification';
  /** Who sends it, in every revision unless {@link directionIn} says otherwise. */
  readonly direction: Direction;
  /** The revisions that define it, oldest first. */
  readonly revisions: readonly ProtocolRevision[];
  /** The spec type of the message, the same name in each of its revisions. */
  readonly type: string;
  /** Requests only: the spec type of the result. */
  readonly result?: string;
  /** Revisions in which the direction differs from {@link direction}. */
  readonly directionIn?: Partial<Record<ProtocolRevision, Direction>>;
  /**
   * Revisions in which the server never sends this request as a JSON-RPC message but embeds it in
   * an `InputRequiredResult` (`inputRequests`) and receives its result in the client's retry
   * (`inputResponses`). Spec 2026-07-28 "multi round-trip requests".
   */
  readonly inputRequestIn?: readonly ProtocolRevision[];
  /**
   * True when the method's 2026-07-28 result is a `CacheableResult` (carries `ttlMs` and
   * `cacheScope`). Spec 2026-07-28 "caching".
   */
  readonly cacheable?: true;
  /**
   * The params field the `Mcp-Name` header of a 2026-07-28 HTTP request mirrors (`name` of a tool
   * call, `uri` of a resource read). Spec 2026-07-28 transports/streamable-http#request-metadata.
   */
  readonly nameParam?: 'name' | 'uri';
}

/** Every MCP method, by name. */
export const METHODS = {
  initialize: {
    kind: 'request',
    direction: 'client-to-server',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'],
    type: 'InitializeRequest',
    result: 'InitializeResult',
  },
  ping: {
    kind: 'request',
    direction: 'both',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'],
    type: 'PingRequest',
    result: 'EmptyResult',
  },
  'server/discover': {
    kind: 'request',
    direction: 'client-to-server',
    revisions: ['2026-07-28'],
    type: 'DiscoverRequest',
    result: 'DiscoverResult',
    cacheable: true,
  },
  'completion/complete': {
    kind: 'request',
    direction: 'client-to-server',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    type: 'CompleteRequest',
    result: 'CompleteResult',
  },
  'logging/setLevel': {
    kind: 'request',
    direction: 'client-to-server',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'],
    type: 'SetLevelRequest',
    result: 'EmptyResult',
  },
  'prompts/get': {
    kind: 'request',
    direction: 'client-to-server',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    type: 'GetPromptRequest',
    result: 'GetPromptResult',
    nameParam: 'name',
  },
  'prompts/list': {
    kind: 'request',
    direction: 'client-to-server',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    type: 'ListPromptsRequest',
    result: 'ListPromptsResult',
    cacheable: true,
  },
  'resources/list': {
    kind: 'request',
    direction: 'client-to-server',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    type: 'ListResourcesRequest',
    result: 'ListResourcesResult',
    cacheable: true,
  },
  'resources/templates/list': {
    kind: 'request',
    direction: 'client-to-server',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    type: 'ListResourceTemplatesRequest',
    result: 'ListResourceTemplatesResult',
    cacheable: true,
  },
  'resources/read': {
    kind: 'request',
    direction: 'client-to-server',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    type: 'ReadResourceRequest',
    result: 'ReadResourceResult',
    cacheable: true,
    nameParam: 'uri',
  },
  'resources/subscribe': {
    kind: 'request',
    direction: 'client-to-server',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'],
    type: 'SubscribeRequest',
    result: 'EmptyResult',
  },
  'resources/unsubscribe': {
    kind: 'request',
    direction: 'client-to-server',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'],
    type: 'UnsubscribeRequest',
    result: 'EmptyResult',
  },
  'subscriptions/listen': {
    kind: 'request',
    direction: 'client-to-server',
    revisions: ['2026-07-28'],
    type: 'SubscriptionsListenRequest',
    result: 'SubscriptionsListenResult',
  },
  'tools/call': {
    kind: 'request',
    direction: 'client-to-server',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    type: 'CallToolRequest',
    result: 'CallToolResult',
    nameParam: 'name',
  },
  'tools/list': {
    kind: 'request',
    direction: 'client-to-server',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    type: 'ListToolsRequest',
    result: 'ListToolsResult',
    cacheable: true,
  },
  'tasks/get': {
    kind: 'request',
    direction: 'both',
    revisions: ['2025-11-25'],
    type: 'GetTaskRequest',
    result: 'GetTaskResult',
  },
  'tasks/result': {
    kind: 'request',
    direction: 'both',
    revisions: ['2025-11-25'],
    type: 'GetTaskPayloadRequest',
    result: 'GetTaskPayloadResult',
  },
  'tasks/list': {
    kind: 'request',
    direction: 'both',
    revisions: ['2025-11-25'],
    type: 'ListTasksRequest',
    result: 'ListTasksResult',
  },
  'tasks/cancel': {
    kind: 'request',
    direction: 'both',
    revisions: ['2025-11-25'],
    type: 'CancelTaskRequest',
    result: 'CancelTaskResult',
  },
  'sampling/createMessage': {
    kind: 'request',
    direction: 'server-to-client',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    type: 'CreateMessageRequest',
    result: 'CreateMessageResult',
    inputRequestIn: ['2026-07-28'],
  },
  'roots/list': {
    kind: 'request',
    direction: 'server-to-client',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    type: 'ListRootsRequest',
    result: 'ListRootsResult',
    inputRequestIn: ['2026-07-28'],
  },
  'elicitation/create': {
    kind: 'request',
    direction: 'server-to-client',
    revisions: ['2025-06-18', '2025-11-25', '2026-07-28'],
    type: 'ElicitRequest',
    result: 'ElicitResult',
    inputRequestIn: ['2026-07-28'],
  },
  'notifications/initialized': {
    kind: 'notification',
    direction: 'client-to-server',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'],
    type: 'InitializedNotification',
  },
  'notifications/cancelled': {
    kind: 'notification',
    direction: 'both',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    type: 'CancelledNotification',
  },
  'notifications/progress': {
    kind: 'notification',
    direction: 'both',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    type: 'ProgressNotification',
    directionIn: { '2026-07-28': 'server-to-client' },
  },
  'notifications/roots/list_changed': {
    kind: 'notification',
    direction: 'client-to-server',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'],
    type: 'RootsListChangedNotification',
  },
  'notifications/tasks/status': {
    kind: 'notification',
    direction: 'both',
    revisions: ['2025-11-25'],
    type: 'TaskStatusNotification',
  },
  'notifications/message': {
    kind: 'notification',
    direction: 'server-to-client',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    type: 'LoggingMessageNotification',
  },
  'notifications/prompts/list_changed': {
    kind: 'notification',
    direction: 'server-to-client',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    type: 'PromptListChangedNotification',
  },
  'notifications/resources/list_changed': {
    kind: 'notification',
    direction: 'server-to-client',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    type: 'ResourceListChangedNotification',
  },
  'notifications/resources/updated': {
    kind: 'notification',
    direction: 'server-to-client',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    type: 'ResourceUpdatedNotification',
  },
  'notifications/tools/list_changed': {
    kind: 'notification',
    direction: 'server-to-client',
    revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
    type: 'ToolListChangedNotification',
  },
  'notifications/elicitation/complete': {
    kind: 'notification',
    direction: 'server-to-client',
    revisions: ['2025-11-25'],
    type: 'ElicitationCompleteNotification',
  },
  'notifications/subscriptions/acknowledged': {
    kind: 'notification',
    direction: 'server-to-client',
    revisions: ['2026-07-28'],
    type: 'SubscriptionsAcknowledgedNotification',
  },
} as const;

/** {@link METHODS}, checked against MethodInfo (isolatedDeclarations rules out `satisfies` there). */
const TABLE: Readonly<Record<string, MethodInfo>> = METHODS;

type Table = typeof METHODS;

/** Every MCP method name. */
export type Method = keyof Table;

/** The request methods. */
export type RequestMethod = {
  [TMethod in Method]: Table[TMethod]['kind'] extends 'request' ? TMethod : never;
}[Method];

/** The notification methods. */
export type NotificationMethod = Exclude<Method, RequestMethod>;

/** The generated types of the newest revision that defines `TMethod` (2026-07-28, else 2025-11-25). */
type NewestDefinitions<TMethod extends Method> =
  '2026-07-28' extends Table[TMethod]['revisions'][number]
    ? S20260728.Definitions
    : S20251125.Definitions;

type Lookup<TDefinitions, TName> = TName extends keyof TDefinitions ? TDefinitions[TName] : never;

/** The message type of a method, in the newest revision that defines it (`CallToolRequest`). */
export type MessageOf<TMethod extends Method> = Lookup<
  NewestDefinitions<TMethod>,
  Table[TMethod]['type']
>;

/** The params type of a method, in the newest revision that defines it (`CallToolRequestParams`). */
export type ParamsOf<TMethod extends Method> =
  MessageOf<TMethod> extends { params?: infer TParams } ? TParams : never;

/** The result type of a request method, in the newest revision that defines it (`CallToolResult`). */
export type ResultOf<TMethod extends RequestMethod> = Lookup<
  NewestDefinitions<TMethod>,
  Table[TMethod]['result']
>;

const entryOf = (method: string): MethodInfo | undefined =>
  Object.hasOwn(TABLE, method) ? TABLE[method] : undefined;

/** True when `name` is an MCP method of some revision. */
export function isMethod(name: unknown): name is Method {
  return typeof name === 'string' && Object.hasOwn(TABLE, name);
}

/** The revisions of each method, as sets: asked on every request. */
const REVISIONS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries(TABLE).map(([method, info]) => [method, new Set(info.revisions)]),
);

/** True when `method` is defined in `revision` (`ping` up to 2025-11-25, `server/discover` after). */
export function methodExists(method: string, revision: ProtocolRevision): boolean {
  return REVISIONS.get(method)?.has(revision) ?? false;
}

/** Who sends `method` in `revision`; undefined when the revision does not define it. */
export function directionOf(method: string, revision: ProtocolRevision): Direction | undefined {
  const entry = entryOf(method);
  if (entry === undefined || !entry.revisions.includes(revision)) return undefined;
  return entry.directionIn?.[revision] ?? entry.direction;
}

/** True when the server sends `method` inside an `InputRequiredResult` in `revision`. */
export function isInputRequest(method: string, revision: ProtocolRevision): boolean {
  return entryOf(method)?.inputRequestIn?.includes(revision) ?? false;
}

/** True when `method`'s 2026-07-28 results carry cache hints ({@link MethodInfo.cacheable}). */
export function isCacheable(method: string): boolean {
  return CACHEABLE.has(method);
}

/** The cacheable methods, as a set: asked on every 2026-07-28 response. */
const CACHEABLE: ReadonlySet<string> = new Set(
  Object.keys(TABLE).filter((method) => TABLE[method]?.cacheable === true),
);

/**
 * The params field `Mcp-Name` mirrors for `method` ({@link MethodInfo.nameParam}), if any: the
 * core table's, else what an extension declared ({@link declareMethods}).
 */
export function nameParamOf(method: string): string | undefined {
  return NAME_PARAMS.get(method);
}

/**
 * The methods whose Mcp-Name mirrors a params field, and the field: asked on every request. The
 * core's, then those extensions declare.
 */
const NAME_PARAMS = new Map<string, string>(
  Object.entries(TABLE).flatMap(([method, info]) =>
    info.nameParam === undefined ? [] : [[method, info.nameParam] as const],
  ),
);

/**
 * Declares the methods an extension adds, for what the transports read of the method table
 * (`Mcp-Name`, {@link nameParamOf}); the server and the client keep what they serve themselves.
 * Declaring a method again with the same `nameParam` is allowed (two servers in one process add
 * the same extension). Throws TypeError for a declaration that would change the
 * `nameParam` of a method the core table or an earlier declaration gives.
 */
export function declareMethods(methods: Readonly<Record<string, MethodDeclaration>>): void {
  for (const [method, declaration] of Object.entries(methods)) {
    const known = nameParamOf(method);
    if (known !== undefined && known !== declaration.nameParam) {
      throw new TypeError(`method ${method} mirrors params.${known} in Mcp-Name already`);
    }
  }
  for (const [method, declaration] of Object.entries(methods)) {
    if (declaration.nameParam !== undefined) NAME_PARAMS.set(method, declaration.nameParam);
  }
}

/** The methods `revision` defines, in table order. */
export function methodsOf(revision: ProtocolRevision): Method[] {
  return (Object.keys(METHODS) as Method[]).filter((m) => methodExists(m, revision));
}
