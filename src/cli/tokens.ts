// Token counts of tool definitions, for budget and lint. The tokenizer is gpt-tokenizer's
// o200k_base encoding (GPT-4o and later), an optional peer dependency loaded on first use. Other
// models tokenize differently, and hosts wrap tools in their own framing, so the counts are a
// close estimate of what a host pays, not an exact bill.
import type * as O200k from 'gpt-tokenizer/encoding/o200k_base';
import type { Tool } from '../client/index.js';
import { CliError } from './errors.js';

/** The encoding counts are made with. */
export const ENCODING = 'o200k_base';

/** Counts the tokens of a text. */
export type CountTokens = (text: string) => number;

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

/** Loads the o200k_base tokenizer. Throws CliError with an install hint when it is missing. */
export async function loadTokenizer(): Promise<CountTokens> {
  let encoding: typeof O200k;
  try {
    encoding = await import('gpt-tokenizer/encoding/o200k_base');
  } catch (error) {
    throw new CliError('counting tokens needs the gpt-tokenizer package, which is not installed', {
      hint: 'install it next to mcpkit: npm install gpt-tokenizer',
      cause: error,
    });
  }
  // Special-token markers (<|endoftext|>) in a description are counted as plain text.
  const options = { disallowedSpecial: new Set<string>() };
  return (text) => encoding.encode(text, options).length;
}
