// The `policies` of a gateway config: who (principal) may see and call what (upstream tools,
// prompts, resources) on which endpoint, and with which argument values. Parsed and checked
// here; compiled into matchers by ./policy.ts. See docs/gateway.md, "Policies".

/** Allow and deny lists of `<server>/<name>` patterns (`*` any run of characters). */
export interface AccessLists {
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
}

/** Whom a rule applies to. Every field given must match; none given: everyone. */
export interface PolicyWhen {
  /** Scopes the principal must all have. */
  readonly scopes?: readonly string[];
  /** Client ids (or globs), one of which must be the principal's. */
  readonly clients?: readonly string[];
  /** Subjects (or globs), one of which must be the principal's. */
  readonly subjects?: readonly string[];
  /** Claims by name: the values (or globs) one of which the claim must have (or contain). */
  readonly claims?: Readonly<Record<string, readonly string[]>>;
}

/** Allowed values of a tool's arguments: strings (or globs for string arguments), numbers, booleans. */
export type ArgumentValues = Readonly<Record<string, readonly (string | number | boolean)[]>>;

/** One rule of a policy. */
export interface PolicyRule {
  /** A name, recorded in the audit log with the decisions it makes. */
  readonly name?: string;
  readonly when?: PolicyWhen;
  /** The endpoints it applies on (`default` is `/mcp`); absent: every endpoint. */
  readonly endpoints?: readonly string[];
  /** Upstream tools as `<server>/<tool>` (the upstream's own names). */
  readonly tools?: AccessLists;
  readonly prompts?: AccessLists;
  /** Upstream resources and resource templates as `<server>/<uri>`. */
  readonly resources?: AccessLists;
  /** For tools this rule allows (`<server>/<tool>` patterns): the argument values allowed. */
  readonly arguments?: Readonly<Record<string, ArgumentValues>>;
}

/** The name of the default endpoint (`/mcp`) in policies and the audit log. */
export const DEFAULT_ENDPOINT = 'default';

const RULE_FIELDS = ['name', 'when', 'endpoints', 'tools', 'prompts', 'resources', 'arguments'];
const WHEN_FIELDS = ['scopes', 'clients', 'subjects', 'claims'];

/**
 * Reads the config's `policies` (a list of rules); `endpoints` are the names the config defines
 * (besides `default`). Throws TypeError naming the rule and field at fault.
 */
export function parsePolicies(value: unknown, endpoints: readonly string[]): PolicyRule[] {
  if (!Array.isArray(value)) throw new TypeError('the config has "policies" that is not a list');
  return value.map((item, index) => {
    const bad = (what: string) => new TypeError(`policies[${String(index)}] ${what}`);
    const rule = object(item, bad, 'is not an object');
    unknownFields(rule, [RULE_FIELDS, ''], bad);
    if (rule['name'] !== undefined && typeof rule['name'] !== 'string') {
      throw bad('has a "name" that is not a string');
    }
    const names = strings(rule['endpoints'], bad, 'endpoints');
    for (const name of names ?? []) {
      if (name !== DEFAULT_ENDPOINT && !endpoints.includes(name)) {
        throw bad(`names the endpoint "${name}", which the config does not define`);
      }
    }
    const out: Record<string, unknown> = {};
    if (rule['name'] !== undefined) out['name'] = rule['name'];
    if (rule['when'] !== undefined) out['when'] = parseWhen(rule['when'], bad);
    if (names !== undefined) out['endpoints'] = names;
    for (const kind of ['tools', 'prompts', 'resources']) {
      if (rule[kind] === undefined) continue;
      const lists = object(rule[kind], bad, `has "${kind}" that is not {"allow", "deny"}`);
      unknownFields(lists, [['allow', 'deny'], `${kind}.`], bad);
      out[kind] = {
        ...(lists['allow'] === undefined
          ? {}
          : { allow: strings(lists['allow'], bad, `${kind}.allow`) }),
        ...(lists['deny'] === undefined
          ? {}
          : { deny: strings(lists['deny'], bad, `${kind}.deny`) }),
      };
    }
    if (rule['arguments'] !== undefined) out['arguments'] = parseArguments(rule['arguments'], bad);
    return out;
  });
}

function parseWhen(value: unknown, bad: (what: string) => TypeError): PolicyWhen {
  const when = object(value, bad, 'has "when" that is not an object');
  unknownFields(when, [WHEN_FIELDS, 'when.'], bad);
  const out: Record<string, unknown> = {};
  for (const key of ['scopes', 'clients', 'subjects']) {
    const list = strings(when[key], bad, `when.${key}`);
    if (list !== undefined) out[key] = list;
  }
  if (when['claims'] !== undefined) {
    const claims = object(when['claims'], bad, 'has "when.claims" that is not an object');
    const parsed: Record<string, string[]> = {};
    for (const [claim, values] of Object.entries(claims)) {
      parsed[claim] = strings(values, bad, `when.claims.${claim}`) ?? [];
    }
    out['claims'] = parsed;
  }
  return out;
}

function parseArguments(
  value: unknown,
  bad: (what: string) => TypeError,
): Record<string, ArgumentValues> {
  const tools = object(value, bad, 'has "arguments" that is not an object');
  const out: Record<string, ArgumentValues> = {};
  for (const [tool, args] of Object.entries(tools)) {
    if (!tool.includes('/')) throw bad(`has "arguments.${tool}", which is not <server>/<tool>`);
    const byName = object(args, bad, `has "arguments.${tool}" that is not an object`);
    const parsed: Record<string, (string | number | boolean)[]> = {};
    for (const [name, values] of Object.entries(byName)) {
      const ok =
        Array.isArray(values) &&
        values.every((v) => ['string', 'number', 'boolean'].includes(typeof v));
      if (!ok) throw bad(`has "arguments.${tool}.${name}" that is not a list of values`);
      parsed[name] = values as (string | number | boolean)[];
    }
    out[tool] = parsed;
  }
  return out;
}

function object(
  value: unknown,
  bad: (what: string) => TypeError,
  message: string,
): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(message);
  return value as Record<string, unknown>;
}

function unknownFields(
  value: Record<string, unknown>,
  [known, prefix]: [readonly string[], string],
  bad: (what: string) => TypeError,
): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      throw bad(`has an unknown field "${prefix}${key}" (${known.join(', ')})`);
    }
  }
}

function strings(
  value: unknown,
  bad: (what: string) => TypeError,
  field: string,
): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw bad(`has "${field}" that is not a list of strings`);
  }
  return value;
}
