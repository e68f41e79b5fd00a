// Token counts of tool definitions, for budget and lint: the host's counter (gpt-tokenizer's
// o200k_base, an optional peer loaded on first use), with the CLI's install hint.
import { loadTokenizer as loadHostTokenizer } from '../host/tokens.js';
import type { CountTokens } from '../host/tokens.js';
import { CliError } from './errors.js';

// One counter: the host's (src/host/tokens.ts) is the one `mcpkit budget` and lint use.
export { ENCODING, serializeTool } from '../host/tokens.js';
export type { CountTokens } from '../host/tokens.js';

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
