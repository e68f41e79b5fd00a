// The token counter of mcpkit (the host's budgets and `mcpkit budget` share it): gpt-tokenizer's
// o200k_base encoding (GPT-4o and later), an optional peer dependency loaded on first use. Other
// models tokenize differently, and hosts wrap tools in their own framing, so the counts are a
// close estimate of what a host pays, not an exact bill.
import type * as O200k from 'gpt-tokenizer/encoding/o200k_base';
import type { Tool } from '../client/index.js';

/** The encoding counts are made with. */
export const ENCODING = 'o200k_base';

/** Counts the tokens of a text. */
export type CountTokens = (text: string) => number;

/** Counts tokens, and cuts a text to a number of tokens. */
export interface Tokenizer {
  /** `o200k_base`, or `estimate` (4 characters a token) when gpt-tokenizer is missing. */
  readonly encoding: string;
  readonly count: CountTokens;
  /** The longest prefix of `text` of at most `tokens` tokens. */
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

/** Loads the o200k_base tokenizer. Rejects when gpt-tokenizer is not installed. */
export async function loadTokenizer(): Promise<Tokenizer> {
  const encoding: typeof O200k = await import('gpt-tokenizer/encoding/o200k_base');
  // Special-token markers (<|endoftext|>) in a text are counted as plain text.
  const options = { disallowedSpecial: new Set<string>() };
  return {
    encoding: ENCODING,
    count: (text) => encoding.encode(text, options).length,
    cut: (text, tokens) => {
      const encoded = encoding.encode(text, options);
      if (encoded.length <= tokens) return text;
      // A token may end inside a character; drop a broken last character.
      return encoding.decode(encoded.slice(0, Math.max(0, tokens))).replace(/\uFFFD$/, '');
    },
  };
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
