// The configs of docs/gateway.md's "Rate limits and quotas" and "Upstream credentials" sections
// parse as the gateway reads them (a config in the docs that the gateway would refuse is a bug).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseGatewayConfig } from '../../src/gateway/index.js';

const DOC = readFileSync(fileURLToPath(new URL('../../docs/gateway.md', import.meta.url)), 'utf8');

/** The ```json blocks of the doc that are configs using `key`. */
function configsWith(key: string): unknown[] {
  const blocks = [...DOC.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
  return blocks
    .filter((block) => block.includes('"mcpServers"') && block.includes(`"${key}"`))
    .map((block) => JSON.parse(block) as unknown);
}

describe('docs/gateway.md configs', () => {
  it('the rate limits config parses into the buckets the text describes', () => {
    const [config] = configsWith('rateLimits');
    const parsed = parseGatewayConfig(config);
    expect(parsed.rateLimits?.principal).toMatchObject({
      rate: 120,
      capacity: 20,
      periodMs: 60_000,
    });
    expect(parsed.rateLimits?.tools?.map((rule) => rule.pattern)).toEqual([
      'search_*',
      'create_issue',
    ]);
    expect(parsed.rateLimits?.maxConcurrent).toEqual({ github: 8 });
  });

  it('the credentials config parses, naming secrets by environment variable only', () => {
    const [config] = configsWith('credentials');
    const parsed = parseGatewayConfig(config);
    expect(Object.keys(parsed.credentials ?? {})).toEqual(['search', 'tickets', 'repos']);
    expect(parsed.credentials?.['search']).toEqual({
      type: 'env',
      env: 'SEARCH_API_KEY',
      header: 'authorization',
      scheme: 'Bearer',
    });
    expect(parsed.credentials?.['repos']).toMatchObject({
      type: 'token_exchange',
      tokenEndpoint: 'https://auth.internal/oauth/token',
    });
  });
});
