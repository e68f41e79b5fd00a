// Resources: static resources by URI and RFC 6570 templates matched in registration order.
// Spec 2025-11-25 server/resources; 2026-07-28 reports an unknown resource as -32602 (SEP-2164).
import { messageOf } from '../internal/message-of.js';
import { checkScopes } from '../protocol/auth.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import { UriTemplate } from '../protocol/uri-template/index.js';
import type { ProtocolRevision } from '../protocol/version.js';
import { trimDefinition } from '../protocol/fields.js';
import type {
  HandlerContext,
  ResourceDefinition,
  ResourceHandler,
  ResourceReturn,
  ResourceTemplateDefinition,
  ResourceTemplateHandler,
} from './types.js';

/** A static resource ready to serve. */
export interface CompiledResource {
  readonly uri: string;
  readonly wire: Spec.Resource;
  readonly handler: ResourceHandler;
  /** The scopes a caller needs (auth gate on). */
  readonly scopes: readonly string[];
}

/** A resource template ready to serve. */
export interface CompiledTemplate {
  readonly name: string;
  readonly template: UriTemplate;
  readonly wire: Spec.ResourceTemplate;
  readonly definition: ResourceTemplateDefinition;
  readonly handler: ResourceTemplateHandler;
  /** The scopes a caller needs (auth gate on). */
  readonly scopes: readonly string[];
}

const DEFINITION_KEYS = [
  'title',
  'description',
  'mimeType',
  'size',
  'annotations',
  'icons',
  '_meta',
] as const;

function copyDefined<T extends object>(target: T, source: object, keys: readonly string[]): T {
  for (const key of keys) {
    const value = (source as Record<string, unknown>)[key];
    if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  }
  return target;
}

/** Compiles a static resource; throws TypeError on a registration mistake. */
export function compileResource(
  definition: ResourceDefinition,
  handler: ResourceHandler,
): CompiledResource {
  const { uri, name } = definition;
  if (typeof uri !== 'string' || !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(uri)) {
    throw new TypeError(
      `invalid resource URI ${JSON.stringify(uri)}: it needs a scheme (for example file:///x)`,
    );
  }
  if (typeof name !== 'string' || name === '')
    throw new TypeError(`resource "${uri}": name must be a non-empty string`);
  if (typeof handler !== 'function')
    throw new TypeError(`resource "${uri}": the handler must be a function`);
  const wire = copyDefined<Spec.Resource>({ uri, name }, definition, DEFINITION_KEYS);
  return { uri, wire, handler, scopes: checkScopes(definition.scopes, `resource "${uri}"`) };
}

/** Compiles a resource template; throws TypeError on an invalid RFC 6570 template. */
export function compileTemplate(
  definition: ResourceTemplateDefinition,
  handler: ResourceTemplateHandler,
): CompiledTemplate {
  const { uriTemplate, name } = definition;
  const scopes = checkScopes(definition.scopes, `resource template "${uriTemplate}"`);
  let template: UriTemplate;
  try {
    template = UriTemplate.parse(uriTemplate);
  } catch (error) {
    const reason = messageOf(error);
    throw new TypeError(`invalid URI template ${JSON.stringify(uriTemplate)}: ${reason}`, {
      cause: error,
    });
  }
  if (typeof name !== 'string' || name === '') {
    throw new TypeError(`resource template "${uriTemplate}": name must be a non-empty string`);
  }
  if (typeof handler !== 'function')
    throw new TypeError(`resource template "${uriTemplate}": the handler must be a function`);
  for (const variable of Object.keys(definition.complete ?? {})) {
    if (!template.variableNames.includes(variable)) {
      throw new TypeError(
        `resource template "${uriTemplate}": cannot complete unknown variable "${variable}"`,
      );
    }
  }
  const wire = copyDefined<Spec.ResourceTemplate>(
    { uriTemplate, name },
    definition,
    DEFINITION_KEYS,
  );
  return { name, template, wire, definition, handler, scopes };
}

/** Normalizes what a read handler returned into a ReadResourceResult for `uri`. */
export function toReadResult(
  returned: ResourceReturn,
  uri: string,
  mimeType: string | undefined,
): Spec.ReadResourceResult {
  // Fields set one by one: a spread followed by properties (`{ ...base, text }`) takes V8's slow
  // runtime path on Node 20, about 1.5 µs a time (bench/RESULTS.md).
  const content: Record<string, unknown> = { uri };
  if (mimeType !== undefined) content['mimeType'] = mimeType;
  if (typeof returned === 'string') {
    content['text'] = returned;
    return { contents: [content] } as unknown as Spec.ReadResourceResult;
  }
  if (returned instanceof Uint8Array) {
    content['blob'] = toBase64(returned);
    return { contents: [content] } as unknown as Spec.ReadResourceResult;
  }
  if (typeof returned !== 'object' || !Array.isArray(returned.contents)) {
    throw new TypeError('a resource handler must return a string, bytes or { contents: [...] }');
  }
  return { ...returned } as unknown as Spec.ReadResourceResult;
}

/** What serves `uri`: its static resource, else the first template that matches it. */
export function servingResource(
  where: {
    resources: ReadonlyMap<string, CompiledResource>;
    templates: readonly CompiledTemplate[];
  },
  uri: string,
): CompiledResource | CompiledTemplate | undefined {
  return (
    where.resources.get(uri) ?? where.templates.find((t) => t.template.match(uri) !== undefined)
  );
}

/** Reads `uri` from what serves it (see servingResource); undefined when its handler said so. */
export async function readResource(
  uri: string,
  serving: CompiledResource | CompiledTemplate,
  ctx: HandlerContext,
): Promise<Spec.ReadResourceResult | undefined> {
  // A handler that returns undefined says the resource does not exist: "resource not found".
  const returned =
    'template' in serving
      ? await serving.handler(uri, serving.template.match(uri) ?? {}, ctx)
      : await serving.handler(uri, ctx);
  return returned === undefined ? undefined : toReadResult(returned, uri, serving.wire.mimeType);
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

/** A listed resource (from a template's `list`) as the wire shape of `revision`. */
export function trimResource(definition: ResourceDefinition, revision: ProtocolRevision): object {
  const wire = copyDefined<Spec.Resource>(
    { uri: definition.uri, name: definition.name },
    definition,
    DEFINITION_KEYS,
  );
  return trimDefinition(wire, 'Resource', revision);
}
