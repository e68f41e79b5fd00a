// In-place applicators: allOf, anyOf, oneOf, not, if/then/else, dependentSchemas and the schema
// form of draft-07 `dependencies`. They apply subschemas to the same instance, so they also carry
// the unevaluated* tracker: a branch's evaluations count only if the branch passed.
import { isObject } from '../../internal/json.js';
import { explainNoMatch, type Alternatives } from './alternatives.js';
import { showSchemaValue } from './describe.js';
import { readArray, readObject, type Scope } from './scope.js';
import {
  mergeEvaluated,
  newEvaluated,
  probe,
  report,
  stop,
  TRUE,
  type Check,
  type State,
} from './state.js';

function branches(scope: Scope, keyword: string): Check[] | undefined {
  return readArray(scope, keyword)?.map((_, index) => scope.sub([keyword, index], true));
}

/** Runs `checks` in order in the current mode; all must pass. */
export function every(checks: readonly Check[]): Check {
  const [only] = checks;
  if (only === undefined) return TRUE;
  if (checks.length === 1) return only;
  return (value, state) => {
    let ok = true;
    for (const check of checks) {
      if (check(value, state)) continue;
      ok = false;
      if (stop(state)) return false;
    }
    return ok;
  };
}

/** Tries a branch silently; while tracking, its evaluations are kept only if it passed. */
function tryBranch(state: State, check: Check, value: unknown): boolean {
  const outer = state.evaluated;
  if (outer === null) return probe(state, check, value);
  const mine = newEvaluated();
  state.evaluated = mine;
  const ok = probe(state, check, value);
  state.evaluated = outer;
  if (ok) mergeEvaluated(outer, mine);
  return ok;
}

function compileAnyOf(scope: Scope): Check | undefined {
  const checks = branches(scope, 'anyOf');
  if (checks === undefined) return undefined;
  const alternatives: Alternatives = { keyword: 'anyOf', branches: checks };
  return (value, state) => {
    let ok = false;
    for (const check of checks) {
      if (!tryBranch(state, check, value)) continue;
      ok = true;
      // Every passing branch contributes evaluations, so only stop early when nobody tracks them.
      if (state.evaluated === null) return true;
    }
    return ok || (state.issues !== null && explainNoMatch(state, alternatives, value));
  };
}

function compileOneOf(scope: Scope): Check | undefined {
  const checks = branches(scope, 'oneOf');
  if (checks === undefined) return undefined;
  const alternatives: Alternatives = { keyword: 'oneOf', branches: checks };
  return (value, state) => {
    const outer = state.evaluated;
    state.evaluated = null; // failing branches must not count as evaluating anything
    let first = -1;
    let second = -1;
    for (let index = 0; index < checks.length && second < 0; index++) {
      const check = checks[index];
      if (check === undefined || !probe(state, check, value)) continue;
      if (first < 0) first = index;
      else second = index;
    }
    state.evaluated = outer;
    const matched = checks[first];
    if (matched === undefined) {
      return state.issues !== null && explainNoMatch(state, alternatives, value);
    }
    if (second >= 0) {
      const both = `alternatives ${first + 1} and ${second + 1} both match`;
      const message = `expected a value matching exactly one alternative, but ${both}`;
      return state.issues !== null && report(state, { keyword: 'oneOf', message });
    }
    // Run the single match again to collect its evaluations, only when someone tracks them.
    return outer === null || tryBranch(state, matched, value);
  };
}

function compileNot(scope: Scope): Check | undefined {
  const schema = scope.schema['not'];
  if (schema === undefined) return undefined;
  const check = scope.sub(['not'], true);
  const message = `expected a value not matching ${showSchemaValue(schema)}`;
  return (value, state) => {
    const outer = state.evaluated;
    state.evaluated = null; // `not` never contributes evaluations
    const matched = probe(state, check, value);
    state.evaluated = outer;
    return !matched || (state.issues !== null && report(state, { keyword: 'not', message }));
  };
}

function compileConditional(scope: Scope): Check | undefined {
  const { schema } = scope;
  if (schema['if'] === undefined) return undefined;
  const test = scope.sub(['if'], true);
  const then = schema['then'] === undefined ? undefined : scope.sub(['then'], true);
  const otherwise = schema['else'] === undefined ? undefined : scope.sub(['else'], true);
  if (then === undefined && otherwise === undefined) {
    // A bare `if` asserts nothing, but what it evaluates counts for unevaluated* when it passes.
    return (value, state) => {
      if (state.evaluated !== null) tryBranch(state, test, value);
      return true;
    };
  }
  return (value, state) => {
    const branch = tryBranch(state, test, value) ? then : otherwise;
    return branch === undefined || branch(value, state);
  };
}

/** Compiles dependentSchemas, or the schema members of draft-07 `dependencies`. */
function compileDependentSchemas(scope: Scope, keyword: string): Check | undefined {
  const map = readObject(scope, keyword);
  if (map === undefined) return undefined;
  const rules: { key: string; check: Check }[] = [];
  for (const key of Object.keys(map)) {
    if (keyword === 'dependencies' && Array.isArray(map[key])) continue;
    rules.push({ key, check: scope.sub([keyword, key], true) });
  }
  if (rules.length === 0) return undefined;
  return (value, state) => {
    if (!isObject(value)) return true;
    let ok = true;
    for (const { key, check } of rules) {
      if (!Object.hasOwn(value, key) || check(value, state)) continue;
      ok = false;
      if (stop(state)) return false;
    }
    return ok;
  };
}

/** Compiles the in-place applicators of a schema. */
export function compileApplicators(scope: Scope): Check[] {
  const allOf = branches(scope, 'allOf');
  const checks = [
    allOf === undefined ? undefined : every(allOf),
    compileAnyOf(scope),
    compileOneOf(scope),
    compileNot(scope),
    compileConditional(scope),
    compileDependentSchemas(scope, 'dependentSchemas'),
    compileDependentSchemas(scope, 'dependencies'),
  ];
  return checks.filter((check) => check !== undefined);
}
