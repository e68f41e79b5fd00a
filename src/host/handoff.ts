// Large results handed off instead of cut: a result over the budget is kept by the host (or left
// with its server, when the result links a resource), and the model gets its head and how to read
// the rest in slices through the host's `read_result` tool.
import type { ReadResourceResult } from '../client/index.js';
import type { Tokenizer } from '../catalogue/index.js';
import type { ModelTool, ResultContent, TextPart } from './types.js';
import { messageOf } from '../internal/message-of.js';

/** The name of the tool that reads a kept result. */
export const READ_RESULT = 'read_result';

/** The most characters one `read_result` returns. */
export const MAX_READ_CHARS = 50_000;

/** The `read_result` tool, as the model sees it. */
export const READ_RESULT_DEFINITION: ModelTool = {
  name: READ_RESULT,
  description:
    'Reads a slice of a large tool result that was handed off: give the id (or the resource URI) the result named, the character offset to start at and how many characters to read (at most 50000).',
  inputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'The id of the kept result, or the URI of the resource.' },
      offset: { type: 'integer', minimum: 0, description: 'The first character; default 0.' },
      length: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_READ_CHARS,
        description: 'How many characters; default 20000.',
      },
    },
    required: ['id'],
    additionalProperties: false,
  },
};

/** Options of the hand-off (the host's `handOff`). */
export interface HandOffOptions {
  /** The tokens of a handed-off result the model gets at once. Default 2,000. */
  readonly headTokens?: number;
  /** The most characters the host keeps, over all results (the oldest go first). Default 32 MiB. */
  readonly maxChars?: number;
}

/** What a read answers (a ShapedResult). */
interface Answer {
  readonly content: ResultContent[];
  readonly isError: boolean;
}

/** What shapeResult takes to hand off (its `handOff` option). */
export interface HandOffSettings {
  readonly store: ResultStore;
  readonly headTokens: number;
  readonly read?: (uri: string) => Promise<ReadResourceResult>;
}

/** The `_meta` key of a ranged resource link: the characters of the whole (largeResults). */
export const RANGED_LENGTH_META = 'mcpkit/length';

/** The shaping settings of the host's `handOff` option (undefined: off). */
export function handOffSettings(
  option: boolean | HandOffOptions | undefined,
  store: ResultStore,
  read: (uri: string) => Promise<ReadResourceResult>,
): HandOffSettings | undefined {
  if (option === false) return undefined;
  return { store, read, headTokens: (option === true ? undefined : option?.headTokens) ?? 2000 };
}

/** A kept result, or a resource its server serves. */
type Kept =
  | { readonly text: string }
  | { readonly read: () => Promise<ReadResourceResult> }
  | { readonly total: number; readonly read: (uri: string) => Promise<ReadResourceResult> };

/**
 * The host's store of handed-off results. Contracts: bounded by `maxChars` over all texts (the
 * oldest are dropped first, a read of a dropped one is an error the model can read); ids are
 * `r1`, `r2`, ... in order; a resource is registered by its URI and read when asked, its text
 * cached within the same bound.
 */
export class ResultStore {
  readonly #kept = new Map<string, Kept>();
  readonly #maxChars: number;
  #chars = 0;
  #next = 0;

  constructor(maxChars: number = 32 * 1024 * 1024) {
    this.#maxChars = maxChars;
  }

  /** Whether anything was handed off (then the model is offered `read_result`). */
  get used(): boolean {
    return this.#next > 0;
  }

  /** Keeps `text`; returns its id. */
  keep(text: string): string {
    const id = `r${String(++this.#next)}`;
    this.#add(id, text);
    return id;
  }

  /**
   * Registers a resource a result linked, read through its server when asked: whole (then cached
   * and sliced here), or, for a ranged resource of `total` characters (largeResults of
   * mcpkit/server), one slice at a time by `?offset=&length=`.
   */
  link(uri: string, read: (uri: string) => Promise<ReadResourceResult>, total?: number): void {
    this.#next++;
    if (this.#kept.has(uri)) return;
    this.#kept.set(uri, total === undefined ? { read: () => read(uri) } : { total, read });
  }

  /** Answers a `read_result` call. */
  async read(args: Record<string, unknown>): Promise<Answer> {
    const id = typeof args['id'] === 'string' ? args['id'] : '';
    const offset = integer(args['offset'], 0);
    const asked = integer(args['length'], 20_000);
    const length = asked === undefined ? undefined : Math.min(MAX_READ_CHARS, asked);
    if (offset === undefined || length === undefined || length < 1) {
      return failure('offset must be an integer of at least 0 and length one of at least 1');
    }
    let kept = this.#kept.get(id);
    if (kept === undefined)
      return failure(`there is no kept result "${id}" (it may have been dropped)`);
    if ('total' in kept) {
      const sep = id.includes('?') ? '&' : '?';
      const uri = `${id}${sep}offset=${String(offset)}&length=${String(length)}`;
      let slice: string;
      try {
        slice = resourceText(await kept.read(uri)).slice(0, length);
      } catch (error) {
        return failure(`the resource could not be read: ${messageOf(error)}`);
      }
      return sliceAnswer(id, slice, { offset, total: kept.total });
    }
    if ('read' in kept) {
      try {
        kept = { text: resourceText(await kept.read()) };
      } catch (error) {
        return failure(`the resource could not be read: ${messageOf(error)}`);
      }
      this.#kept.delete(id);
      this.#add(id, kept.text);
    }
    return sliceAnswer(id, kept.text.slice(offset, offset + length), {
      offset,
      total: kept.text.length,
    });
  }

  #add(id: string, value: string): void {
    this.#kept.set(id, { text: value });
    this.#chars += value.length;
    for (const [key, entry] of this.#kept) {
      if (this.#chars <= this.#maxChars || key === id) break;
      if ('text' in entry) this.#chars -= entry.text.length;
      this.#kept.delete(key);
    }
  }
}

/**
 * Hands a result off when its text is over `maxTokens`: the text parts are kept whole in `store`
 * and replaced by the first `headTokens` tokens and a note naming the id, the size and the
 * `read_result` call that reads on; other parts pass. Returns undefined under the budget.
 */
export function handOff(
  parts: readonly ResultContent[],
  options: { tokenizer: Tokenizer; maxTokens: number; headTokens: number; store: ResultStore },
): { parts: ResultContent[]; tokens: number; keptTokens: number } | undefined {
  const texts = parts.filter((part): part is TextPart => part.type === 'text');
  const whole = texts.map((part) => part.text).join('\n');
  if (whole.length <= options.maxTokens) return undefined;
  const tokens = options.tokenizer.count(whole);
  if (tokens <= options.maxTokens) return undefined;
  const id = options.store.keep(whole);
  const head = options.tokenizer.cut(whole, Math.min(options.headTokens, options.maxTokens));
  const note = `[handed off: the result has ${String(tokens)} tokens (${String(whole.length)} characters), above the budget of ${String(options.maxTokens)}; the first ${String(head.length)} characters are above. The host keeps it as "${id}": read the rest with read_result {"id": "${id}", "offset": ${String(head.length)}, "length": 20000}]`;
  return {
    parts: [text(head), ...parts.filter((part) => part.type !== 'text'), text(note)],
    tokens,
    keptTokens: options.tokenizer.count(head),
  };
}

/** A slice, and where it ends in the whole. */
function sliceAnswer(id: string, slice: string, at: { offset: number; total: number }): Answer {
  const { offset, total } = at;
  const end = offset + slice.length;
  const where = `[characters ${String(offset)}-${String(end)} of ${String(total)}`;
  const rest =
    end < total
      ? `${where}; read on with {"id": ${JSON.stringify(id)}, "offset": ${String(end)}}]`
      : `${where}; this is the end]`;
  return { content: [...(slice === '' ? [] : [text(slice)]), text(rest)], isError: false };
}

function resourceText(result: ReadResourceResult): string {
  return result.contents
    .map((c) => ('text' in c ? c.text : `[binary ${c.mimeType ?? ''}]`))
    .join('\n');
}

function integer(value: unknown, fallback: number): number | undefined {
  if (value === undefined) return fallback;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function text(value: string): TextPart {
  return { type: 'text', text: value };
}

function failure(message: string): Answer {
  return { content: [text(`Error: ${message}`)], isError: true };
}
