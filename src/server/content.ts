// Content blocks for older clients. A handler writes content once, in the newest revision's
// shapes; a legacy revision that lacks a block type gets an equivalent text block instead, so
// every result is valid in the revision the client speaks. `audio` came in 2025-03-26 and
// `resource_link` in 2025-06-18 (spec <revision>/schema.json, ContentBlock).
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { ProtocolRevision } from '../protocol/version.js';

/** The block types each revision lacks (revisions that lack none are absent). */
const MISSING: Partial<Record<ProtocolRevision, ReadonlySet<string>>> = {
  '2024-11-05': new Set(['audio', 'resource_link']),
  '2025-03-26': new Set(['resource_link']),
};

type Block = Record<string, unknown> & { type?: unknown };

/**
 * `block` as `revision` can carry it: unchanged when the revision has its type, else a text
 * block that says what it was (a resource link names its URI, so the client can still read it).
 */
export function blockFor<TBlock>(block: TBlock, revision: ProtocolRevision): TBlock {
  const missing = MISSING[revision];
  if (missing === undefined || typeof block !== 'object' || block === null) return block;
  const source = block as Block;
  if (typeof source.type !== 'string' || !missing.has(source.type)) return block;
  const text: Record<string, unknown> = { type: 'text', text: describe(source, revision) };
  if (source['annotations'] !== undefined) text['annotations'] = source['annotations'];
  return text as TBlock;
}

function describe(block: Block, revision: ProtocolRevision): string {
  const field = (key: string): string | undefined =>
    typeof block[key] === 'string' ? block[key] : undefined;
  if (block.type === 'resource_link') {
    const label = field('title') ?? field('name');
    const mimeType = field('mimeType');
    const description = field('description');
    let text = label === undefined ? '' : `${label}: `;
    text += field('uri') ?? '';
    if (mimeType !== undefined) text += ` (${mimeType})`;
    if (description !== undefined) text += ` - ${description}`;
    return text;
  }
  const mimeType = field('mimeType') ?? 'unknown type';
  return `[${String(block.type)} content (${mimeType}) left out: protocol revision ${revision} cannot carry it]`;
}

/** A tools/call result whose content `revision` can carry (the same object when it can). */
export function toolResultFor(
  result: Spec.CallToolResult,
  revision: ProtocolRevision,
): Spec.CallToolResult {
  // A handler may return any object: content is checked, not assumed.
  const blocks: unknown = result.content;
  if (MISSING[revision] === undefined || !Array.isArray(blocks)) return result;
  const content = result.content.map((block) => blockFor(block, revision));
  return content.every((block, i) => block === result.content[i]) ? result : { ...result, content };
}

/** A prompts/get result whose messages `revision` can carry (the same object when it can). */
export function promptResultFor(
  result: Spec.GetPromptResult,
  revision: ProtocolRevision,
): Spec.GetPromptResult {
  if (MISSING[revision] === undefined) return result;
  const messages = result.messages.map((message) => {
    const content = blockFor(message.content, revision);
    return content === message.content ? message : { ...message, content };
  });
  return messages.every((message, i) => message === result.messages[i])
    ? result
    : { ...result, messages };
}

/** The string fields each block type requires (2026-07-28 schema.json, ContentBlock). */
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  text: ['text'],
  image: ['data', 'mimeType'],
  audio: ['data', 'mimeType'],
  resource_link: ['uri', 'name'],
  resource: [],
};

/**
 * What is wrong with `block` as a content block of the newest revision, or undefined when it is
 * one: a known `type` with its required fields (an embedded resource: `uri` and `text` or `blob`).
 */
export function contentBlockProblem(block: unknown): string | undefined {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) {
    return 'a content block must be an object';
  }
  const source = block as Block;
  const required = typeof source.type === 'string' ? REQUIRED[source.type] : undefined;
  if (required === undefined) {
    return `unknown content type ${JSON.stringify(source.type)} (one of ${Object.keys(REQUIRED).join(', ')})`;
  }
  for (const key of required) {
    if (typeof source[key] !== 'string')
      return `a ${String(source.type)} block needs a string "${key}"`;
  }
  if (source.type !== 'resource') return undefined;
  const resource = source['resource'] as Record<string, unknown> | null | undefined;
  if (typeof resource !== 'object' || resource === null || typeof resource['uri'] !== 'string') {
    return 'a resource block needs "resource" with a string "uri"';
  }
  if (typeof resource['text'] !== 'string' && typeof resource['blob'] !== 'string') {
    return 'a resource block\'s "resource" needs a string "text" or "blob"';
  }
  return undefined;
}
