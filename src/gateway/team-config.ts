// The parts of a gateway config for a team: several endpoints (`endpoints`), who sees and calls
// what (`policies`, ./policy/config.ts), identity from a fronting proxy (`identity`) and the
// audit log (`audit`). Read by parseGatewayConfig; each part is optional.
import type { Curation } from './curation.js';
import type { PolicyRule } from './policy/config.js';
import { DEFAULT_ENDPOINT, parsePolicies } from './policy/config.js';

/** One named endpoint ("virtual server"), served at `/mcp/<name>`. */
export interface EndpointConfig {
  /** The upstreams it serves (names of the config's servers). */
  readonly servers: readonly string[];
  /**
   * Curation by server on this endpoint, merged with the server's own: deny lists add up; the
   * endpoint's allow, rename and describe replace the server's.
   */
  readonly curation: Readonly<Record<string, Curation>>;
  /** Its token budget (default: the gateway's `--budget`). */
  readonly budget?: number;
}

/** Identity from a fronting proxy: the headers it sets (lower-case names). */
export interface IdentityConfig {
  readonly header?: {
    readonly subject: string;
    readonly clientId?: string;
    readonly scopes?: string;
    readonly claims?: Readonly<Record<string, string>>;
    /** A header the proxy sets to a shared secret, and the environment variable holding it. */
    readonly secretHeader?: string;
    readonly secretEnv?: string;
  };
}

/** Where the audit log goes and what it holds. */
export interface AuditConfig {
  /** `stdout` (or `-`), or a file appended to. Absent: no audit log (unless `--audit`). */
  readonly to?: string;
  /** Whether each line carries the call's arguments (default false: only their hash). */
  readonly arguments: boolean;
}

/** The team parts of a config. */
export interface TeamConfig {
  readonly endpoints?: Readonly<Record<string, EndpointConfig>>;
  readonly policies?: readonly PolicyRule[];
  readonly identity?: IdentityConfig;
  readonly audit?: AuditConfig;
}

const ENDPOINT_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * Reads `endpoints`, `policies`, `identity` and `audit` of a config's root; `serverNames` are the
 * names under `mcpServers`, `curationOf` reads a `tools` object. Throws TypeError naming the
 * part and field at fault.
 */
export function parseTeamConfig(
  root: Readonly<Record<string, unknown>>,
  serverNames: readonly string[],
  curationOf: (value: unknown, bad: (what: string) => TypeError) => Curation,
): TeamConfig {
  const out: Record<string, unknown> = {};
  const endpoints =
    root['endpoints'] === undefined
      ? undefined
      : parseEndpoints(root['endpoints'], serverNames, curationOf);
  if (endpoints !== undefined) out['endpoints'] = endpoints;
  if (root['policies'] !== undefined) {
    out['policies'] = parsePolicies(root['policies'], Object.keys(endpoints ?? {}));
  }
  if (root['identity'] !== undefined) out['identity'] = parseIdentity(root['identity']);
  if (root['audit'] !== undefined) out['audit'] = parseAudit(root['audit']);
  return out;
}

function parseEndpoints(
  value: unknown,
  serverNames: readonly string[],
  curationOf: (value: unknown, bad: (what: string) => TypeError) => Curation,
): Record<string, EndpointConfig> {
  const endpoints = object(
    value,
    () => new TypeError('the config has "endpoints" that is not an object'),
  );
  const out: Record<string, EndpointConfig> = {};
  for (const [name, item] of Object.entries(endpoints)) {
    const bad = (what: string) => new TypeError(`endpoint "${name}" ${what}`);
    if (!ENDPOINT_NAME.test(name) || name === DEFAULT_ENDPOINT) {
      throw bad(`is not a valid name: 1-64 characters of a-z 0-9 _ -, not "${DEFAULT_ENDPOINT}"`);
    }
    const entry = object(item, () => bad('is not an object ({"servers", "tools", "budget"})'));
    for (const key of Object.keys(entry)) {
      if (!['servers', 'tools', 'budget'].includes(key)) {
        throw bad(`has an unknown field "${key}" (servers, tools, budget)`);
      }
    }
    const servers = entry['servers'];
    if (!Array.isArray(servers) || !servers.every((s) => typeof s === 'string')) {
      throw bad('has "servers" that is not a list of server names');
    }
    for (const server of servers) {
      if (!serverNames.includes(server))
        throw bad(`names the server "${server}", which the config does not have`);
    }
    const curation: Record<string, Curation> = {};
    if (entry['tools'] !== undefined) {
      const tools = object(entry['tools'], () =>
        bad('has "tools" that is not an object by server name'),
      );
      for (const [server, lists] of Object.entries(tools)) {
        if (!servers.includes(server)) {
          throw bad(`curates "${server}", which is not one of its servers`);
        }
        curation[server] = curationOf(lists, (what) => bad(`(server "${server}") ${what}`));
      }
    }
    const budget = entry['budget'];
    if (
      budget !== undefined &&
      (typeof budget !== 'number' || !Number.isSafeInteger(budget) || budget < 1)
    ) {
      throw bad('has a "budget" that is not a positive integer');
    }
    out[name] = {
      servers: servers,
      curation,
      ...(budget === undefined ? {} : { budget }),
    };
  }
  return out;
}

/** The curation of a server on an endpoint: deny lists add up, the endpoint's others win. */
export function mergeCuration(
  own: Curation | undefined,
  endpoint: Curation | undefined,
): Curation | undefined {
  if (own === undefined || endpoint === undefined) return endpoint ?? own;
  const deny = [...(own.deny ?? []), ...(endpoint.deny ?? [])];
  const allow = endpoint.allow ?? own.allow;
  return {
    ...(allow === undefined ? {} : { allow }),
    ...(deny.length === 0 ? {} : { deny }),
    rename: { ...own.rename, ...endpoint.rename },
    describe: { ...own.describe, ...endpoint.describe },
  };
}

function parseIdentity(value: unknown): IdentityConfig {
  const bad = (what: string) => new TypeError(`the config's "identity" ${what}`);
  const identity = object(value, () => bad('is not an object ({"header"})'));
  for (const key of Object.keys(identity)) {
    if (key !== 'header') throw bad(`has an unknown field "${key}" (header)`);
  }
  const header = object(identity['header'], () => bad('has "header" that is not an object'));
  const fields = ['subject', 'clientId', 'scopes', 'claims', 'secretHeader', 'secretEnv'];
  for (const [key, item] of Object.entries(header)) {
    if (!fields.includes(key))
      throw bad(`has an unknown field "header.${key}" (${fields.join(', ')})`);
    const ok =
      key === 'claims'
        ? typeof item === 'object' &&
          item !== null &&
          Object.values(item).every((v) => typeof v === 'string')
        : typeof item === 'string' && item !== '';
    if (!ok)
      throw bad(
        `has "header.${key}" that is not ${key === 'claims' ? 'an object of header names' : 'a header name'}`,
      );
  }
  if (typeof header['subject'] !== 'string')
    throw bad('needs "header.subject": the header naming the user');
  if ((header['secretHeader'] === undefined) !== (header['secretEnv'] === undefined)) {
    throw bad('needs "header.secretHeader" and "header.secretEnv" together');
  }
  const lower = (name: unknown) => (typeof name === 'string' ? name.toLowerCase() : name);
  const claims = header['claims'] as Record<string, string> | undefined;
  return {
    header: {
      ...(Object.fromEntries(
        Object.entries(header)
          .filter(([key]) => key !== 'claims')
          .map(([key, item]) => [key, key === 'secretEnv' ? item : lower(item)]),
      ) as { subject: string }),
      ...(claims === undefined
        ? {}
        : {
            claims: Object.fromEntries(
              Object.entries(claims).map(([k, v]) => [k, v.toLowerCase()]),
            ),
          }),
    },
  };
}

function parseAudit(value: unknown): AuditConfig {
  const bad = (what: string) => new TypeError(`the config's "audit" ${what}`);
  const audit = object(value, () => bad('is not an object ({"to", "arguments"})'));
  for (const key of Object.keys(audit)) {
    if (key !== 'to' && key !== 'arguments')
      throw bad(`has an unknown field "${key}" (to, arguments)`);
  }
  if (audit['to'] !== undefined && (typeof audit['to'] !== 'string' || audit['to'] === '')) {
    throw bad('has "to" that is not "stdout" or a file path');
  }
  if (audit['arguments'] !== undefined && typeof audit['arguments'] !== 'boolean') {
    throw bad('has "arguments" that is not true or false');
  }
  return {
    ...(audit['to'] === undefined ? {} : { to: audit['to'] }),
    arguments: audit['arguments'] === true,
  };
}

function object(value: unknown, bad: () => TypeError): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad();
  return value as Record<string, unknown>;
}
