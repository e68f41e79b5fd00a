// The properties each revision's schema defines for the definition objects a server lists.
// A server speaks only what the negotiated revision has, so listings are trimmed to these.
// fields.test.ts checks this table against spec/<revision>/schema.json.
import type { ProtocolRevision } from './version.js';

/** A definition kind whose properties differ between revisions. */
export type DefinitionKind =
  | 'Tool'
  | 'Resource'
  | 'ResourceTemplate'
  | 'Prompt'
  | 'PromptArgument'
  | 'Implementation'
  | 'ServerCapabilities'
  | 'ToolAnnotations';

/** The property names of each definition kind, per revision. */
export const DEFINITION_FIELDS: Readonly<
  Record<ProtocolRevision, Readonly<Partial<Record<DefinitionKind, readonly string[]>>>>
> = {
  '2024-11-05': {
    Tool: ['description', 'inputSchema', 'name'],
    Resource: ['annotations', 'description', 'mimeType', 'name', 'size', 'uri'],
    ResourceTemplate: ['annotations', 'description', 'mimeType', 'name', 'uriTemplate'],
    Prompt: ['arguments', 'description', 'name'],
    PromptArgument: ['description', 'name', 'required'],
    Implementation: ['name', 'version'],
    ServerCapabilities: ['experimental', 'logging', 'prompts', 'resources', 'tools'],
  },
  '2025-03-26': {
    Tool: ['annotations', 'description', 'inputSchema', 'name'],
    Resource: ['annotations', 'description', 'mimeType', 'name', 'size', 'uri'],
    ResourceTemplate: ['annotations', 'description', 'mimeType', 'name', 'uriTemplate'],
    Prompt: ['arguments', 'description', 'name'],
    PromptArgument: ['description', 'name', 'required'],
    Implementation: ['name', 'version'],
    ServerCapabilities: ['completions', 'experimental', 'logging', 'prompts', 'resources', 'tools'],
    ToolAnnotations: [
      'destructiveHint',
      'idempotentHint',
      'openWorldHint',
      'readOnlyHint',
      'title',
    ],
  },
  '2025-06-18': {
    Tool: ['_meta', 'annotations', 'description', 'inputSchema', 'name', 'outputSchema', 'title'],
    Resource: ['_meta', 'annotations', 'description', 'mimeType', 'name', 'size', 'title', 'uri'],
    ResourceTemplate: [
      '_meta',
      'annotations',
      'description',
      'mimeType',
      'name',
      'title',
      'uriTemplate',
    ],
    Prompt: ['_meta', 'arguments', 'description', 'name', 'title'],
    PromptArgument: ['description', 'name', 'required', 'title'],
    Implementation: ['name', 'title', 'version'],
    ServerCapabilities: ['completions', 'experimental', 'logging', 'prompts', 'resources', 'tools'],
    ToolAnnotations: [
      'destructiveHint',
      'idempotentHint',
      'openWorldHint',
      'readOnlyHint',
      'title',
    ],
  },
  '2025-11-25': {
    Tool: [
      '_meta',
      'annotations',
      'description',
      'execution',
      'icons',
      'inputSchema',
      'name',
      'outputSchema',
      'title',
    ],
    Resource: [
      '_meta',
      'annotations',
      'description',
      'icons',
      'mimeType',
      'name',
      'size',
      'title',
      'uri',
    ],
    ResourceTemplate: [
      '_meta',
      'annotations',
      'description',
      'icons',
      'mimeType',
      'name',
      'title',
      'uriTemplate',
    ],
    Prompt: ['_meta', 'arguments', 'description', 'icons', 'name', 'title'],
    PromptArgument: ['description', 'name', 'required', 'title'],
    Implementation: ['description', 'icons', 'name', 'title', 'version', 'websiteUrl'],
    ServerCapabilities: [
      'completions',
      'experimental',
      'logging',
      'prompts',
      'resources',
      'tasks',
      'tools',
    ],
    ToolAnnotations: [
      'destructiveHint',
      'idempotentHint',
      'openWorldHint',
      'readOnlyHint',
      'title',
    ],
  },
  '2026-07-28': {
    Tool: [
      '_meta',
      'annotations',
      'description',
      'icons',
      'inputSchema',
      'name',
      'outputSchema',
      'title',
    ],
    Resource: [
      '_meta',
      'annotations',
      'description',
      'icons',
      'mimeType',
      'name',
      'size',
      'title',
      'uri',
    ],
    ResourceTemplate: [
      '_meta',
      'annotations',
      'description',
      'icons',
      'mimeType',
      'name',
      'title',
      'uriTemplate',
    ],
    Prompt: ['_meta', 'arguments', 'description', 'icons', 'name', 'title'],
    PromptArgument: ['description', 'name', 'required', 'title'],
    Implementation: ['description', 'icons', 'name', 'title', 'version', 'websiteUrl'],
    ServerCapabilities: [
      'completions',
      'experimental',
      'extensions',
      'logging',
      'prompts',
      'resources',
      'tools',
    ],
    ToolAnnotations: [
      'destructiveHint',
      'idempotentHint',
      'openWorldHint',
      'readOnlyHint',
      'title',
    ],
  },
};

/** Keeps only the fields `revision` defines for `kind` (nested prompt arguments too). */
export function trimDefinition(
  wire: object,
  kind: DefinitionKind,
  revision: ProtocolRevision,
): object {
  const fields = DEFINITION_FIELDS[revision][kind];
  if (fields === undefined) return wire;
  const source = wire as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const field of Object.keys(source)) {
    const value = source[field];
    if (value === undefined || !fields.includes(field)) continue;
    if (kind === 'Prompt' && field === 'arguments' && Array.isArray(value)) {
      result[field] = value.map((a: object) => trimDefinition(a, 'PromptArgument', revision));
    } else if (
      kind === 'Tool' &&
      field === 'annotations' &&
      typeof value === 'object' &&
      value !== null
    ) {
      result[field] = trimDefinition(value, 'ToolAnnotations', revision);
    } else {
      result[field] = value;
    }
  }
  return result;
}
