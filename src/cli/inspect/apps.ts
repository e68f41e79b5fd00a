// The inspector's side of MCP Apps (io.modelcontextprotocol/ui, 2026-01-26) under /api/apps/:
// a view's resource read and checked for the page, the view's `tools/call` and `resources/read`
// passed to the server (app-visible tools of the view's own connection only), and the page's
// record of every message between it and a view, added to the wire log as the `app` channel.
import { allowAttribute, buildCsp, checkCsp } from '../../ext/apps/index.js';
import { APP_MIME_TYPE, visibilityOf } from './app-meta.js';
import { ApiError, asObject, optionalObject, requireString } from './api-error.js';
import { version } from '../version.js';
import type { InspectorSession } from './session.js';
import type { Envelope } from './views.js';
import type { WireLog } from './wire-log.js';

/** How many entries one POST /api/apps/log may carry. */
const MAX_LOG_ENTRIES = 500;

/** JSON-RPC error codes of a refused view request. */
const INVALID_REQUEST = -32600;
const INTERNAL_ERROR = -32603;

/** What a view's request gets: a JSON-RPC result or error, to pass on to the view as it is. */
export type AppOutcome =
  { result: unknown } | { error: { code: number; message: string; data?: unknown } };

/** What the routes need. */
export interface AppsContext {
  readonly session: InspectorSession;
  readonly log: WireLog;
  /** The sandbox listener's port. */
  readonly sandboxPort: number | undefined;
}

/** Why a view of `connection` may not call `name`, or undefined when it may. */
export function callRefusal(
  session: InspectorSession,
  name: string,
  connection: unknown,
): string | undefined {
  if (connection !== session.connection) {
    return 'the view belongs to a server the inspector is no longer connected to: a view calls its own server only';
  }
  const tool = session.state().tools.find((t) => t.name === name);
  if (tool === undefined) return `the server lists no tool "${name}"`;
  const visibility = visibilityOf(tool);
  if (!visibility.includes('app')) {
    return `tool "${name}" is not callable by apps (its _meta.ui.visibility is ${JSON.stringify(visibility)})`;
  }
  return undefined;
}

/** An Envelope of the session as what the view gets. */
function outcomeOf(envelope: Envelope): AppOutcome {
  if (envelope.ok) return { result: envelope.result };
  const { error } = envelope;
  if (error.kind === 'protocol' && error.code !== undefined) {
    return {
      error: {
        code: error.code,
        message: error.message,
        ...(error.data === undefined ? {} : { data: error.data }),
      },
    };
  }
  return { error: { code: INTERNAL_ERROR, message: error.message } };
}

/** POST /api/apps/call: a view's tools/call, `{name, arguments, connection}`. */
async function appCall(ctx: AppsContext, body: Record<string, unknown>): Promise<AppOutcome> {
  const name = requireString(body, 'name', '/api/apps/call');
  const args = optionalObject(body, 'arguments', '/api/apps/call');
  const refused = callRefusal(ctx.session, name, body['connection']);
  if (refused !== undefined) return { error: { code: INVALID_REQUEST, message: refused } };
  return outcomeOf(await ctx.session.request('callTool', { name, arguments: args }));
}

/** POST /api/apps/read: a view's resources/read, `{uri, connection}`. */
async function appRead(ctx: AppsContext, body: Record<string, unknown>): Promise<AppOutcome> {
  const uri = requireString(body, 'uri', '/api/apps/read');
  if (body['connection'] !== ctx.session.connection) {
    return {
      error: {
        code: INVALID_REQUEST,
        message: 'the view belongs to a server the inspector is no longer connected to',
      },
    };
  }
  return outcomeOf(await ctx.session.request('readResource', { uri }));
}

/** What the page renders a view from (POST /api/apps/resource). */
export interface AppResource {
  uri: string;
  html: string;
  /** `_meta.ui.csp` as kept (plain origins), and the entries dropped. */
  csp?: Record<string, string[]>;
  dropped: string[];
  /** The CSP header the sandbox serves the view with (for the person to see). */
  policy: string;
  permissions?: Record<string, unknown>;
  /** The `allow` attribute of the permissions. */
  allow: string;
  prefersBorder?: boolean;
  domain?: string;
}

/**
 * POST /api/apps/resource: reads a view's `ui://` resource through the inspector's session and
 * checks it (the spec's content requirements); `{uri, connection}`. A bad resource is a 422.
 */
async function appResource(ctx: AppsContext, body: Record<string, unknown>): Promise<AppResource> {
  const uri = requireString(body, 'uri', '/api/apps/resource');
  if (!uri.startsWith('ui://')) throw new ApiError(400, 'a view resource has a ui:// URI');
  if (body['connection'] !== ctx.session.connection) {
    throw new ApiError(409, 'the server of this view is no longer connected');
  }
  const envelope = await ctx.session.request('readResource', { uri });
  if (!envelope.ok) throw new ApiError(502, `reading ${uri} failed: ${envelope.error.message}`);
  return viewOf(uri, envelope.result);
}

/** The view in a resources/read result; throws ApiError(422) naming what is wrong. */
export function viewOf(uri: string, result: unknown): AppResource {
  const contents = asObject(result)?.['contents'];
  const list = Array.isArray(contents) ? contents.map(asObject) : [];
  const item = list.find((c) => c?.['uri'] === uri) ?? list[0];
  if (item === undefined) throw new ApiError(422, `${uri} has no contents`);
  const mimeType = item['mimeType'];
  if (typeof mimeType !== 'string' || mimeType.replace(/\s+/g, '') !== APP_MIME_TYPE) {
    throw new ApiError(422, `${uri} is ${String(mimeType)}, not ${APP_MIME_TYPE}`);
  }
  const text = item['text'];
  const blob = item['blob'];
  const html =
    typeof text === 'string'
      ? text
      : typeof blob === 'string'
        ? Buffer.from(blob, 'base64').toString('utf8')
        : undefined;
  if (html === undefined) throw new ApiError(422, `${uri} has neither text nor blob`);
  const ui = asObject(asObject(item['_meta'])?.['ui']) ?? {};
  const checked = checkCsp(ui['csp']);
  const permissions = asObject(ui['permissions']);
  return {
    uri,
    html,
    ...(checked.csp === undefined ? {} : { csp: checked.csp as Record<string, string[]> }),
    dropped: checked.dropped,
    policy: buildCsp(checked.csp),
    ...(permissions === undefined ? {} : { permissions }),
    allow: allowAttribute(permissions),
    ...(typeof ui['prefersBorder'] === 'boolean' ? { prefersBorder: ui['prefersBorder'] } : {}),
    ...(typeof ui['domain'] === 'string' ? { domain: ui['domain'] } : {}),
  };
}

/**
 * POST /api/apps/log: `{entries: [{dir, view, message}]}`, the page's record of messages between
 * it and a view (`>>` view to host, `<<` host to view), added to the wire log's `app` channel.
 */
function appLog(ctx: AppsContext, body: Record<string, unknown>): Promise<{ ok: true }> {
  const entries = body['entries'];
  if (!Array.isArray(entries) || entries.length > MAX_LOG_ENTRIES) {
    throw new ApiError(
      400,
      `/api/apps/log: "entries" must be an array of at most ${String(MAX_LOG_ENTRIES)}`,
    );
  }
  for (const raw of entries) {
    const entry = asObject(raw);
    const dir = entry?.['dir'];
    const message = asObject(entry?.['message']);
    const view = entry?.['view'];
    if ((dir !== '>>' && dir !== '<<') || message === undefined || typeof view !== 'string') {
      throw new ApiError(400, '/api/apps/log: each entry is {dir: ">>" | "<<", view, message}');
    }
    const method = message['method'];
    const id = message['id'];
    ctx.log.add({
      dir,
      kind: 'jsonrpc',
      channel: 'app',
      view,
      message,
      ...(typeof method === 'string' ? { method } : {}),
      ...(typeof id === 'string' || typeof id === 'number' ? { id } : {}),
    });
  }
  return Promise.resolve({ ok: true });
}

/** The POST routes under /api/apps/. */
export const APPS_POST_ROUTES: Readonly<
  Record<string, (ctx: AppsContext, body: Record<string, unknown>) => Promise<unknown>>
> = {
  '/api/apps/resource': appResource,
  '/api/apps/call': appCall,
  '/api/apps/read': appRead,
  '/api/apps/log': appLog,
};

/** GET /api/apps/config: where the page finds the sandbox, and the version it tells views. */
export function appsConfig(ctx: AppsContext): {
  sandboxPort: number | undefined;
  version: string;
} {
  return { sandboxPort: ctx.sandboxPort, version: version() };
}
