// The token counter of mcpkit (the host's budgets and `mcpkit budget` share it): gpt-tokenizer's
// o200k_base encoding (GPT-4o and later), an optional peer dependency loaded on first use. Other
// models tokenize differently, and hosts wrap tools in their own framing, so the counts are a
// close estimate of what a host pays, not an exact bill.
//
// The texts counted come from servers, which may be hostile. Byte-pair encoding is quadratic in
// the length of one pre-tokenizer piece ('B' × 100,000 is one piece: 26 s whole), so a text is
// encoded in chunks of whole pieces of at most CHUNK_CHARS characters, and a longer piece is
// cut into such chunks; and past MAX_COUNTED_CHARS a count is extrapolated, not encoded. Counting
// is thus linear in the text and bounded per call.
import type * as O200k from 'gpt-tokenizer/encoding/o200k_base';
import type { Tool } from '../client/index.js';

/** The encoding counts are made with. */
export const ENCODING = 'o200k_base';

/**
 * The longest text encoded in one call of the encoder, in UTF-16 units. A pre-tokenizer piece
 * longer than this (a run of letters, symbols or spaces with no break) is cut, and its count may
 * then differ from a whole encoding by about a token a cut; texts without such runs count exactly.
 */
export const CHUNK_CHARS = 512;

/**
 * The characters of one text that are encoded to count it. The count of a longer text is the
 * count of its first MAX_COUNTED_CHARS characters scaled to its length (far over any budget).
 */
export const MAX_COUNTED_CHARS = 100_000;

/**
 * o200k_base's pre-tokenizer (tiktoken's pattern, as gpt-tokenizer 4 has it; a unit test holds
 * the two equal). Chunks end where its pieces end, so that a chunk encodes as it would in place.
 */
const O200K_PIECES = String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`;

/** Counts the tokens of a text. */
export type CountTokens = (text: string) => number;

/** Counts tokens, and cuts a text to a number of tokens. */
export interface Tokenizer {
  /** `o200k_base`, or `estimate` (4 characters a token) when gpt-tokenizer is missing. */
  readonly encoding: string;
  /** The tokens of `text`; linear in its length, and bounded (see {@link MAX_COUNTED_CHARS}). */
  readonly count: CountTokens;
  /** The longest prefix of `text` of at most `tokens` tokens; linear in the prefix's length. */
  cut(text: string, tokens: number): string;
}

/**
 * The text a tool costs, as a host puts it in a model's context: compact JSON (no spaces) of
 * `{"name", "description", "input_schema", "output_schema"}` in that order, with the tool's
 * `name`, `description`, `inputSchema` and `outputSchema`; `description` and `output_schema`
 * are left out when the tool has none. Title, annotations, icons and `_meta` are not sent to
 * models and are not counted.
 */
export function serializeTool(tool: Tool): string {
  return JSON.stringify({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
    output_schema: tool.outputSchema,
  });
}

/**
 * `text` in consecutive slices of at most {@link CHUNK_CHARS} characters that end where an
 * o200k_base piece ends, but inside a piece longer than that (never between the two halves of
 * a surrogate pair). Lazy: a caller that stops early has scanned only what it took.
 */
export function* chunks(text: string): Generator<string, void, undefined> {
  const pieces = new RegExp(O200K_PIECES, 'gu');
  let start = 0; // where the chunk being gathered starts
  let end = 0; // where its last whole piece ends
  for (let match = pieces.exec(text); match !== null; match = pieces.exec(text)) {
    const pieceEnd = match.index + match[0].length;
    // Not after the space before a word (`\s+`): alone, a chunk's trailing spaces are one piece.
    const whole = !(ALL_SPACE.test(match[0]) && NOT_SPACE.test(text.charAt(pieceEnd)));
    if (pieceEnd - start <= CHUNK_CHARS) {
      if (whole) end = pieceEnd;
      continue;
    }
    if (end > start) yield text.slice(start, (start = end));
    while (pieceEnd - start > CHUNK_CHARS) {
      let cut = start + CHUNK_CHARS;
      if (isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
      yield text.slice(start, (start = cut));
    }
    end = whole ? pieceEnd : start;
  }
  if (start < text.length) yield text.slice(start);
}

/** A piece of white space only, and a character that is not white space. */
const ALL_SPACE = /^\s+$/u;
const NOT_SPACE = /^\S$/u;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Loads the o200k_base tokenizer. Rejects when gpt-tokenizer is not installed. */
export async function loadTokenizer(): Promise<Tokenizer> {
  const encoding: typeof O200k = await import('gpt-tokenizer/encoding/o200k_base');
  // Special-token markers (<|endoftext|>) in a text are counted as plain text.
  const options = { disallowedSpecial: new Set<string>() };
  const encode = (text: string): number[] => encoding.encode(text, options);
  const countChunk = (text: string): number => encoding.countTokens(text, options);
  return {
    encoding: ENCODING,
    count: (text) => countInChunks(text, countChunk),
    cut: (text, tokens) => cutInChunks(text, tokens, { encode, decode: encoding.decode }),
  };
}

/** The tokens of `text`, counted chunk by chunk up to MAX_COUNTED_CHARS, extrapolated past it. */
function countInChunks(text: string, countChunk: CountTokens): number {
  if (text.length <= CHUNK_CHARS) return countChunk(text);
  let tokens = 0;
  let counted = 0;
  for (const chunk of chunks(text)) {
    if (counted >= MAX_COUNTED_CHARS) break;
    tokens += countChunk(chunk);
    counted += chunk.length;
  }
  return counted === text.length ? tokens : Math.ceil((tokens / counted) * text.length);
}

/** An encoding's two directions. */
interface Codec {
  readonly encode: (text: string) => number[];
  readonly decode: (tokens: number[]) => string;
}

/** The longest prefix of `text` of at most `tokens` tokens, encoding only the chunks it needs. */
function cutInChunks(text: string, tokens: number, codec: Codec): string {
  const { encode, decode } = codec;
  let left = Math.max(0, Math.floor(tokens));
  let kept = 0;
  for (const chunk of chunks(text)) {
    const encoded = encode(chunk);
    if (encoded.length > left) {
      // A token may end inside a character; drop a broken last character.
      const part = decode(encoded.slice(0, left)).replace(/\uFFFD$/, '');
      return text.slice(0, kept) + part;
    }
    left -= encoded.length;
    kept += chunk.length;
  }
  return text;
}

/** A tokenizer that estimates 4 characters a token, for when gpt-tokenizer is missing. */
export const ESTIMATE: Tokenizer = {
  encoding: 'estimate',
  count: (text) => Math.ceil(text.length / 4),
  cut: (text, tokens) => text.slice(0, Math.max(0, tokens) * 4),
};

/** gpt-tokenizer's o200k_base when installed, else {@link ESTIMATE}. */
export async function loadTokenizerOrEstimate(): Promise<Tokenizer> {
  try {
    return await loadTokenizer();
  } catch {
    return ESTIMATE;
  }
}
