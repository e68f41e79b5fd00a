// MCP Apps through the gateway (extension `io.modelcontextprotocol/ui`): each upstream's `ui://`
// views are served under `ui://<upstream>/<rest>` (the upstream's name, URI-encoded, as the
// authority), so two upstreams with the same `ui://view` cannot collide; its tools' view links
// are rewritten to match; contents read are given back under the gateway's URI. App-only tools
// are listed to clients that render views only. A view calls its tools by its own server's names:
// `tools/call` takes those too, for app-visible tools.
import type { Resource, Tool } from '../client/index.js';
import {
  APP_MIME_TYPE,
  FLAT_RESOURCE_URI_KEY,
  declaresApps,
  isAppVisible,
  isModelVisible,
  isUiUri,
  uiResourceUri,
} from '../catalogue/index.js';
import { isObject } from '../internal/json.js';
import { ErrorCode, JsonRpcError } from '../jsonrpc/errors.js';
import type { RequestMiddleware } from '../server/index.js';
import type { ServedTool } from './served.js';

/** The prefix of the gateway's URIs of `upstream`'s views. */
function prefixOf(upstream: string): string {
  return `ui://${encodeURIComponent(upstream)}/`;
}

/**
 * The URI (or URI template) the gateway serves `uri` of `upstream` under: a `ui://` one moves
 * under the upstream's authority (`ui://x` of `a` is `ui://a/x`); any other is kept.
 */
export function servedUri(upstream: string, uri: string): string {
  return isUiUri(uri) ? prefixOf(upstream) + uri.slice('ui://'.length) : uri;
}

/** The upstream's own URI of `uri`, a URI the gateway serves for `upstream` (inverse of {@link servedUri}). */
export function upstreamUri(upstream: string, uri: string): string {
  const prefix = prefixOf(upstream);
  return uri.startsWith(prefix) ? `ui://${uri.slice(prefix.length)}` : uri;
}

/**
 * `tool` with its `_meta` as the gateway lists it: its view links (`ui.resourceUri`, and the
 * deprecated flat `ui/resourceUri`) rewritten to the gateway's URIs; everything else (visibility
 * included) kept.
 */
export function withServedViews(upstream: string, tool: Tool): Tool {
  const meta = tool._meta;
  if (meta === undefined) return tool;
  const out: Record<string, unknown> = { ...meta };
  const ui = meta['ui'];
  if (isObject(ui) && isUiUri(ui['resourceUri'])) {
    out['ui'] = { ...ui, resourceUri: servedUri(upstream, ui['resourceUri']) };
  }
  const flat = meta[FLAT_RESOURCE_URI_KEY];
  if (isUiUri(flat)) out[FLAT_RESOURCE_URI_KEY] = servedUri(upstream, flat);
  return { ...tool, _meta: out };
}

/**
 * The views `tools` link to that `listed` (the upstream's resources) does not hold: an upstream
 * may leave its views out of resources/list (the spec lets it), and the gateway serves them all.
 */
export function linkedViews(tools: readonly Tool[], listed: readonly Resource[]): Resource[] {
  const known = new Set(listed.map((resource) => resource.uri));
  const views: Resource[] = [];
  for (const tool of tools) {
    const uri = uiResourceUri(tool);
    if (uri === undefined || known.has(uri)) continue;
    known.add(uri);
    views.push({ uri, name: uri.slice('ui://'.length) || uri, mimeType: APP_MIME_TYPE });
  }
  return views;
}

/** Contents read from `upstream`, their `ui://` URIs moved to the gateway's (their `_meta` kept). */
export function servedContents<T extends { uri: string }>(upstream: string, contents: T[]): T[] {
  return contents.map((content) =>
    isUiUri(content.uri) ? { ...content, uri: servedUri(upstream, content.uri) } : content,
  );
}

/**
 * Leaves app-only tools out of the `tools/list` answers to clients that do not declare the Apps
 * extension: such a client renders no view, and would offer them to its model. Clients that
 * declare it get every tool, app-only ones with their visibility, for their views to call.
 */
export const hideAppOnlyTools: RequestMiddleware = (ctx, next) => {
  if (ctx.method !== 'tools/list' || declaresApps(ctx.client?.capabilities)) return next();
  const result = next();
  return result instanceof Promise ? result.then(withoutAppOnly) : withoutAppOnly(result);
};

function withoutAppOnly(result: unknown): unknown {
  if (!isObject(result) || !Array.isArray(result['tools'])) return result;
  const listed = result['tools'] as unknown[];
  const tools = listed.filter((tool) => !isObject(tool) || isModelVisible(tool));
  // Nothing left out: the result as it is, whose text the server keeps (issue #44).
  return tools.length === listed.length ? result : { ...result, tools };
}

/**
 * A view's own names for the tools it calls: a view written for its server calls `refresh`, which
 * the gateway may serve as `a__refresh`. Holds the served app-visible tools by their upstream's
 * name (rebuilt with {@link ViewNames.update} whenever the served tools change).
 */
export class ViewNames {
  #byOriginal = new Map<string, ServedTool[]>();

  /** Replaces what is known with `served` (every tool the gateway serves now). */
  update(served: Iterable<ServedTool>): void {
    const byOriginal = new Map<string, ServedTool[]>();
    for (const tool of served) {
      // A tool of an App only (its `_meta.ui` says so): a plain tool keeps its one served name.
      if (!isAppVisible(tool.definition) || !ofAnApp(tool.definition)) continue;
      const tools = byOriginal.get(tool.original);
      if (tools === undefined) byOriginal.set(tool.original, [tool]);
      else tools.push(tool);
    }
    this.#byOriginal = byOriginal;
  }

  /**
   * The middleware that takes, in `tools/call`, a name the gateway does not serve (`serves` says
   * which it does) that is the upstream's own name of an App's app-visible tool (its `_meta.ui`
   * links a view or sets a visibility) of exactly one upstream:
   * the call goes on under the served name, as if the client had sent it. Of several upstreams:
   * the unknown-tool error (-32602), naming the served candidates. A model-only tool is never
   * taken by its upstream's name; any other name is left to the server.
   */
  takeOwnNames(serves: (name: string) => boolean): RequestMiddleware {
    return (ctx, next) => {
      const name = ctx.method === 'tools/call' ? ctx.params['name'] : undefined;
      if (typeof name !== 'string' || serves(name)) return next();
      const tools = this.#byOriginal.get(name);
      if (tools === undefined) return next();
      const [only] = tools;
      if (tools.length > 1 || only === undefined) throw ambiguous(name, tools);
      ctx.params = { ...ctx.params, name: only.definition.name };
      return next();
    };
  }
}

/** True when a tool's `_meta` has MCP Apps fields: a view link or a visibility. */
function ofAnApp(tool: {
  readonly _meta?: Readonly<Record<string, unknown>> | undefined;
}): boolean {
  const ui = tool._meta?.['ui'];
  return isObject(ui) || uiResourceUri(tool) !== undefined;
}

function ambiguous(name: string, tools: readonly ServedTool[]): JsonRpcError {
  const candidates = tools.map((tool) => tool.definition.name).sort();
  return new JsonRpcError(
    ErrorCode.InvalidParams,
    `unknown tool ${JSON.stringify(name)}: several servers behind this gateway have an app tool of that name; call one of ${candidates.join(', ')}`,
  );
}
