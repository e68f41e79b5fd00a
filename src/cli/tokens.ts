// Token counts of tool definitions, for budget and lint: the catalogue's counter (gpt-tokenizer's
// o200k_base, an optional peer loaded on first use), with the CLI's install hint.
import { loadTokenizer as loadHostTokenizer } from '../catalogue/index.js';
import type { CountTokens } from '../catalogue/index.js';
import { CliError } from './errors.js';

// One counter: the catalogue's (src/catalogue/tokens.ts) is the one `mcpkit budget` and lint use.
export { ENCODING, serializeTool } from '../catalogue/index.js';
export type { CountTokens } from '../catalogue/index.js';

/** Loads the o200k_base tokenizer. Throws CliError with an install hint when it is missing. */
export async function loadTokenizer(): Promise<CountTokens> {
  try {
    return (await loadHostTokenizer()).count;
  } catch (error) {
    throw new CliError('counting tokens needs the gpt-tokenizer package, which is not installed', {
      hint: 'install it next to mcpkit: npm install gpt-tokenizer',
      cause: error,
    });
  }
}
