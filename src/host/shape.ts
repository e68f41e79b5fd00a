// Result shaping: an MCP tool result (or the failure of a call) turned into the tool_result a
// model gets. Each rule is its own function; shapeResult applies them in order.
import type { CallToolResult, ReadResourceResult } from '../client/index.js';
import type { Tokenizer } from '../catalogue/index.js';
import type { HandOffSettings } from './handoff.js';
import { RANGED_LENGTH_META, handOff } from './handoff.js';
import type { ModelCapabilities, ResultContent, TextPart } from './types.js';
import { messageOf } from '../internal/message-of.js';

/** What a model gets back for one call. */
export interface ShapedResult {
  readonly content: ResultContent[];
  readonly isError: boolean;
  /** Set when the text was cut to the budget. */
  readonly truncated?: { readonly tokens: number; readonly keptTokens: number };
}

/** Settings of {@link shapeResult}. */
export interface ShapeOptions {
  readonly capabilities: ModelCapabilities;
  readonly tokenizer: Tokenizer;
  /** The budget of one result, in tokens. Default {@link DEFAULT_RESULT_TOKENS}. */
  readonly maxTokens?: number;
  /** A tool's own limit in characters (`_meta["anthropic/maxResultSizeChars"]`), which raises the budget. */
  readonly maxChars?: number;
  /**
   * Reads a `resource_link`'s resource (through the tool's server), when the host allows it;
   * absent: links are passed as text.
   */
  readonly readResource?: (uri: string) => Promise<ReadResourceResult>;
  /** Most characters a resolved link contributes. Default 20,000. */
  readonly maxLinkChars?: number;
  /**
   * Hand a result over the budget off instead of cutting it (handoff.ts): kept in `store`, the
   * model gets `headTokens` and how to read on; a `resource_link` (not resolved) is registered in
   * `store`, read through `read` when the model asks.
   */
  readonly handOff?: HandOffSettings;
}

/** The default budget of one tool result, in tokens (Claude Code's cap). */
export const DEFAULT_RESULT_TOKENS = 25_000;

/** The `_meta` key by which a tool raises its result limit, in characters. */
export const MAX_RESULT_CHARS_META = 'anthropic/maxResultSizeChars';

type Block = CallToolResult['content'][number];
type Out = ResultContent;

/**
 * Shapes a result. Contracts: `isError` is kept; the content blocks become parts by
 * {@link shapeBlock}; with no content, `structuredContent` is sent as JSON text (it is never
 * sent when content is present: the caller keeps it on the call record); the text is then cut
 * to the budget by {@link truncateParts}.
 */
export async function shapeResult(
  result: CallToolResult,
  options: ShapeOptions,
): Promise<ShapedResult> {
  const parts: Out[] = [];
  for (const block of result.content) parts.push(...(await shapeBlock(block, options)));
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  }
  const kept = handOffOver(parts, options);
  if (kept !== undefined) return { ...kept, isError: result.isError === true };
  const cut = truncateParts(parts, options);
  return {
    content: cut.parts,
    isError: result.isError === true,
    ...(cut.truncated === undefined ? {} : { truncated: cut.truncated }),
  };
}

/** A result over the budget handed off, when the options hand off and the tool sets no limit. */
function handOffOver(
  parts: Out[],
  options: ShapeOptions,
): Omit<ShapedResult, 'isError'> | undefined {
  const settings = options.handOff;
  if (settings === undefined || options.maxChars !== undefined) return undefined;
  const off = handOff(parts, {
    tokenizer: options.tokenizer,
    maxTokens: options.maxTokens ?? DEFAULT_RESULT_TOKENS,
    headTokens: settings.headTokens,
    store: settings.store,
  });
  return off === undefined
    ? undefined
    : { content: off.parts, truncated: { tokens: off.tokens, keptTokens: off.keptTokens } };
}

/** The result of a call that failed (a protocol error, a lost connection): the message, as an error. */
export function errorResult(error: unknown): ShapedResult {
  const message = messageOf(error);
  return { content: [{ type: 'text', text: `Error: ${message}` }], isError: true };
}

/** The result of a call the user refused. */
export function declinedResult(reason = 'the user declined this tool call'): ShapedResult {
  return { content: [{ type: 'text', text: `Error: ${reason}` }], isError: true };
}

/**
 * One content block as parts. Text passes; an image or audio passes when the model takes it,
 * else becomes a note ({@link mediaNote}); a `resource_link` is read when allowed
 * ({@link resolveLink}), else described ({@link linkText}); an embedded resource becomes text
 * ({@link embeddedResource}).
 */
export async function shapeBlock(block: Block, options: ShapeOptions): Promise<Out[]> {
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: block.text }];
    case 'image':
      return options.capabilities.vision
        ? [{ type: 'image', data: block.data, mimeType: block.mimeType }]
        : [mediaNote('image', block.mimeType, block.data)];
    case 'audio':
      return options.capabilities.audio
        ? [{ type: 'audio', data: block.data, mimeType: block.mimeType }]
        : [mediaNote('audio', block.mimeType, block.data)];
    case 'resource_link': {
      if (options.readResource !== undefined) {
        return resolveLink(block, options.readResource, options.maxLinkChars ?? 20_000);
      }
      const { store, read } = options.handOff ?? {};
      if (store === undefined || read === undefined) return [linkText(block)];
      const total = block._meta?.[RANGED_LENGTH_META];
      store.link(block.uri, read, typeof total === 'number' ? total : undefined);
      const hint = ` read it in slices with read_result {"id": ${JSON.stringify(block.uri)}, "offset": 0, "length": 20000}`;
      return [{ type: 'text', text: `${linkText(block).text}${hint}` }];
    }
    case 'resource':
      return [embeddedResource(block.resource, options)];
    default:
      return [{ type: 'text', text: JSON.stringify(block) }];
  }
}

/** The note that stands for an image or audio the model cannot take. */
export function mediaNote(kind: 'image' | 'audio', mimeType: string, data: string): TextPart {
  const bytes = Math.floor((data.length * 3) / 4);
  return {
    type: 'text',
    text: `[${kind} omitted: ${mimeType}, ${formatBytes(bytes)}; this model does not take ${kind === 'image' ? 'images' : 'audio'}]`,
  };
}

type Link = Extract<Block, { type: 'resource_link' }>;

/** A `resource_link` as text: its name, URI, media type and description. */
export function linkText(link: Link): TextPart {
  const details = [link.mimeType, link.description].filter((v) => v !== undefined).join('; ');
  return {
    type: 'text',
    text: `[resource link: ${link.name} <${link.uri}>${details === '' ? '' : ` (${details})`}]`,
  };
}

/**
 * A `resource_link` read through `resources/read`: its text contents (each cut to `maxChars`,
 * with a note), binary contents described; a failed read falls back to {@link linkText} with
 * the reason.
 */
export async function resolveLink(
  link: Link,
  read: (uri: string) => Promise<ReadResourceResult>,
  maxChars: number,
): Promise<TextPart[]> {
  let result: ReadResourceResult;
  try {
    result = await read(link.uri);
  } catch (error) {
    const reason = messageOf(error);
    return [{ type: 'text', text: `${linkText(link).text} (could not be read: ${reason})` }];
  }
  return result.contents.map((contents) => {
    if ('text' in contents) {
      const text =
        contents.text.length <= maxChars
          ? contents.text
          : `${contents.text.slice(0, maxChars)}\n[cut: the resource has ${String(contents.text.length)} characters; the first ${String(maxChars)} are shown]`;
      return { type: 'text', text: `Resource ${contents.uri}:\n${text}` };
    }
    const bytes = Math.floor((contents.blob.length * 3) / 4);
    return {
      type: 'text',
      text: `[resource ${contents.uri}: ${contents.mimeType ?? 'binary'}, ${formatBytes(bytes)}, not shown]`,
    };
  });
}

type Embedded = Extract<Block, { type: 'resource' }>['resource'];

/**
 * An embedded resource: text with its URI; an image for a vision model; a PDF as a document for
 * a model that takes them; other binary contents described.
 */
export function embeddedResource(resource: Embedded, options: ShapeOptions): Out {
  if ('text' in resource)
    return { type: 'text', text: `Resource ${resource.uri}:\n${resource.text}` };
  const mimeType = resource.mimeType ?? 'application/octet-stream';
  if (mimeType.startsWith('image/') && options.capabilities.vision) {
    return { type: 'image', data: resource.blob, mimeType };
  }
  if (mimeType === 'application/pdf' && options.capabilities.documents !== false) {
    return { type: 'document', data: resource.blob, mimeType, title: resource.uri };
  }
  const bytes = Math.floor((resource.blob.length * 3) / 4);
  return {
    type: 'text',
    text: `[resource ${resource.uri}: ${mimeType}, ${formatBytes(bytes)}, not shown]`,
  };
}

/**
 * Cuts the text parts to the budget. Contracts: nothing changes when the text counts at most
 * `maxTokens` tokens, or fits the tool's own `maxChars`; else the text is kept, in order, up to
 * the budget (the larger of `maxTokens` tokens and `maxChars` characters), the rest dropped, and
 * a note appended that says how much there was and how much is shown. Images and audio are not
 * counted.
 */
export function truncateParts(
  parts: readonly Out[],
  options: Pick<ShapeOptions, 'tokenizer' | 'maxTokens' | 'maxChars'>,
): { parts: Out[]; truncated?: { tokens: number; keptTokens: number } } {
  const { tokenizer } = options;
  const budget = options.maxTokens ?? DEFAULT_RESULT_TOKENS;
  const texts = parts.filter((part): part is TextPart => part.type === 'text');
  const chars = texts.reduce((sum, part) => sum + part.text.length, 0);
  if (options.maxChars !== undefined && chars <= options.maxChars) return { parts: [...parts] };
  // Cheap bound first: a token is at least one character.
  const tokens = chars <= budget ? chars : texts.reduce((s, p) => s + tokenizer.count(p.text), 0);
  if (tokens <= budget) return { parts: [...parts] };
  const out: Out[] = [];
  let left = budget;
  let leftChars = options.maxChars ?? 0;
  for (const part of parts) {
    if (part.type !== 'text') {
      out.push(part);
      continue;
    }
    if (left <= 0 && leftChars <= 0) continue;
    const byTokens = tokenizer.cut(part.text, left);
    const byChars = part.text.slice(0, Math.max(0, leftChars));
    const kept = byChars.length > byTokens.length ? byChars : byTokens;
    left -= tokenizer.count(byTokens);
    leftChars -= kept.length;
    if (kept !== '') out.push({ type: 'text', text: kept });
  }
  const keptText = out.filter((p): p is TextPart => p.type === 'text').map((p) => p.text);
  const keptTokens = keptText.reduce((sum, text) => sum + tokenizer.count(text), 0);
  const keptChars = keptText.reduce((sum, text) => sum + text.length, 0);
  out.push({
    type: 'text',
    text: `[truncated: the result had ${String(tokens)} tokens (${String(chars)} characters); the first ${String(keptTokens)} tokens (${String(keptChars)} characters) are shown, the rest was cut to fit the budget of ${String(budget)} tokens]`,
  });
  return { parts: out, truncated: { tokens, keptTokens } };
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${String(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The answer to a malformed call, which was not run. */
export function notRun(problem: string): ShapedResult {
  return {
    content: [{ type: 'text', text: `Error: this tool call was not run: ${problem}` }],
    isError: true,
  };
}

/** The answer to a call of a tool the catalog does not hold: the first 50 names it does. */
export function unknownTool(name: string, catalog: ReadonlyMap<string, unknown>): ShapedResult {
  const names = [...catalog.keys()].slice(0, 50).join(', ');
  return {
    content: [
      {
        type: 'text',
        text: `Error: there is no tool "${name}"; the tools are: ${names === '' ? '(none)' : names}`,
      },
    ],
    isError: true,
  };
}
