// Result shaping under hostile text: a huge result is cut to its token budget in bounded time
// with the real tokenizer (issue #36, point 1; the counter's own tests are in src/catalogue/).
import { describe, expect, it } from 'vitest';
import { loadTokenizer } from '../catalogue/index.js';
import { truncateParts } from './shape.js';

const tokenizer = await loadTokenizer();

describe('truncateParts', () => {
  it('truncates 3 MB of one character in under a second', () => {
    const parts = [{ type: 'text' as const, text: 'B'.repeat(3_000_000) }];
    const start = performance.now();
    const result = truncateParts(parts, { tokenizer, maxTokens: 10_000 });
    expect(performance.now() - start).toBeLessThan(1000);
    const kept = result.parts[0];
    expect(kept?.type === 'text' && kept.text.length).toBeGreaterThan(0);
    expect(result.truncated?.keptTokens).toBeLessThanOrEqual(10_000);
  });
});
