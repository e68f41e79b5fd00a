// A gateway's policies, compiled: each rule's patterns become one regular expression per list,
// the rules that apply to a principal are found once per principal (a bit string names the
// set), and decisions are memoized per set of rules and upstream entry. A call's decision is
// then two WeakMap reads and a Map read. See docs/gateway.md, "Policies".
import type { Principal } from '../principal.js';
import type { ArgumentValues, PolicyRule, PolicyWhen } from './config.js';
import { DEFAULT_ENDPOINT } from './config.js';

/** What a principal may do with a visible tool: any argument values, or those of a grant. */
export interface ToolGrant {
  /** The rules' argument constraints, one of which a call must meet; undefined: none. */
  readonly constraints: readonly CompiledArguments[] | undefined;
}

/** A tool's allowed argument values, compiled. */
export type CompiledArguments = ReadonlyMap<string, (value: unknown) => boolean>;

/** What the rules that apply to one principal decide. Decisions are memoized. */
export interface PolicyView {
  /** The grant of upstream tool `name` of `upstream`; undefined when it is hidden. */
  tool(upstream: string, name: string): ToolGrant | undefined;
  /** Whether an upstream prompt is visible (listed and gettable). */
  prompt(upstream: string, name: string): boolean;
  /** Whether an upstream resource (or template) is visible (listed and readable). */
  resource(upstream: string, uri: string): boolean;
  /** The names of the rules that apply (unnamed ones as `#<index>`), for the audit log. */
  readonly rules: readonly string[];
}

interface CompiledRule {
  readonly name: string;
  readonly applies: (principal: Principal) => boolean;
  readonly tools: Lists;
  readonly prompts: Lists;
  readonly resources: Lists;
  readonly arguments: readonly { pattern: RegExp; values: CompiledArguments }[];
}

interface Lists {
  readonly allow: RegExp | undefined;
  readonly deny: RegExp | undefined;
}

/** Most distinct sets of rules remembered (then the memo starts again). */
const MAX_VIEWS = 1024;
/** Most decisions remembered per view (then its memo starts again). */
const MAX_DECISIONS = 10_000;

/**
 * Policy is the compiled `policies` of a config for one endpoint. A principal sees what some
 * rule that applies to it allows, unless a rule that applies denies it (deny wins); with no rule
 * allowing, nothing. Safe to share; decisions are pure functions of the rules and the principal.
 */
export class Policy {
  readonly #rules: readonly CompiledRule[];
  readonly #views = new Map<string, PolicyView>();
  readonly #byPrincipal = new WeakMap<Principal, PolicyView>();

  /** Compiles `rules` for the endpoint `endpoint` (`''` or `default`: the default one). */
  constructor(rules: readonly PolicyRule[], endpoint: string) {
    const name = endpoint === '' ? DEFAULT_ENDPOINT : endpoint;
    this.#rules = rules
      .map((rule, index) => ({ rule, index }))
      .filter(({ rule }) => rule.endpoints === undefined || rule.endpoints.includes(name))
      .map(({ rule, index }) => compileRule(rule, index));
  }

  /** What the rules decide for `principal` (found once per principal object). */
  viewOf(principal: Principal): PolicyView {
    let view = this.#byPrincipal.get(principal);
    if (view !== undefined) return view;
    let key = '';
    for (const rule of this.#rules) key += rule.applies(principal) ? '1' : '0';
    view = this.#views.get(key);
    if (view === undefined) {
      if (this.#views.size >= MAX_VIEWS) this.#views.clear();
      view = makeView(this.#rules.filter((_rule, index) => key[index] === '1'));
      this.#views.set(key, view);
    }
    this.#byPrincipal.set(principal, view);
    return view;
  }
}

function makeView(rules: readonly CompiledRule[]): PolicyView {
  const tools = new Map<string, ToolGrant | null>();
  const prompts = new Map<string, boolean>();
  const resources = new Map<string, boolean>();
  const remember = <T>(memo: Map<string, T>, key: string, value: T): T => {
    if (memo.size >= MAX_DECISIONS) memo.clear();
    memo.set(key, value);
    return value;
  };
  return {
    // Frozen: audit records share it, and the audit log writes its JSON once (audit.ts).
    rules: Object.freeze(rules.map((rule) => rule.name)),
    tool(upstream, name) {
      const key = `${upstream}/${name}`;
      const known = tools.get(key);
      if (known !== undefined) return known ?? undefined;
      return remember(tools, key, grantOf(rules, key)) ?? undefined;
    },
    prompt(upstream, name) {
      const key = `${upstream}/${name}`;
      return prompts.get(key) ?? remember(prompts, key, visible(rules, 'prompts', key));
    },
    resource(upstream, uri) {
      const key = `${upstream}/${uri}`;
      return resources.get(key) ?? remember(resources, key, visible(rules, 'resources', key));
    },
  };
}

function visible(
  rules: readonly CompiledRule[],
  kind: 'tools' | 'prompts' | 'resources',
  key: string,
): boolean {
  let allowed = false;
  for (const rule of rules) {
    const lists = rule[kind];
    if (lists.deny?.test(key) === true) return false;
    if (!allowed && lists.allow?.test(key) === true) allowed = true;
  }
  return allowed;
}

/** The grant of a tool (null: hidden): unconstrained when one allowing rule has no constraint. */
function grantOf(rules: readonly CompiledRule[], key: string): ToolGrant | null {
  if (!visible(rules, 'tools', key)) return null;
  const constraints: CompiledArguments[] = [];
  for (const rule of rules) {
    if (rule.tools.allow?.test(key) !== true) continue;
    const constraint = rule.arguments.find(({ pattern }) => pattern.test(key));
    if (constraint === undefined) return { constraints: undefined };
    constraints.push(constraint.values);
  }
  return { constraints };
}

/**
 * Why a call's arguments are refused under `grant` (a sentence for the model), or undefined
 * when one of its constraints is met (or it has none).
 */
export function refusedArguments(
  grant: ToolGrant,
  args: Readonly<Record<string, unknown>>,
): string | undefined {
  if (grant.constraints === undefined) return undefined;
  let reason = 'no argument values are allowed';
  for (const constraint of grant.constraints) {
    const failed = [...constraint].find(([name, check]) => !check(args[name]));
    if (failed === undefined) return undefined;
    reason = `the value of "${failed[0]}" is not one this gateway's policy allows`;
  }
  return reason;
}

function compileRule(rule: PolicyRule, index: number): CompiledRule {
  return {
    name: rule.name ?? `#${String(index)}`,
    applies: compileWhen(rule.when),
    tools: compileLists(rule.tools),
    prompts: compileLists(rule.prompts),
    resources: compileLists(rule.resources),
    arguments: Object.entries(rule.arguments ?? {}).map(([pattern, values]) => ({
      pattern: globs([pattern]) as RegExp,
      values: compileValues(values),
    })),
  };
}

function compileLists(
  lists: { allow?: readonly string[]; deny?: readonly string[] } | undefined,
): Lists {
  return { allow: globs(lists?.allow), deny: globs(lists?.deny) };
}

function compileValues(values: ArgumentValues): CompiledArguments {
  const checks = new Map<string, (value: unknown) => boolean>();
  for (const [name, allowed] of Object.entries(values)) {
    const strings = globs(allowed.filter((v): v is string => typeof v === 'string'));
    const others = allowed.filter((v) => typeof v !== 'string');
    checks.set(name, (value) =>
      typeof value === 'string'
        ? strings?.test(value) === true
        : others.includes(value as number | boolean),
    );
  }
  return checks;
}

function compileWhen(when: PolicyWhen | undefined): (principal: Principal) => boolean {
  if (when === undefined) return () => true;
  const scopes = when.scopes ?? [];
  const clients = globs(when.clients);
  const subjects = globs(when.subjects);
  const claims = Object.entries(when.claims ?? {}).map(([claim, values]) => ({
    claim,
    pattern: globs(values),
  }));
  return (principal) =>
    scopes.every((scope) => principal.scopes.includes(scope)) &&
    (clients === undefined || clients.test(principal.clientId ?? '\u0000')) &&
    (subjects === undefined || subjects.test(principal.subject ?? '\u0000')) &&
    claims.every(({ claim, pattern }) => claimMatches(principal.claims[claim], pattern));
}

function claimMatches(value: unknown, pattern: RegExp | undefined): boolean {
  if (pattern === undefined) return false;
  if (typeof value === 'string') return pattern.test(value);
  if (typeof value === 'number' || typeof value === 'boolean') return pattern.test(String(value));
  if (Array.isArray(value)) return value.some((item) => claimMatches(item, pattern));
  return false;
}

/** One anchored expression for names and globs (`*` any run of characters); undefined for none. */
function globs(patterns: readonly string[] | undefined): RegExp | undefined {
  if (patterns === undefined || patterns.length === 0) return undefined;
  const alternatives = patterns.map((pattern) =>
    pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*'),
  );
  return new RegExp(`^(?:${alternatives.join('|')})$`);
}
