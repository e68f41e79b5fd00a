// The version of this mcpkit, read from its package.json (found by walking up from this file,
// so it works from src/cli, from dist/src/cli and from the bundles in dist/esm alike).
import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** The version of the installed mcpkit package, or `unknown`. */
export function version(): string {
  cached ??= readVersion();
  return cached;
}

function readVersion(): string {
  for (let up = 1; up <= 5; up += 1) {
    const url = new URL(`${'../'.repeat(up)}package.json`, import.meta.url);
    try {
      const parsed = JSON.parse(readFileSync(url, 'utf8')) as { name?: unknown; version?: unknown };
      if (parsed.name === 'mcpkit' && typeof parsed.version === 'string') return parsed.version;
    } catch {
      // No package.json at this level, or not ours: look one level up.
    }
  }
  return 'unknown';
}
