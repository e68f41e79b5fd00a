// The methods a server serves, as one table of feature functions. Each takes the request's Call
// and resolves with the result object (era decoration is the session's job).
import type { InsufficientScopeData } from '../protocol/auth.js';
import { INSUFFICIENT_SCOPE, isAuthInfo, missingScopes } from '../protocol/auth.js';
import { isObject } from '../internal/json.js';
import type { MaybePromise } from '../internal/maybe.js';
import { ErrorCode, JsonRpcError } from '../jsonrpc/errors.js';
import { headerMismatch, invalidParams, resourceNotFound } from '../protocol/errors.js';
import { isLoggingLevel } from '../protocol/logging.js';
import { checkParamHeaders } from '../protocol/param-headers.js';
import { MetaKey, PROTOCOL_REVISIONS } from '../protocol/version.js';
import { complete } from './completion.js';
import { agreeListen } from './extension-listen.js';
import { withInput } from './handler-run.js';
import { createContext } from './context.js';
import { getPrompt } from './prompts.js';
import { paginate } from './registry.js';
import { readResource, servingResource, trimResource } from './resources.js';
import { callTool, unknownTool } from './tools.js';
import type { Call, Feature } from './call.js';

function requireString(params: Record<string, unknown>, key: string): string {
  const value = params[key];
  if (typeof value !== 'string') throw invalidParams(`params.${key} must be a string`);
  return value;
}

/**
 * A page of a listing: a new result object each time, whose text the snapshot's page keeps
 * (written as is while nothing changes the result: listed-page.ts).
 */
function listPage(call: Call, kind: 'tools' | 'prompts' | 'templates'): Promise<unknown> {
  const { snapshot, scope, core } = call;
  const at = { cursor: call.params['cursor'], pageSize: core.pageSize };
  return Promise.resolve(snapshot.page(kind, scope.revision, at).result());
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
  const { params } = call;
  // Legacy calls have no input round: withInput's first step, without the closure and target it
  // would need (this is the path of every legacy tools/call).
  const through = call.core.middleware.toolCall;
  if (call.scope.era === 'legacy') {
    const ctx = createContext(call.scope, undefined);
    return callTool(tool, args, { ctx, params, report, through, answered: undefined });
  }
  return withInput(call, { name, args }, (ctx) =>
    callTool(tool, args, { ctx, params, report, through, answered: undefined }),
  );
}

/** resources/list: a kept page (listPage) unless a template lists resources of its own. */
async function resourcesList(call: Call): Promise<unknown> {
  const revision = call.scope.revision;
  const dynamic = call.snapshot.templates.filter((t) => t.definition.list !== undefined);
  if (dynamic.length === 0) {
    const at = { cursor: call.params['cursor'], pageSize: call.core.pageSize };
    return call.snapshot.page('resources', revision, at).result();
  }
  const listed = await Promise.all(dynamic.map(async (t) => (await t.definition.list?.()) ?? []));
  const items = [
    ...call.snapshot.listing('resources', revision),
    ...listed.flat().map((r) => trimResource(r, revision)),
  ];
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
  // Filters of the server's extensions (the tasks extension's `taskIds`), agreed in turn.
  const extra = await agreeListen(call.core.extensions.listens(), call, requested);
  const acknowledged = extra.length === 0 ? filter : { ...filter, ...extra.acknowledged() };
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
  const unwatch = extra.length === 0 ? undefined : extra.watch(send);
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
  'tools/list': (call) => listPage(call, 'tools'),
  'tools/call': toolsCall,
  'prompts/list': (call) => listPage(call, 'prompts'),
  'prompts/get': promptsGet,
  'resources/list': resourcesList,
  'resources/templates/list': (call) => listPage(call, 'templates'),
  'resources/read': resourcesRead,
  'resources/subscribe': (call) => subscribe(call, true),
  'resources/unsubscribe': (call) => subscribe(call, false),
  'completion/complete': (call) => complete(call.params, call.snapshot),
};
