// The gateway's config: the `mcpServers` format (src/catalogue/servers-config.ts reads the
// servers), plus, per server, an optional `tools` object that curates what the gateway serves of it.
import type { ServerConfig } from '../catalogue/index.js';
import { MODEL_TOOL_NAME, parseServersConfig } from '../catalogue/index.js';

export type { Curation } from './curation.js';
import type { Curation } from './curation.js';
import type { TeamConfig } from './team-config.js';
import { parseTeamConfig } from './team-config.js';
import type { UpstreamLimits } from './upstream.js';
import type { RateLimitRules } from './limits/rules.js';
import { parseRateLimits } from './limits/rules.js';
import type { CredentialSpec } from './credentials.js';
import { parseCredentials } from './credentials.js';

/**
 * A parsed gateway config: the servers, their curation and limits, and the team parts
 * (endpoints, policies, identity, audit: ./team-config.ts).
 */
export interface GatewayConfig extends TeamConfig {
  readonly servers: Record<string, ServerConfig>;
  /** Curation by server name (servers without a `tools` object are absent). */
  readonly curation: Record<string, Curation>;
  /**
   * List caps by server name: the config's top-level `limits`, each field overridden by the
   * server's own `limits` (absent: the defaults of {@link UpstreamLimits}).
   */
  readonly limits?: Record<string, UpstreamLimits>;
  /** The top-level `rateLimits` (src/gateway/limits/rules.ts); absent: none. */
  readonly rateLimits?: RateLimitRules;
  /** What the gateway presents to each HTTP upstream with `credentials` (src/gateway/credentials.ts). */
  readonly credentials?: Record<string, CredentialSpec>;
}

/**
 * Reads a parsed config: `{"mcpServers": {name: entry}}` as hosts write it (see
 * parseServersConfig), where an entry may also carry `"tools": {"allow", "deny", "rename",
 * "describe"}` and `"limits": {"maxListItems", "maxListBytes"}`, and the config a top-level
 * `"limits"` for every server, and `endpoints`, `policies`, `identity`, `audit` (docs/gateway.md). Throws TypeError naming the entry and field at fault.
 */
export function parseGatewayConfig(json: unknown): GatewayConfig {
  const servers = parseServersConfig(json);
  const root = json as Record<string, unknown>;
  const entries = (root['mcpServers'] ?? root['servers']) as Record<string, unknown>;
  const shared = parseLimits(root['limits'], (what) => new TypeError(`the config ${what}`));
  const curation: Record<string, Curation> = {};
  let credentials: Record<string, CredentialSpec> | undefined;
  const limits: Record<string, UpstreamLimits> = {};
  for (const name of Object.keys(servers)) {
    const entry = entries[name] as Record<string, unknown>;
    const bad = (what: string) => new TypeError(`server "${name}" ${what}`);
    limits[name] = { ...shared, ...parseLimits(entry['limits'], bad) };
    if (entry['credentials'] !== undefined) {
      if (!('url' in (servers[name] as object))) throw bad('has "credentials" but no "url"');
      (credentials ??= {})[name] = parseCredentials(entry['credentials'], bad);
    }
    if (entry['tools'] === undefined) continue;
    curation[name] = parseCuration(entry['tools'], bad);
  }
  const rateLimits =
    root['rateLimits'] === undefined
      ? {}
      : { rateLimits: parseRateLimits(root['rateLimits'], Object.keys(servers)) };
  return {
    servers,
    curation,
    limits,
    ...parseTeamConfig(root, Object.keys(entries), parseCuration),
    ...rateLimits,
    ...(credentials === undefined ? {} : { credentials }),
  };
}

function parseLimits(value: unknown, bad: (what: string) => TypeError): UpstreamLimits {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw bad('has "limits" that is not an object ({"maxListItems", "maxListBytes"})');
  }
  const out: Record<string, number> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key !== 'maxListItems' && key !== 'maxListBytes') {
      throw bad(`has an unknown field "limits.${key}" (maxListItems, maxListBytes)`);
    }
    if (typeof item !== 'number' || !Number.isSafeInteger(item) || item < 1) {
      throw bad(`has "limits.${key}" that is not a positive integer`);
    }
    out[key] = item;
  }
  return out;
}

/** Reads a `tools` object (a curation); `bad` makes the error naming where it is. */
export function parseCuration(value: unknown, bad: (what: string) => TypeError): Curation {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw bad('has "tools" that is not an object ({"allow", "deny", "rename", "describe"})');
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!['allow', 'deny', 'rename', 'describe'].includes(key)) {
      throw bad(`has an unknown field "tools.${key}" (allow, deny, rename, describe)`);
    }
  }
  const list = (key: string): string[] | undefined => {
    const items = record[key];
    if (items === undefined) return undefined;
    if (!Array.isArray(items) || !items.every((item) => typeof item === 'string')) {
      throw bad(`has "tools.${key}" that is not a list of strings`);
    }
    return items;
  };
  const map = (key: string): Record<string, string> | undefined => {
    const items = record[key];
    if (items === undefined) return undefined;
    if (typeof items !== 'object' || items === null || Array.isArray(items)) {
      throw bad(`has "tools.${key}" that is not an object of strings`);
    }
    if (!Object.values(items).every((item) => typeof item === 'string')) {
      throw bad(`has "tools.${key}" that is not an object of strings`);
    }
    return items as Record<string, string>;
  };
  const rename = map('rename');
  for (const [from, to] of Object.entries(rename ?? {})) {
    if (!MODEL_TOOL_NAME.test(to)) {
      throw bad(`renames "${from}" to "${to}", which is not 1-64 characters of a-z A-Z 0-9 _ -`);
    }
  }
  const allow = list('allow');
  const deny = list('deny');
  const describe = map('describe');
  return {
    ...(allow === undefined ? {} : { allow }),
    ...(deny === undefined ? {} : { deny }),
    ...(rename === undefined ? {} : { rename }),
    ...(describe === undefined ? {} : { describe }),
  };
}

/** Whether `name` matches a name or glob (`*` stands for any run of characters). */
export function matchesGlob(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(name);
}

/** Whether a curation lets the upstream tool `name` through (deny wins over allow). */
export function isServed(curation: Curation | undefined, name: string): boolean {
  if (curation === undefined) return true;
  if (curation.deny?.some((pattern) => matchesGlob(pattern, name)) === true) return false;
  if (curation.allow === undefined) return true;
  return curation.allow.some((pattern) => matchesGlob(pattern, name));
}
