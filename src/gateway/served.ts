// What the gateway serves of an upstream's entries: the fields that pass through, results as a
// handler returns them, errors as answers, and registrations kept in step with the lists.
import type { CallToolResult, Tool } from '../client/index.js';
import { ErrorCode, JsonRpcError } from '../jsonrpc/errors.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import { MetaKey } from '../protocol/version.js';
import { searchTools } from '../catalogue/index.js';
import type { RegisteredHandle } from '../server/index.js';
import { messageOf } from '../internal/message-of.js';

/** One tool as the gateway serves it. */
export interface ServedTool {
  readonly upstream: string;
  readonly original: string;
  readonly definition: Spec.Tool;
  readonly key: string;
}

/** The upstreams' own instructions, each under its server's name; undefined when none has any. */
export function joinInstructions(
  upstreams: readonly { readonly name: string; readonly instructions: string | undefined }[],
): string | undefined {
  const parts = upstreams
    .map((upstream) => [upstream.name, upstream.instructions] as const)
    .filter(([, text]) => text !== undefined && text.trim() !== '')
    .map(([name, text]) => `## ${name}\n${String(text).trim()}`);
  if (parts.length === 0) return undefined;
  const intro =
    "These tools come from several MCP servers behind one gateway. Each server's own guidance follows; a tool may be served as <server>__<tool>.";
  return [intro, ...parts].join('\n\n');
}

/**
 * The answer of `search_tools` to `args` over `catalogue`: the definitions found (their names
 * passed to `found` first, so that they are served from then on), or a line saying none match.
 */
export function searchCatalogue(
  catalogue: readonly ServedTool[],
  args: Record<string, unknown>,
  found: (names: string[]) => void,
): string {
  const query = typeof args['query'] === 'string' ? args['query'] : '';
  const limit = typeof args['limit'] === 'number' ? args['limit'] : 5;
  const searchable = catalogue.map((tool) => ({
    tool,
    name: tool.definition.name,
    server: tool.upstream,
    description: tool.definition.description ?? '',
  }));
  const matches = searchTools(searchable, query, Math.min(20, Math.max(1, limit)));
  if (matches.length === 0) return `No tool matches "${query}". Try other keywords.`;
  found(matches.map((entry) => entry.name));
  const definitions = matches.map((entry) => {
    const { name, description, inputSchema } = entry.tool.definition;
    return { name, description, inputSchema };
  });
  return `These tools are now available to call (tools/list lists them):\n${JSON.stringify(definitions, null, 2)}`;
}

export type Handle = RegisteredHandle<unknown>;

/**
 * Brings `registered` in step with `wanted`: entries gone or changed are removed, new or changed
 * ones registered with `register` (a registration that fails is left out).
 */
export function reconcile<T extends { owner: string; source: unknown }>(
  registered: Map<string, { owner: string; key: string; handle: Handle }>,
  wanted: Map<string, T>,
  register: (key: string, entry: T) => unknown,
): void {
  for (const [key, entry] of registered) {
    const next = wanted.get(key);
    if (next === undefined || entry.key !== JSON.stringify([next.owner, next.source])) {
      entry.handle.remove();
      registered.delete(key);
    }
  }
  for (const [key, entry] of wanted) {
    if (registered.has(key)) continue;
    try {
      const handle = register(key, entry) as Handle;
      registered.set(key, {
        owner: entry.owner,
        key: JSON.stringify([entry.owner, entry.source]),
        handle,
      });
    } catch {
      // An upstream entry this server cannot serve (an invalid URI or template): left out.
    }
  }
}

/**
 * Brings the registered tools in step with `served` (by name): tools gone or changed are
 * removed, new or changed ones registered; one whose registration fails is left out and passed
 * to `skipped`.
 */
export function reconcileTools(
  registered: Map<string, { served: ServedTool; handle: Handle }>,
  served: readonly ServedTool[],
  {
    register,
    skipped,
  }: {
    register: (tool: ServedTool) => Handle;
    skipped: (tool: ServedTool, error: unknown) => void;
  },
): void {
  const wanted = new Map(served.map((tool) => [tool.definition.name, tool]));
  for (const [name, entry] of registered) {
    const next = wanted.get(name);
    if (next === undefined || next.key !== entry.served.key) {
      entry.handle.remove();
      registered.delete(name);
    }
  }
  for (const [name, tool] of wanted) {
    if (registered.has(name)) continue;
    try {
      registered.set(name, { served: tool, handle: register(tool) });
    } catch (error) {
      skipped(tool, error);
    }
  }
}

/** The listed fields of an upstream resource, template or prompt that pass through. */
export function listedFields(source: object): Record<string, unknown> {
  const keep = [
    'name',
    'title',
    'description',
    'mimeType',
    'size',
    'annotations',
    'icons',
    '_meta',
  ];
  return Object.fromEntries(
    Object.entries(source).filter(([key, value]) => keep.includes(key) && value !== undefined),
  );
}

/** The definition the gateway lists for an upstream tool. */
export function forwardedTool(
  source: Tool,
  name: string,
  description: string | undefined,
): Spec.Tool {
  const fields: Record<string, unknown> = {
    name,
    title: source.title,
    description,
    inputSchema: source.inputSchema,
    outputSchema: source.outputSchema,
    annotations: source.annotations,
    icons: source.icons,
    _meta: source._meta,
  };
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as unknown as Spec.Tool;
}

/**
 * An upstream tool result as a handler returns it: the fields a result may have, its `_meta`
 * without the upstream's serverInfo (the gateway answers as itself).
 */
export function toolResult(result: CallToolResult): Record<string, unknown> {
  const out: Record<string, unknown> = { content: result.content };
  if (result.structuredContent !== undefined) out['structuredContent'] = result.structuredContent;
  if (result.isError !== undefined) out['isError'] = result.isError;
  const meta = forwardedMeta(result._meta);
  if (meta !== undefined) out['_meta'] = meta;
  return out;
}

/** The `_meta` field of an upstream's resource or prompt result as passed on, or none. */
export function metaField(result: { readonly _meta?: unknown }): {
  _meta?: Record<string, unknown>;
} {
  const meta = forwardedMeta(result._meta);
  return meta === undefined ? {} : { _meta: meta };
}

/**
 * The `_meta` of an upstream's result as the gateway passes it on: without the upstream's
 * serverInfo, which names the server that answered (the gateway's server adds its own to a
 * 2026-07-28 result); undefined when nothing else is in it. A result left with no `_meta` is
 * one the server writes as the upstream's was (its text made around the result's own, not the
 * whole copy serialized): the usual forwarded call.
 */
export function forwardedMeta(meta: unknown): Record<string, unknown> | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const fields = meta as Record<string, unknown>;
  if (!Object.hasOwn(fields, MetaKey.ServerInfo)) return fields;
  let rest: Record<string, unknown> | undefined;
  for (const key in fields) {
    if (key !== MetaKey.ServerInfo && Object.hasOwn(fields, key)) (rest ??= {})[key] = fields[key];
  }
  return rest;
}

/**
 * An upstream's failure as a resource, prompt or completion answer: its JSON-RPC error as is
 * (code and data kept), anything else -32603 with the message.
 */
export function rethrow(error: unknown): never {
  if (error instanceof JsonRpcError) throw error;
  throw new JsonRpcError(ErrorCode.InternalError, messageOf(error));
}

/** The variable names of an RFC 6570 template (`{a}`, `{+b}`, `{?c,d*}`, `{e:3}`). */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const [, expression = ''] of template.matchAll(/\{([^}]*)\}/g)) {
    for (const spec of expression.replace(/^[+#./;?&]/, '').split(',')) {
      const name = spec.replace(/(\*|:\d+)$/, '');
      if (name !== '' && !names.includes(name)) names.push(name);
    }
  }
  return names;
}
