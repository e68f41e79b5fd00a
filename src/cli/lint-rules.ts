// The rules of `mcpkit lint`: pure checks over listed tool definitions. Each finding names its
// rule (a stable id), a severity and a fix. The rules aim at what makes models pick the wrong
// tool or fill arguments wrong: missing or vague descriptions, schemas looser than their prose,
// names that break the spec or look alike, and too much text in the context.
import type { Tool } from '../client/index.js';
import { ESTIMATE } from '../catalogue/index.js';
import { checkToolName, scanParamHeaders } from '../protocol/index.js';
import { editDistance } from './did-you-mean.js';

/** How bad a finding is. Only `error` makes lint exit 1. */
export type Severity = 'error' | 'warn' | 'info';

/** A rule: what it checks and how to fix what it finds. */
export interface Rule {
  readonly severity: Severity;
  readonly summary: string;
  readonly hint: string;
}

/** A rule id. */
export type RuleId =
  | 'name-invalid'
  | 'header-invalid'
  | 'description-missing'
  | 'description-vague'
  | 'description-no-when'
  | 'description-too-long'
  | 'param-missing-type'
  | 'param-missing-description'
  | 'schema-drift'
  | 'schema-no-required'
  | 'schema-open-object'
  | 'name-near-duplicate'
  | 'too-many-tools';

/** Every rule, by id. */
export const RULES: Readonly<Record<RuleId, Rule>> = {
  'name-invalid': {
    severity: 'error',
    summary: "the tool name breaks the spec's rules (1-128 of A-Z a-z 0-9 _ - .)",
    hint: 'rename the tool using only letters, digits, "_", "-" and "."',
  },
  'header-invalid': {
    severity: 'error',
    summary:
      "an x-mcp-header annotation breaks the spec's rules, so 2026-07-28 clients leave the tool out",
    hint: 'use a unique HTTP token on a string, integer or boolean property reached through "properties" alone',
  },
  'description-missing': {
    severity: 'error',
    summary: 'the tool has no description, so models guess what it does from its name',
    hint: 'add a description: what the tool does, when to use it, and what it returns',
  },
  'description-vague': {
    severity: 'warn',
    summary: 'the description is too short or generic to choose the tool by',
    hint: 'say what the tool does, to what, and what it returns, in a sentence or two',
  },
  'description-no-when': {
    severity: 'info',
    summary: 'the description says what the tool does but not when to use it',
    hint: 'add when to use it (or not), e.g. "Use it when …", "Call it before …"',
  },
  'description-too-long': {
    severity: 'warn',
    summary: 'the description costs many tokens in every request',
    hint: 'keep the description to what a model needs to choose and call the tool; move details to the parameters',
  },
  'param-missing-type': {
    severity: 'warn',
    summary: 'a parameter has no type, so models guess its shape',
    hint: 'give the parameter a "type" (or enum/const/anyOf)',
  },
  'param-missing-description': {
    severity: 'warn',
    summary: 'a parameter has no description',
    hint: 'describe the parameter: its meaning, units and an example value',
  },
  'schema-drift': {
    severity: 'warn',
    summary:
      'the prose promises a URL, email, hostname, date or a set of values the schema does not enforce',
    hint: 'enforce it in the schema with "format", "pattern" or "enum"',
  },
  'schema-no-required': {
    severity: 'warn',
    summary: 'an object schema with properties has no "required" list',
    hint: 'list the required properties in "required" (an empty list says all are optional)',
  },
  'schema-open-object': {
    severity: 'info',
    summary: 'an object schema accepts properties it does not declare',
    hint: 'set "additionalProperties": false so that misspelled arguments are refused',
  },
  'name-near-duplicate': {
    severity: 'warn',
    summary: 'tool names that are equal or nearly equal, in one server or across servers',
    hint: 'rename one of them so that the difference is obvious, or merge them',
  },
  'too-many-tools': {
    severity: 'warn',
    summary: 'one server offers more tools than models choose among reliably',
    hint: 'split the server, merge related tools, or let hosts enable subsets',
  },
};

/** One problem found. */
export interface Finding {
  readonly rule: RuleId;
  readonly severity: Severity;
  readonly server: string;
  /** The tool, unless the finding is about the whole server. */
  readonly tool?: string;
  /** The parameter's path (`filters.since`, `items[].id`), for parameter findings. */
  readonly parameter?: string;
  readonly message: string;
  readonly hint: string;
}

/** Options of {@link lintServers}. */
export interface LintOptions {
  /** Counts tokens; without it, the host's estimate (about four characters a token). */
  countTokens?: (text: string) => number;
  /** More tools than this in one server is a finding. Default 40. */
  maxTools?: number;
  /** A description longer than this many tokens is a finding. Default 400. */
  maxDescriptionTokens?: number;
}

/** Runs every rule over the servers' tools. Findings come in server, then tool order. */
export function lintServers(
  servers: readonly {
    name: string;
    tools: readonly Tool[];
    /** Tools the client left out, with the reason (they are findings too). */
    rejected?: readonly { name: string; reason: string }[];
  }[],
  options: LintOptions = {},
): Finding[] {
  const findings: Finding[] = [];
  const maxTools = options.maxTools ?? 40;
  for (const server of servers) {
    const add = (rule: RuleId, at: { tool?: string; parameter?: string }, message: string) => {
      findings.push({
        rule,
        severity: RULES[rule].severity,
        server: server.name,
        ...at,
        message,
        hint: RULES[rule].hint,
      });
    };
    if (server.tools.length > maxTools) {
      add(
        'too-many-tools',
        {},
        `${String(server.tools.length)} tools (more than ${String(maxTools)})`,
      );
    }
    for (const { name, reason } of server.rejected ?? [])
      add('header-invalid', { tool: name }, reason);
    for (const tool of server.tools) lintTool(tool, { add, options });
    nearDuplicatesWithin(server.tools, add);
  }
  nearDuplicatesAcross(servers, findings);
  return findings;
}

type Add = (rule: RuleId, at: { tool?: string; parameter?: string }, message: string) => void;

function lintTool(tool: Tool, context: { add: Add; options: LintOptions }): void {
  const { add, options } = context;
  const at = { tool: tool.name };
  for (const problem of checkToolName(tool.name))
    add('name-invalid', at, `the name ${problem.message}`);
  const headers = scanParamHeaders(tool.inputSchema);
  if (!headers.ok) add('header-invalid', at, headers.problem);
  const description = tool.description?.trim() ?? '';
  if (description === '') {
    add('description-missing', at, 'no description');
  } else {
    const vague = vagueness(description, tool);
    if (vague !== undefined) add('description-vague', at, `the description ${vague}`);
    else if (!USAGE_CUE.test(description)) {
      add('description-no-when', at, 'the description does not say when to use the tool');
    }
    const limit = options.maxDescriptionTokens ?? 400;
    const tokens = (options.countTokens ?? ESTIMATE.count)(description);
    if (tokens > limit) {
      const how = options.countTokens === undefined ? 'about ' : '';
      add(
        'description-too-long',
        at,
        `the description is ${how}${String(tokens)} tokens (more than ${String(limit)})`,
      );
    }
  }
  walkObject(asSchema(tool.inputSchema), '', { tool: tool.name, add });
}

// Cues that a description says when (or when not) to use the tool.
const USAGE_CUE =
  /\b(use (this|it|when|for|to|only|before|after|instead|with)|when(ever)?|before|after|if (you|the|a|an)|in order to|only (for|when|if|to)|instead of|rather than|call (this|it)|prefer|e\.g\.|for example|useful (for|when)|do not use|don't use|avoid)\b/i;

const GENERIC = /\b(does (stuff|things|something)|various things|todo|tbd|fixme|lorem ipsum)\b/i;

/** Why a description is vague, or undefined. */
function vagueness(description: string, tool: Tool): string | undefined {
  const same = (other: string | undefined) =>
    other !== undefined && normalizeName(other) === normalizeName(description);
  if (same(tool.name) || same(tool.title)) return 'only repeats the tool name';
  const words = description.split(/\s+/).filter((word) => word !== '');
  if (words.length < 4 || description.length < 20) {
    return `is only ${String(words.length)} word${words.length === 1 ? '' : 's'} long`;
  }
  if (GENERIC.test(description)) return 'is a placeholder';
  return undefined;
}

type Schema = Record<string, unknown>;

function asSchema(value: unknown): Schema | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Schema)
    : undefined;
}

/** Checks an object schema and each of its properties, recursing into nested objects. */
function walkObject(
  schema: Schema | undefined,
  path: string,
  at: { tool: string; add: Add },
): void {
  const properties = asSchema(schema?.['properties']);
  if (schema === undefined || properties === undefined) return;
  const names = Object.keys(properties);
  if (names.length > 0) {
    const where = path === '' ? { tool: at.tool } : { tool: at.tool, parameter: path };
    const what = path === '' ? 'the input schema' : `object "${path}"`;
    // Without "required" every property is optional: fine when each says what it defaults to.
    const allDefaulted = names.every(
      (name) => asSchema(properties[name])?.['default'] !== undefined,
    );
    if (!Array.isArray(schema['required']) && !allDefaulted) {
      at.add('schema-no-required', where, `${what} has properties but no "required" list`);
    }
    if (schema['additionalProperties'] !== false && schema['unevaluatedProperties'] !== false) {
      at.add('schema-open-object', where, `${what} accepts undeclared properties`);
    }
  }
  for (const name of names) {
    const property = asSchema(properties[name]);
    const paramPath = path === '' ? name : `${path}.${name}`;
    if (property === undefined) continue;
    lintParameter(name, property, { tool: at.tool, parameter: paramPath, add: at.add });
    walkObject(property, paramPath, at);
    const items = asSchema(property['items']);
    if (items !== undefined) walkObject(items, `${paramPath}[]`, at);
  }
}

const TYPED_BY = ['type', 'enum', 'const', '$ref', 'anyOf', 'oneOf', 'allOf'];

function lintParameter(
  name: string,
  schema: Schema,
  at: { tool: string; parameter: string; add: Add },
): void {
  const where = { tool: at.tool, parameter: at.parameter };
  if (!TYPED_BY.some((key) => key in schema)) {
    at.add('param-missing-type', where, `parameter "${at.parameter}" has no type`);
  }
  const description = typeof schema['description'] === 'string' ? schema['description'].trim() : '';
  if (description === '') {
    at.add('param-missing-description', where, `parameter "${at.parameter}" has no description`);
  }
  const drift = driftOf(name, description, schema);
  if (drift !== undefined) at.add('schema-drift', where, `parameter "${at.parameter}": ${drift}`);
}

interface FormatPromise {
  readonly what: string;
  readonly prose: RegExp;
  readonly name: RegExp;
  readonly formats: readonly string[];
  readonly fix: string;
}

// What a parameter's name or description can promise about a string, and the formats that keep it.
const PROMISES: readonly FormatPromise[] = [
  {
    what: 'a URL',
    prose: /\b(url|uri|https?:\/\/\S*|web address)\b/i,
    name: /(^|[_-])(url|uri|href)$|[a-z](Url|URL|Uri|URI|Href)$/i,
    formats: ['uri', 'uri-reference', 'iri', 'iri-reference', 'url'],
    fix: '"format": "uri"',
  },
  {
    what: 'an email address',
    prose: /\be-?mail( address)?\b/i,
    name: /(^|[_-])e-?mail$|[a-z]Email$/i,
    formats: ['email', 'idn-email'],
    fix: '"format": "email"',
  },
  {
    what: 'a hostname',
    prose: /\b(host ?name|domain name|fqdn|ip address)\b/i,
    name: /(^|[_-])(host|hostname|domain)$|[a-z](Host|Hostname|Domain)$/i,
    formats: ['hostname', 'idn-hostname', 'ipv4', 'ipv6'],
    fix: '"format": "hostname"',
  },
  {
    what: 'a date',
    prose: /\b(date|datetime|date-time|timestamp|iso[ -]?8601|yyyy-mm-dd|rfc ?3339)\b/i,
    name: /(^|[_-])(date|datetime|timestamp)$|[a-z](Date|Datetime|DateTime|Timestamp)$/i,
    formats: ['date', 'date-time', 'time'],
    fix: '"format": "date" or "date-time"',
  },
];

// Prose that promises a fixed set of values: "one of …", 'a' or 'b', a|b.
const ENUM_PROSE =
  /\b(one of|possible values|allowed values|valid values|accepted values|supported values|options are)\b/i;
const QUOTED_LIST =
  /(["'`])[^"'`\s]{1,40}\1(\s*(,|\/|\||\bor\b)\s*(or\s+)?(["'`])[^"'`\s]{1,40}\5)+/i;
const PIPE_LIST = /\b[a-z][\w-]*(\s*\|\s*[a-z][\w-]*)+\b/i;

/** What the prose promises that the schema does not enforce, or undefined. */
function driftOf(name: string, description: string, schema: Schema): string | undefined {
  if (['enum', 'const', 'pattern', 'anyOf', 'oneOf'].some((key) => key in schema)) return undefined;
  const type = schema['type'];
  const stringy =
    type === undefined || type === 'string' || (Array.isArray(type) && type.includes('string'));
  if (stringy && typeof schema['format'] !== 'string') {
    for (const promise of PROMISES) {
      const byName = promise.name.test(name);
      if (!byName && !promise.prose.test(description)) continue;
      const source = byName ? 'its name says' : 'its description promises';
      return `${source} ${promise.what}, but the schema has no format or pattern (add ${promise.fix})`;
    }
  }
  if (
    type !== 'array' &&
    (ENUM_PROSE.test(description) || QUOTED_LIST.test(description) || PIPE_LIST.test(description))
  ) {
    return 'its description lists allowed values, but the schema has no "enum"';
  }
  return undefined;
}

/** A name lower-cased, without separators and without a plural `s`. */
function normalizeName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[\s_.-]+/g, '')
    .replace(/s$/, '');
}

/** Why two names look alike, or undefined. */
function likeness(a: string, b: string): string | undefined {
  if (a === b) return 'the same name';
  const [na, nb] = [normalizeName(a), normalizeName(b)];
  if (na === nb) return 'names that differ only in case, separators or a plural';
  if (Math.min(na.length, nb.length) >= 8 && editDistance(na, nb) === 1)
    return 'names one edit apart';
  return undefined;
}

function nearDuplicatesWithin(tools: readonly Tool[], add: Add): void {
  tools.forEach((tool, j) => {
    for (const earlier of tools.slice(0, j)) {
      const why = likeness(earlier.name, tool.name);
      if (why !== undefined)
        add(
          'name-near-duplicate',
          { tool: tool.name },
          `"${tool.name}" and "${earlier.name}" have ${why}`,
        );
    }
  });
}

function nearDuplicatesAcross(
  servers: readonly { name: string; tools: readonly Tool[] }[],
  findings: Finding[],
): void {
  servers.forEach((server, j) => {
    for (const earlier of servers.slice(0, j)) {
      for (const tool of server.tools) {
        for (const other of earlier.tools) {
          const why = likeness(other.name, tool.name);
          if (why === undefined) continue;
          findings.push({
            rule: 'name-near-duplicate',
            severity: RULES['name-near-duplicate'].severity,
            server: server.name,
            tool: tool.name,
            message: `"${tool.name}" and "${other.name}" of server "${earlier.name}" have ${why}; an agent connected to both sees both`,
            hint: RULES['name-near-duplicate'].hint,
          });
        }
      }
    }
  });
}
